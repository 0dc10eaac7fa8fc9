import { BadRequestException, HttpException, NotFoundException } from '@nestjs/common';
import { RpcCommandError, RpcFailure } from '@app/common';
import type { CommandError, CommandErrorReason } from '@app/contracts';
import { ApiError } from './api-error';
import {
  ApiWording, commandErrorOf, fieldNamer, logFailure, namingFields, OUTAGE_MESSAGES, outageMessages, outageOf, SHARED_FIELD_NAMES, toApiError,
} from './command-errors';
import { DispatcherOutage } from './dispatcher-client';
import { ParamProblem } from './request-params';
import { RoomsOutage } from './rooms-client';

/** An API that words nothing itself: what the core alone answers. */
const plain: ApiWording = {
  fieldName: fieldNamer({ ...SHARED_FIELD_NAMES, room: 'room_id' }),
  reason: () => undefined,
  showsDetailMessage: false,
  forbidden: 'You may not.',
  bodyNotParsed: 'Unreadable body.',
};
const chatty: ApiWording = { ...plain, showsDetailMessage: true, notFound: 'Nothing here.' };

const answer = (e: ApiError) => [e.status, e.message];
const err = (code: CommandError['code'], reason: string, field?: string, detail?: CommandError['detail']): CommandError =>
  ({ code, reason: reason as CommandErrorReason, ...(field ? { field } : {}), ...(detail ? { detail } : {}) });

describe('command errors (the core both APIs word)', () => {
  it('names fields as the API does, never by an inherited property', () => {
    const name = fieldNamer({ ...SHARED_FIELD_NAMES, room: 'room_id' });
    expect(['owner', 'messageFormat', 'guestAccess', 'mentionName', 'isGroupAdmin', 'room', 'topic', 'constructor', '__proto__'].map(name))
      .toEqual(['owner_user_id', 'message_format', 'guest_access', 'mention_name', 'is_group_admin', 'room_id', 'topic', 'constructor', '__proto__']);
  });

  it('lets the API word a reason first', () => {
    const own: ApiWording = { ...plain, reason: (e, field) => (e.reason === 'email_taken' ? new ApiError(409, `mine: ${field}`) : undefined) };
    expect(answer(commandErrorOf(err('conflict', 'email_taken', 'email'), own))).toEqual([409, 'mine: email']);
  });

  it.each<[CommandError, number, string]>([
    [err('not_found', 'room_not_found', 'room', { ref: 'No Such Room' }), 404, 'Room No Such Room not found'],
    [err('not_found', 'room_not_found', 'room', { ref: 42 }), 404, 'Room 42 not found'],
    [err('not_found', 'user_not_found', 'user', { ref: 'ada@example.com' }), 404, 'User ada@example.com not found'],
    [err('not_found', 'user_not_found', 'owner', { ref: 999 }), 404, 'owner_user_id: user 999 not found'],
    [err('conflict', 'email_taken', 'email', { email: 'a@b.c' }), 400, 'email: a user with e-mail address "a@b.c" already exists'],
    [err('conflict', 'mention_name_taken', 'mentionName', { mentionName: 'ada' }), 400, 'mention_name: the mention name "ada" is already taken'],
    [err('invalid', 'message_empty_after_sanitizing', 'message'), 400, 'message: is empty once disallowed HTML is removed'],
    [err('invalid', 'rule', 'messageFormat', { problem: 'must be html or text' }), 400, 'message_format: must be html or text'],
    [err('invalid', 'rule', 'room'), 400, 'room_id: is invalid'],
    [err('invalid', 'rule', undefined, { problem: 'is odd' }), 400, 'The request is invalid: is odd'],
    [err('unavailable', 'deadline_passed'), 503, OUTAGE_MESSAGES.unavailable],
    [err('unavailable', 'dependency_failed'), 503, OUTAGE_MESSAGES.unavailable],
    [err('internal', 'unexpected'), 500, OUTAGE_MESSAGES.failed],
  ])('words the reasons both APIs share: %j', (error, status, message) => {
    expect(answer(commandErrorOf(error, plain))).toEqual([status, message]);
  });

  describe('a reason no API knows answers by its code', () => {
    it.each<[CommandError['code'], string | undefined, number, string]>([
      ['not_found', 'room', 404, 'room_id: not found'],
      ['not_found', undefined, 404, 'Not found.'],
      ['invalid', 'owner', 400, 'owner_user_id: is invalid'],
      ['conflict', undefined, 400, 'The request is invalid.'],
      ['forbidden', 'room', 403, 'You may not.'],
      ['unavailable', undefined, 503, OUTAGE_MESSAGES.unavailable],
      ['internal', undefined, 500, OUTAGE_MESSAGES.failed],
    ])('%s (field %s)', (code, field, status, message) => {
      expect(answer(commandErrorOf(err(code, 'brand_new', field), plain))).toEqual([status, message]);
    });

    it('shows detail.message only where the API does', () => {
      const withDetail = (code: CommandError['code'], field?: string) => err(code, 'brand_new', field, { message: 'because' });
      expect(commandErrorOf(withDetail('forbidden'), plain).message).toBe('You may not.');
      expect(commandErrorOf(withDetail('forbidden'), chatty).message).toBe('because');
      expect(commandErrorOf(withDetail('not_found', 'room'), chatty).message).toBe('because');
      expect(commandErrorOf(withDetail('invalid', 'room'), chatty).message).toBe('room_id: because');
      expect(commandErrorOf(withDetail('conflict'), chatty).message).toBe('because');
    });
  });

  describe('outages: never 500, and honest about what may have been applied', () => {
    const failure = (kind: 'not_sent' | 'no_answer') => new RpcFailure(kind, 'x');
    it.each<[string, RoomsOutage | RpcFailure, number, string]>([
      ['a change not sent', new RoomsOutage('not_sent', 'rooms.set-topic.v1', true, failure('not_sent')), 503, OUTAGE_MESSAGES.unavailable],
      ['a query not sent', new RoomsOutage('not_sent', 'rooms.get-room.v1', false, failure('not_sent')), 503, OUTAGE_MESSAGES.unavailable],
      ['a change unanswered', new RoomsOutage('no_answer', 'rooms.set-topic.v1', true, failure('no_answer')), 504, OUTAGE_MESSAGES.outcomeUnknown],
      ['a query unanswered', new RoomsOutage('no_answer', 'rooms.get-room.v1', false, failure('no_answer')), 503, OUTAGE_MESSAGES.queryTimedOut],
      ['a bare failure not sent', failure('not_sent'), 503, OUTAGE_MESSAGES.unavailable],
      ['a bare failure unanswered', failure('no_answer'), 504, OUTAGE_MESSAGES.outcomeUnknown],
    ])('%s', (_what, outage, status, message) => {
      expect(answer(outageOf(outage))).toEqual([status, message]);
      expect(answer(toApiError(outage, plain))).toEqual([status, message]);
    });

    it('names the webhook dispatcher when it is the one that did not answer', () => {
      const dispatcher = outageMessages('webhook dispatcher');
      expect(dispatcher.unavailable).toBe('The webhook dispatcher is unavailable; nothing was done. Try again shortly.');
      const list = new DispatcherOutage('no_answer', 'deliveries.list-deliveries.v1', false, failure('no_answer'));
      expect(answer(toApiError(list, plain))).toEqual([503, dispatcher.queryTimedOut]);
      const redeliver = new DispatcherOutage('no_answer', 'deliveries.redeliver.v1', true, failure('no_answer'));
      expect(answer(toApiError(redeliver, plain))).toEqual([504, dispatcher.outcomeUnknown]);
      expect(answer(toApiError(new DispatcherOutage('not_sent', 'deliveries.redeliver.v1', true, failure('not_sent')), plain)))
        .toEqual([503, dispatcher.unavailable]);
      const log = { warn: jest.fn(), error: jest.fn() };
      logFailure(log as never, redeliver, outageOf(redeliver));
      expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ command: 'deliveries.redeliver.v1' }), 'webhook dispatcher did not answer');
    });
  });

  describe('anything thrown', () => {
    it('passes an ApiError through as it is', () => {
      const e = new ApiError(405, 'x', { Allow: 'GET' });
      expect(toApiError(e, plain)).toBe(e);
    });

    it('names a refused command\'s fields as the request did, where it says so', () => {
      const refusedAs = (names: Record<string, string>, error: CommandError) => {
        try {
          namingFields(names)(new RpcCommandError(error));
        } catch (e) {
          return answer(toApiError(e, plain));
        }
        throw new Error('not rethrown');
      };
      const unknownOwner = err('not_found', 'user_not_found', 'owner', { ref: 999 });
      expect(refusedAs({ owner: 'owner.id' }, unknownOwner)).toEqual([404, 'owner.id: user 999 not found']);
      expect(refusedAs({}, unknownOwner)).toEqual([404, 'owner_user_id: user 999 not found']);
      // Fields it does not rename keep the API's names.
      expect(refusedAs({ owner: 'owner.id' }, err('invalid', 'rule', 'room', { problem: 'is odd' }))).toEqual([400, 'room_id: is odd']);
      const outage = new RpcFailure('not_sent', 'x');
      expect(() => namingFields({ owner: 'owner.id' })(outage)).toThrow(outage);
    });

    it('words a parameter problem and a refused command', () => {
      expect(answer(toApiError(new ParamProblem('color', 'must be given once'), plain))).toEqual([400, 'color: must be given once']);
      expect(answer(toApiError(new RpcCommandError(err('not_found', 'brand_new', 'room')), plain))).toEqual([404, 'room_id: not found']);
    });

    it('keeps an HTTP exception\'s status, and words a 404 as the API asks', () => {
      expect(answer(toApiError(new HttpException('Teapot', 418), plain))).toEqual([418, 'Teapot']);
      expect(answer(toApiError(new BadRequestException('The request path could not be decoded.'), chatty))).toEqual([400, 'The request path could not be decoded.']);
      expect(answer(toApiError(new NotFoundException(), plain))).toEqual([404, 'Not Found']);
      expect(answer(toApiError(new NotFoundException(), chatty))).toEqual([404, 'Nothing here.']);
    });

    it('keeps the 4xx of body-parser errors', () => {
      expect(answer(toApiError({ type: 'entity.too.large', status: 413, limit: 2048 }, plain))).toEqual([413, 'The request body is larger than the 2048 byte limit.']);
      expect(answer(toApiError({ type: 'entity.too.large', status: 413 }, plain))).toEqual([413, 'The request body is larger than the byte limit.']);
      expect(answer(toApiError({ type: 'entity.parse.failed', status: 400 }, plain))).toEqual([400, 'Unreadable body.']);
      expect(answer(toApiError({ type: 'charset.unsupported', status: 415 }, plain))).toEqual([415, 'The request body encoding is not supported.']);
      expect(answer(toApiError({ type: 'parameters.too.many', statusCode: 413 }, plain))).toEqual([413, 'The request could not be read.']);
    });

    it('hides anything else behind a 500', () => {
      expect(answer(toApiError(new TypeError('secret detail'), plain))).toEqual([500, OUTAGE_MESSAGES.failed]);
      expect(answer(toApiError(undefined, plain))).toEqual([500, OUTAGE_MESSAGES.failed]);
      expect(answer(toApiError({ status: 502 }, plain))).toEqual([500, OUTAGE_MESSAGES.failed]);
    });
  });

  describe('logFailure', () => {
    const logger = () => ({ warn: jest.fn(), error: jest.fn() });

    it('warns of an outage, naming the command', () => {
      const log = logger();
      const outage = new RoomsOutage('no_answer', 'rooms.set-topic.v1', true, new RpcFailure('no_answer', 'timed out'));
      logFailure(log as never, outage, outageOf(outage));
      expect(log.warn).toHaveBeenCalledWith({ command: 'rooms.set-topic.v1', kind: 'no_answer', err: 'timed out', status: 504 }, 'rooms service did not answer');
      expect(log.error).not.toHaveBeenCalled();
    });

    it('logs an unexpected 5xx, not one raised on purpose nor a 4xx', () => {
      const log = logger();
      logFailure(log as never, new TypeError('boom'), new ApiError(500, 'x'));
      logFailure(log as never, new ApiError(503, 'on purpose'), new ApiError(503, 'on purpose'));
      logFailure(log as never, new ParamProblem('a', 'b'), new ApiError(400, 'a: b'));
      expect(log.error).toHaveBeenCalledTimes(1);
      expect(log.warn).not.toHaveBeenCalled();
    });
  });
});
