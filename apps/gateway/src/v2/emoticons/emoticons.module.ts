import { Module } from '@nestjs/common';
import { V2CoreModule } from '../v2-core.module';
import { EmoticonImagesController, EmoticonsController } from './emoticons.controller';

/** `/v2/emoticon` and the public images under `/emoticons`. */
@Module({
  imports: [V2CoreModule],
  controllers: [EmoticonsController, EmoticonImagesController],
})
export class V2EmoticonsModule {}
