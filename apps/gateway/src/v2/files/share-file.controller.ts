import { createParamDecorator, ExecutionContext, HttpCode, Post } from '@nestjs/common';
import type { Actor, RoomRef } from '@app/contracts';
import { FloodControlled, RawBody, RequireScopes, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor, RoomRefParam, V2HttpRequest } from '../http/v2-request';
import { ShareFile, Upload } from './share-file.usecase';

/** The body as bytes (read by V2BodyGuard under @RawBody, up to FILE_MAX_BYTES) and its Content-Type. */
const UploadedBody = createParamDecorator((_: unknown, ctx: ExecutionContext): Upload => {
  const req = ctx.switchToHttp().getRequest<V2HttpRequest>();
  return { contentType: req.headers['content-type'], body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0) };
});

@V2Controller('room')
export class ShareFileController {
  constructor(private readonly shareFile: ShareFile) {}

  /** Multipart (related or form-data): a `file` part, and a message in `metadata` JSON or `message`. */
  @Post(':room/share/file')
  @Summary('Share a file with a room (room_file_upload)')
  @HttpCode(204)
  @RequireScopes('send_message')
  @FloodControlled()
  @RawBody()
  async share(@CurrentActor() actor: Actor, @RoomRefParam() room: RoomRef, @UploadedBody() upload: Upload): Promise<void> {
    await this.shareFile.execute(actor, room, upload);
  }
}
