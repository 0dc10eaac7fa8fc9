import { createParamDecorator, ExecutionContext, Controller, Get, Param, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { presentedToken } from '../auth/v2-token.strategy';
import { sessionSecretOf } from '../session/session-cookie';
import { V2Filter } from '../v2.filter';
import { FileLimitGuard } from './file-limit.guard';
import { FileRequest, ServeFile } from './serve-file.usecase';

/** What a file request presents: a token or the session cookie, and a signed link's `expires`, `issued` and `signature`. */
const FileCredentials = createParamDecorator((_: unknown, ctx: ExecutionContext): Omit<FileRequest, 'key'> => {
  const req = ctx.switchToHttp().getRequest<FastifyRequest>();
  const query = (req.query ?? {}) as Record<string, unknown>;
  return { token: presentedToken(req), sessionSecret: sessionSecretOf(req.headers.cookie), expires: query.expires, issued: query.issued, signature: query.signature };
});

/**
 * Shared files, outside /v2: a public room's by their unguessable URL alone (its key holds a
 * random UUID), as HipChat's were; a private room's with credentials or a signed link that
 * expires, and dies sooner when anyone loses access to the room (ServeFile). Rate-limited per
 * token, or per client address without one (FileLimitGuard).
 */
@Controller('files')
@UseFilters(V2Filter)
@UseGuards(FileLimitGuard)
export class FileServingController {
  constructor(private readonly serveFile: ServeFile) {}

  @Get('*')
  async get(@Param('*') key: string, @FileCredentials() credentials: Omit<FileRequest, 'key'>, @Res({ passthrough: true }) res: FastifyReply): Promise<Buffer> {
    const file = await this.serveFile.execute({ key, ...credentials });
    // Set here, not with @Header: those would also go out on a 404.
    res.headers(file.headers);
    return file.data;
  }
}
