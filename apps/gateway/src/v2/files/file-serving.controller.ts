import { Controller, Get, Param, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { V2Filter } from '../v2.filter';
import { ServeFile } from './serve-file.usecase';

/**
 * Shared files, public outside /v2: the URL is the credential (its key holds a random
 * UUID), as webhook receivers and chat clients fetch `file.url` without a token.
 */
@Controller('files')
@UseFilters(V2Filter)
export class FileServingController {
  constructor(private readonly serveFile: ServeFile) {}

  @Get('*')
  async get(@Param('*') key: string, @Res({ passthrough: true }) res: FastifyReply): Promise<Buffer> {
    const file = await this.serveFile.execute(key);
    // Set here, not with @Header: those would also go out on a 404.
    res.headers(file.headers);
    return file.data;
  }
}
