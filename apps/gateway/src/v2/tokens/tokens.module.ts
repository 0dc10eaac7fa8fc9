import { Module } from '@nestjs/common';
import { V2CoreModule } from '../v2-core.module';
import { TokensController } from './tokens.controller';

/** `/v2/token`: a user's own API tokens (the console's API access page). */
@Module({
  imports: [V2CoreModule],
  controllers: [TokensController],
})
export class V2TokensModule {}
