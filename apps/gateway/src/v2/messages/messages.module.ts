import { Module } from '@nestjs/common';
import { V2CoreModule } from '../v2-core.module';
import { MessagesController } from './messages.controller';

/** `/v2/room/{room}/message`, `/notification` and `/history`. */
@Module({
  imports: [V2CoreModule],
  controllers: [MessagesController],
})
export class V2MessagesModule {}
