import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_LOGGER, AppLogger, FileStorage, storageKeyFor, thumbnailName } from '@app/common';
import { Actor, RoomRef, ShareFileV1 } from '@app/contracts';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { ApiError } from '../../shared/api-error';
import { RoomsClient, RoomsOutage } from '../../shared/rooms-client';
import { FileLinks } from './file-links';
import { FILE_LINKS, FILE_STORAGE } from './file-storage.token';
import { parseShareFileBody, ShareFileError } from './multipart';
import { storedContentType } from './serving';
import { makeThumbnail } from './thumbnail';

/** A share-file request as it arrived: the body's bytes and its Content-Type. */
export interface Upload {
  contentType: string | undefined;
  body: Buffer;
}

/**
 * POST /v2/room/{room}/share/file: the file (and an image's thumbnail) is stored first, then
 * one command records the message and its event. A refused command deletes what was stored,
 * so no file stays that no message points at.
 */
@Injectable()
export class ShareFile {
  private readonly base: string;

  constructor(
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(FILE_LINKS) private readonly links: FileLinks,
    private readonly rooms: RoomsClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {
    this.base = config.PUBLIC_BASE_URL;
  }

  async execute(actor: Actor, room: RoomRef, upload: Upload): Promise<void> {
    // The event names the uploader as a User object: room and add-on tokens have no user.
    if (actor.userId === undefined) {
      throw new ApiError(403, 'Sharing a file needs a token that belongs to a user (a personal token): the file is shared as that user.');
    }
    const parsed = await parseShareFileBody(upload.contentType, upload.body, { maxFileBytes: this.config.FILE_MAX_BYTES }).catch((err: unknown) => {
      throw err instanceof ShareFileError ? new ApiError(err.status, err.message) : err;
    });
    const { name, data } = parsed.file;
    const contentType = storedContentType(parsed.file.contentType, data);
    const fileId = randomUUID();
    const key = storageKeyFor(fileId, name);
    const thumb = await makeThumbnail(data);
    const thumbName = thumb ? thumbnailName(name, thumb.contentType) : undefined;
    const thumbKey = thumbName ? storageKeyFor(`${fileId}-thumb`, thumbName) : undefined;

    try {
      await this.storage.put(key, data, contentType, name);
      if (thumb && thumbKey) await this.storage.put(thumbKey, thumb.data, thumb.contentType, thumbName);
      // room_file_upload carries links signed for as long as its deliveries may be retried (unless
      // access to the room changes first: their issue time is signed too).
      const issuedAt = Math.floor(Date.now() / 1000);
      const expiresAt = Math.floor((Date.now() + this.config.FILE_LINK_TTL) / 1000);
      const signedUrlOf = (k: string) => `${this.urlOf(k)}?${this.links.query(k, expiresAt, issuedAt)}`;
      const signed = { url: signedUrlOf(key), ...(thumbKey ? { thumbUrl: signedUrlOf(thumbKey) } : {}) };
      await this.rooms.send(ShareFileV1, {
        actor,
        room,
        file: { name, size: data.length, url: this.urlOf(key), ...(thumbKey ? { thumbUrl: this.urlOf(thumbKey) } : {}), contentType, signed },
        ...(parsed.message !== undefined ? { message: parsed.message } : {}),
      });
    } catch (err) {
      // Unanswered is not refused: the message may exist, and then it needs its file.
      if (err instanceof RoomsOutage && !err.nothingApplied) {
        this.logger.warn({ key, command: err.command }, 'share-file outcome unknown; keeping the stored file');
      } else {
        await this.discard([key, thumbKey]);
      }
      throw err;
    }
  }

  private urlOf(key: string): string {
    // Keys are made of URL-safe characters only (storageKeyFor).
    return `${this.base}/files/${key}`;
  }

  private async discard(keys: Array<string | undefined>): Promise<void> {
    for (const key of keys) {
      if (!key) continue;
      await this.storage.delete(key).catch((err: unknown) =>
        this.logger.warn({ key, err: (err as Error).message }, 'could not delete the file of a failed share'));
    }
  }
}
