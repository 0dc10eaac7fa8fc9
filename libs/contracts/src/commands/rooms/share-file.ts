import { z } from 'zod';
import { controlProblem, firstProblem, maxLengthProblem, text } from '../../rules/text';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';

/** The message that may come with a shared file (HipChat: 1,000 characters). */
export const SHARE_FILE_MESSAGE_MAX_CHARS = 1000;

const httpUrl = text((v) => firstProblem(
  maxLengthProblem(v, 2048),
  /^https?:\/\/[^\s]+$/.test(v) ? null : 'must be an http(s) URL',
));

/**
 * A user shares a file in a room. The gateway has already stored the bytes (and a
 * thumbnail for images); the rooms service records the message and the room_file_upload
 * event. `file.name` is the name the client gave, for display; the URLs hold the storage key.
 */
export const ShareFileV1 = defineCommand<{ messageId: string; date: string }>('rooms.share-file.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  file: z.object({
    name: text((v) => firstProblem(maxLengthProblem(v, 255), controlProblem(v), v === '' ? 'must not be empty' : null)),
    size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    url: httpUrl,
    thumbUrl: httpUrl.optional(),
    contentType: text((v) => maxLengthProblem(v, 255)),
    /**
     * The file's (and thumbnail's) links signed until an instant, with when they were issued
     * (`?expires=...&issued=...&signature=...`): the room_file_upload event carries these, so
     * that a webhook's receiver can fetch a private room's file without credentials while the
     * delivery may still be retried (unless access to the room changes first: revoked).
     * Absent: the event carries `url` and `thumbUrl`. History and live streams show those.
     */
    signed: z.object({ url: httpUrl, thumbUrl: httpUrl.optional() }).optional(),
  }),
  message: text((v) => maxLengthProblem(v, SHARE_FILE_MESSAGE_MAX_CHARS)).optional(),
}));
