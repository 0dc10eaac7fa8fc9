import { Controller, Get, Headers, Inject, NotFoundException, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ConsoleFile, ConsoleFiles } from './console-files';
import { CONSOLE_FILES } from './console.tokens';
import { CONSOLE_HEADERS } from './security-headers';

/** The web console: its page at `/` and its assets, from the build (see ConsoleFiles). */
@Controller()
export class ConsoleController {
  constructor(@Inject(CONSOLE_FILES) private readonly files: ConsoleFiles) {}

  @Get()
  index(@Headers('if-none-match') etag: string | undefined, @Res({ passthrough: true }) res: FastifyReply): Buffer | string {
    return send(res, this.files.page('index'), etag, this.files.missing);
  }

  @Get('assets/:file')
  asset(@Param('file') file: string, @Headers('if-none-match') etag: string | undefined, @Res({ passthrough: true }) res: FastifyReply): Buffer | string {
    return send(res, this.files.asset(file), etag, null);
  }
}

/** A console file with its caching and security headers; 304 when the client has it. */
export function send(res: FastifyReply, file: ConsoleFile | undefined, ifNoneMatch: string | undefined, missing: string | null): Buffer | string {
  if (!file) throw new NotFoundException(missing ?? undefined);
  res.headers({
    ...CONSOLE_HEADERS,
    'Content-Type': file.type,
    ETag: file.etag,
    'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === file.etag)) {
    res.status(304);
    return '';
  }
  return file.body;
}
