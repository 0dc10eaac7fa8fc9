import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { CommandContext } from '@app/common';
import { RequestOf, ShareFileV1 } from '@app/contracts';
import { CommandPipe } from '../../shared/command-pipe';
import { ShareFile } from './share-file.usecase';

/** Transport edge of rooms.share-file.v1. */
@Controller()
export class ShareFileHandlers {
  constructor(private readonly shareFile: ShareFile) {}

  @MessagePattern(ShareFileV1.pattern)
  share(@Payload(new CommandPipe(ShareFileV1)) c: RequestOf<typeof ShareFileV1>, @Ctx() ctx: CommandContext) { return this.shareFile.execute(c, ctx.meta); }
}
