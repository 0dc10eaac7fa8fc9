import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { V1TokenStrategy } from './v1-token.strategy';
import { V1RequestGuard } from './v1-request.guard';
import { V1Controller } from './v1.controller';
import { V1Filter } from './v1.filter';

/** The HipChat version 1 API: its routes, guards and error bodies (on its own routes only). */
@Module({
  imports: [PassportModule],
  controllers: [V1Controller],
  providers: [V1RequestGuard, V1TokenStrategy, V1Filter],
})
export class V1Module {}
