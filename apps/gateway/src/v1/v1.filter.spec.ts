import { HttpException, NotFoundException } from '@nestjs/common';
import { RpcCommandError, RpcFailure } from '@app/common';
import { CommandError, CommandErrorReason } from '@app/contracts';
import { ParamProblem } from '../shared/request-params';
import { RoomsOutage } from '../shared/rooms-client';
import { V1Error } from './errors';
import { OUTAGE_MESSAGES as MESSAGES } from '../shared/command-errors';
import { toV1Error, v1ErrorOfCommand, v1ParamOf } from './v1.filter';

const worded = (error: CommandError) => {
  const e = v1ErrorOfCommand(error);
  return { status: e.status, type: e.type, message: e.message };
};

describe('v1 filter', () => {
  describe('words every CommandError reason v1 knows', () => {
    const cases: Array<[CommandErrorReason, CommandError, number, string]> = [
      ['room_not_found', { code: 'not_found', reason: 'room_not_found', field: 'room', detail: { ref: 'No Such Room' } }, 404, 'Room No Such Room not found'],
      ['user_not_found', { code: 'not_found', reason: 'user_not_found', field: 'user', detail: { ref: 'nobody@example.com' } }, 404, 'User nobody@example.com not found'],
      ['user_not_found', { code: 'not_found', reason: 'user_not_found', field: 'owner', detail: { ref: '999999' } }, 404, 'owner_user_id: user 999999 not found'],
      ['room_name_taken', { code: 'conflict', reason: 'room_name_taken', field: 'name', detail: { name: 'DEV OPS' } }, 400, 'name: a room named "DEV OPS" already exists'],
      ['room_archived', { code: 'invalid', reason: 'room_archived', field: 'room', detail: { name: 'Old' } }, 400, 'room_id: room "Old" is archived'],
      ['email_taken', { code: 'conflict', reason: 'email_taken', field: 'email', detail: { email: 'ADA@example.com' } }, 400, 'email: a user with e-mail address "ADA@example.com" already exists'],
      ['mention_name_taken', { code: 'conflict', reason: 'mention_name_taken', field: 'mentionName', detail: { mentionName: 'grace' } }, 400, 'mention_name: the mention name "grace" is already taken'],
      ['user_not_deleted', { code: 'invalid', reason: 'user_not_deleted', field: 'user', detail: { id: 12 } }, 400, 'user_id: user 12 is not deleted'],
      ['user_identity_taken', { code: 'conflict', reason: 'user_identity_taken', field: 'user', detail: { id: 12 } }, 400, 'user_id: another user now has the e-mail address or mention name of user 12'],
      ['message_empty_after_sanitizing', { code: 'invalid', reason: 'message_empty_after_sanitizing', field: 'message' }, 400, 'message: is empty once disallowed HTML is removed'],
      ['rule', { code: 'invalid', reason: 'rule', field: 'mentionName', detail: { problem: 'may contain only letters' } }, 400, 'mention_name: may contain only letters'],
      ['rule', { code: 'invalid', reason: 'rule', field: 'topic', detail: { problem: 'must not contain HTML' } }, 400, 'topic: must not contain HTML'],
      ['deadline_passed', { code: 'unavailable', reason: 'deadline_passed' }, 503, MESSAGES.unavailable],
      ['dependency_failed', { code: 'unavailable', reason: 'dependency_failed' }, 503, MESSAGES.unavailable],
      ['unexpected', { code: 'internal', reason: 'unexpected' }, 500, 'The request could not be completed.'],
    ];
    it.each(cases)('%s', (_reason, error, status, message) => {
      expect(worded(error)).toMatchObject({ status, message });
    });

    it('covers every reason the contract names', () => {
      const all: CommandErrorReason[] = [
        'room_not_found', 'user_not_found', 'room_name_taken', 'room_archived', 'email_taken', 'mention_name_taken',
        'user_not_deleted', 'user_identity_taken', 'message_empty_after_sanitizing', 'rule', 'deadline_passed',
        'dependency_failed', 'unexpected',
      ];
      expect([...new Set(cases.map(([r]) => r))].sort()).toEqual([...all].sort());
    });

    it('falls back on the code for a reason it does not know', () => {
      const unknown = (code: CommandError['code']) => worded({ code, reason: 'brand_new' as CommandErrorReason, field: 'room' });
      expect(unknown('not_found')).toMatchObject({ status: 404, message: 'room_id: not found' });
      expect(unknown('invalid')).toMatchObject({ status: 400, message: 'room_id: is invalid' });
      expect(unknown('conflict')).toMatchObject({ status: 400 });
      expect(unknown('forbidden')).toMatchObject({ status: 403, type: 'Forbidden' });
      expect(unknown('unavailable')).toMatchObject({ status: 503, message: MESSAGES.unavailable });
      expect(unknown('internal')).toMatchObject({ status: 500 });
    });
  });

  it('maps command fields to v1 parameter names', () => {
    expect(['room', 'owner', 'user', 'mentionName', 'messageFormat', 'guestAccess', 'isGroupAdmin', 'includeDeleted', 'topic', 'email', 'constructor'].map(v1ParamOf))
      .toEqual(['room_id', 'owner_user_id', 'user_id', 'mention_name', 'message_format', 'guest_access', 'is_group_admin', 'include_deleted', 'topic', 'email', 'constructor']);
  });

  describe('outages answer honestly, never 500', () => {
    const failure = (kind: 'not_sent' | 'no_answer') => new RpcFailure(kind, 'x');

    it('503 when the command certainly was not sent: nothing was done', () => {
      const e = toV1Error(new RoomsOutage('not_sent', 'rooms.send-notification.v1', true, failure('not_sent')));
      expect(e.body()).toEqual({ error: { code: 503, type: 'Service Unavailable', message: 'The rooms service is unavailable; nothing was done. Try again shortly.' } });
    });

    it('504 Gateway Timeout when a change went unanswered: it may or may not have been applied', () => {
      const e = toV1Error(new RoomsOutage('no_answer', 'rooms.send-notification.v1', true, failure('no_answer')));
      expect(e.status).toBe(504);
      expect(e.type).toBe('Gateway Timeout');
      expect(e.message).toMatch(/may or may not have been applied/);
    });

    it('503 when a query went unanswered (nothing to apply)', () => {
      const e = toV1Error(new RoomsOutage('no_answer', 'tokens.resolve-token.v1', false, failure('no_answer')));
      expect(e.body().error).toEqual({ code: 503, type: 'Service Unavailable', message: 'The rooms service did not answer in time; try again shortly.' });
    });

    it('a bare RpcFailure too', () => {
      expect(toV1Error(failure('not_sent')).status).toBe(503);
      expect(toV1Error(failure('no_answer')).status).toBe(504);
    });
  });

  it('words a refused command from the RPC client', () => {
    expect(toV1Error(new RpcCommandError({ code: 'not_found', reason: 'room_not_found', field: 'room', detail: { ref: '5' } })).message).toBe('Room 5 not found');
  });

  it('words a parameter problem as "<param>: <problem>"', () => {
    expect(toV1Error(new ParamProblem('auth_token', 'must be a single value')).body().error).toEqual({ code: 400, type: 'Bad Request', message: 'auth_token: must be a single value' });
  });

  it('keeps the 4xx of body-parser errors', () => {
    expect(toV1Error({ type: 'entity.too.large', status: 413, limit: 2048 })).toMatchObject({ status: 413, message: 'The request body is larger than the 2048 byte limit.' });
    expect(toV1Error({ type: 'entity.parse.failed', status: 400 })).toMatchObject({ status: 400, message: 'The request body could not be parsed.' });
    expect(toV1Error({ type: 'charset.unsupported', status: 415 }).status).toBe(415);
    expect(toV1Error({ type: 'encoding.unsupported', status: 415 }).status).toBe(415);
    expect(toV1Error({ type: 'parameters.too.many', status: 413 })).toMatchObject({ status: 413, message: 'The request could not be read.' });
  });

  it('passes V1Errors and HTTP exceptions through, and hides anything else behind a 500', () => {
    const v1 = new V1Error(405, 'x', { Allow: 'GET' });
    expect(toV1Error(v1)).toBe(v1);
    expect(toV1Error(new HttpException('Teapot', 418)).status).toBe(418);
    expect(toV1Error(new NotFoundException()).status).toBe(404);
    expect(toV1Error(new TypeError('secret detail'))).toMatchObject({ status: 500, message: 'The request could not be completed.' });
  });
});
