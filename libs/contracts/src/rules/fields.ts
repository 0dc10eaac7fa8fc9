import { IANAZone } from 'luxon';
import { z } from 'zod';
import { LIMITS } from '../models/limits';
import { MESSAGE_FORMATS, NOTIFICATION_COLORS } from '../models/webhook-objects';
import { isCalendarDate } from './history-dates';
import { MAX_ID } from './ids';
import { charLength, controlProblem, firstProblem, htmlProblem, maxLengthProblem, oneOf, text } from './text';

/**
 * Each field's rule, written once. The rooms service parses every command with these
 * schemas; each API's edge runs the same schemas and words the problem with its own
 * parameter name (`topic: must not contain HTML`).
 */
export const field = {
  roomName: text((v) => firstProblem(
    maxLengthProblem(v, LIMITS.roomNameMaxLength),
    controlProblem(v),
    v.trim() !== v ? 'must not start or end with white space' : null,
    v === '' ? 'must not be empty' : null,
    /^\d+$/.test(v) ? 'must not be only digits (it would be read as a room ID)' : null,
  )),
  topic: text((v) => firstProblem(maxLengthProblem(v, LIMITS.topicMaxLength), controlProblem(v), htmlProblem(v))),
  /** Who changed a topic: no documented rule; the v2 notification `from` limit. */
  topicFrom: text((v) => firstProblem(maxLengthProblem(v, 64), controlProblem(v))),
  messageText: text((v) => maxLengthProblem(v, LIMITS.messageMaxLength)),
  /** A message's id (room and private messages alike): a UUID. */
  messageId: text((v) => (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v) ? null : 'must be the id of a message (a UUID)')),
  /** `from` of v1 rooms/message: fewer than 15 letters, digits, `-`, `_` or spaces. */
  senderLabel: text((v) => {
    if (charLength(v) >= LIMITS.fromMaxExclusive) return `must be fewer than ${LIMITS.fromMaxExclusive} characters (got ${charLength(v)})`;
    if (!/^[\p{L}\p{N}_ -]+$/u.test(v)) return 'may contain only letters, digits, "-", "_" and spaces';
    return null;
  }),
  /** `from` of a notification sent by an integration (0-64 characters). */
  notificationFrom: text((v) => firstProblem(maxLengthProblem(v, 64), controlProblem(v))),
  email: text((v) => firstProblem(
    maxLengthProblem(v, LIMITS.emailMaxLength),
    /^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/.test(v) ? null : `must be an e-mail address (got "${v}")`,
  )),
  displayName: text((v) => firstProblem(
    maxLengthProblem(v, LIMITS.userNameMaxLength),
    controlProblem(v),
    v.trim() === '' ? 'must not be blank' : null,
  )).transform((v) => v.trim()),
  mentionName: z.string({ invalid_type_error: 'must be text' }).transform((v) => v.replace(/^@/, '')).pipe(text((v) => firstProblem(
    maxLengthProblem(v, LIMITS.mentionNameMaxLength),
    /^[\p{L}\p{N}_.-]+$/u.test(v) ? null : 'may contain only letters, digits, "_", "." and "-"',
  ))),
  title: text((v) => firstProblem(maxLengthProblem(v, LIMITS.titleMaxLength), controlProblem(v))),
  password: text((v) => firstProblem(
    charLength(v) < LIMITS.passwordMinLength ? `must be at least ${LIMITS.passwordMinLength} characters` : null,
    maxLengthProblem(v, LIMITS.passwordMaxLength),
  )),
  timezone: text((v) => (IANAZone.isValidZone(v) ? null : `must be an IANA time zone name such as UTC or America/New_York (got "${v}")`)),
  /** v1 `date` of rooms/history (read by readHistoryDate). */
  historyDate: text((v) => (v === 'recent' || isCalendarDate(v) ? null : `must be "recent" or a calendar date YYYY-MM-DD (got "${v}")`)),
  privacy: oneOf(['public', 'private'] as const),
  messageFormat: oneOf(MESSAGE_FORMATS as unknown as ['html', 'text']),
  /** A colour as asked for: `random` is resolved by the rooms service, which stores the result. */
  color: oneOf([...NOTIFICATION_COLORS, 'random'] as ['yellow', 'green', 'red', 'purple', 'gray', 'random']),
  id: z.number({ invalid_type_error: 'must be a positive integer ID' }).int('must be a positive integer ID')
    .positive('must be a positive integer ID').max(MAX_ID, 'must be a positive integer ID'),
  flag: z.boolean({ invalid_type_error: 'must be true or false' }),
};

/** The first problem a schema finds in a value, worded for people; null when valid. */
export function problemOf(schema: z.ZodTypeAny, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : result.error.issues[0]?.message ?? 'is invalid';
}
