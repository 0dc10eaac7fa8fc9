import { Module } from '@nestjs/common';
import { ConsoleController } from './console.controller';
import { ConsoleFiles } from './console-files';
import { CONSOLE_FILES } from './console.tokens';

/** The web console, served from the build at `/` (same origin as the API it uses). */
@Module({
  controllers: [ConsoleController],
  providers: [{ provide: CONSOLE_FILES, useFactory: () => ConsoleFiles.load() }],
  exports: [CONSOLE_FILES],
})
export class ConsoleModule {}
