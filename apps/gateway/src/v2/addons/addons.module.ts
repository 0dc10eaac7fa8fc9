import { Module } from '@nestjs/common';
import { V2CoreModule } from '../v2-core.module';
import { AddonsController } from './addons.controller';
import { OAuthController } from './oauth.controller';

/** `/v2/addons` (installations) and `/v2/oauth/token` (their access tokens). */
@Module({
  imports: [V2CoreModule],
  controllers: [AddonsController, OAuthController],
})
export class V2AddonsModule {}
