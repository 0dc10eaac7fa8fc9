import { LIMITS, MESSAGE_FORMATS, MessageFormat, NOTIFICATION_COLORS, NotificationColor } from '@app/contracts';
import { IANAZone } from 'luxon';
import { badRequest } from './errors';
import { V1Params } from './params';

/** Length in characters (code points), as a person counts them. */
export const charLength = (s: string): number => [...s].length;

const HTML_TAG = /<\/?[A-Za-z!?][^>]*>/;
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export function maxLength(name: string, value: string, max: number): string {
  if (charLength(value) > max) throw badRequest(`${name}: must be at most ${max.toLocaleString('en-US')} characters (got ${charLength(value).toLocaleString('en-US')})`);
  return value;
}

export function noControlCharacters(name: string, value: string): string {
  if (CONTROL.test(value)) throw badRequest(`${name}: must not contain control characters`);
  return value;
}

export function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw badRequest(`${name}: must be one of ${allowed.join(', ')} (got "${value}")`);
  return value as T;
}

/** `0`/`1`/`true`/`false`, case-insensitively; absent gives the default. */
export function flag(params: V1Params, name: string, fallback: boolean): boolean {
  const value = params.optional(name);
  if (value === undefined) return fallback;
  const v = value.toLowerCase();
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  throw badRequest(`${name}: must be 0, 1, true or false (got "${value}")`);
}

export function positiveId(name: string, value: string): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw badRequest(`${name}: must be a positive integer ID (got "${value}")`);
  return Number(value);
}

/** `from` of rooms/message: fewer than 15 characters of letters, digits, `-`, `_` and space. */
export function senderLabel(value: string): string {
  if (charLength(value) >= LIMITS.fromMaxExclusive) {
    throw badRequest(`from: must be fewer than ${LIMITS.fromMaxExclusive} characters (got ${charLength(value)})`);
  }
  if (!/^[\p{L}\p{N}_ -]+$/u.test(value)) throw badRequest('from: may contain only letters, digits, "-", "_" and spaces');
  return value;
}

export function topicText(name: string, value: string): string {
  maxLength(name, value, LIMITS.topicMaxLength);
  noControlCharacters(name, value);
  if (HTML_TAG.test(value)) throw badRequest(`${name}: must not contain HTML`);
  return value;
}

export function messageText(value: string): string {
  return maxLength('message', value, LIMITS.messageMaxLength);
}

export function messageFormat(params: V1Params): MessageFormat {
  const value = params.optional('message_format');
  return value === undefined ? 'html' : oneOf('message_format', value, MESSAGE_FORMATS);
}

/** The colour to store: `random` resolves to one of the five colours. */
export function color(params: V1Params, random: () => number = Math.random): NotificationColor {
  const value = params.optional('color');
  if (value === undefined) return 'yellow';
  const chosen = oneOf('color', value, [...NOTIFICATION_COLORS, 'random'] as const);
  if (chosen === 'random') return NOTIFICATION_COLORS[Math.floor(random() * NOTIFICATION_COLORS.length) % NOTIFICATION_COLORS.length];
  return chosen;
}

export function timezone(params: V1Params, name = 'timezone'): string {
  const value = params.optional(name);
  if (value === undefined) return 'UTC';
  if (!IANAZone.isValidZone(value)) throw badRequest(`${name}: must be an IANA time zone name such as UTC or America/New_York (got "${value}")`);
  return value;
}

export function historyDate(value: string): string {
  if (value === 'recent') return value;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ||
      new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value) {
    throw badRequest(`date: must be "recent" or a calendar date YYYY-MM-DD (got "${value}")`);
  }
  return value;
}

export function roomName(value: string): string {
  maxLength('name', value, LIMITS.roomNameMaxLength);
  noControlCharacters('name', value);
  if (value.trim() !== value) throw badRequest('name: must not start or end with white space');
  if (/^\d+$/.test(value)) throw badRequest('name: must not be only digits (it would be read as a room ID)');
  return value;
}

export function roomRef(params: V1Params): string {
  const value = params.required('room_id');
  return noControlCharacters('room_id', maxLength('room_id', value, 100));
}

export function userRef(params: V1Params): string {
  const value = params.required('user_id');
  return noControlCharacters('user_id', maxLength('user_id', value, LIMITS.emailMaxLength));
}

export function email(value: string): string {
  maxLength('email', value, LIMITS.emailMaxLength);
  if (!/^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/.test(value)) throw badRequest(`email: must be an e-mail address (got "${value}")`);
  return value;
}

export function displayName(value: string): string {
  maxLength('name', value, LIMITS.userNameMaxLength);
  noControlCharacters('name', value);
  if (value.trim() === '') throw badRequest('name: must not be blank');
  return value.trim();
}

export function mentionName(value: string): string {
  const v = value.replace(/^@/, '');
  maxLength('mention_name', v, LIMITS.mentionNameMaxLength);
  if (!/^[\p{L}\p{N}_.-]+$/u.test(v)) throw badRequest('mention_name: may contain only letters, digits, "_", "." and "-"');
  return v;
}

export function title(value: string): string {
  return noControlCharacters('title', maxLength('title', value, LIMITS.titleMaxLength));
}

export function password(value: string): string {
  if (charLength(value) < LIMITS.passwordMinLength) throw badRequest(`password: must be at least ${LIMITS.passwordMinLength} characters`);
  return maxLength('password', value, LIMITS.passwordMaxLength);
}
