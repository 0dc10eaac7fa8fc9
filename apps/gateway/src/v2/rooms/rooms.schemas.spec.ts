import { ApiError } from '../../shared/api-error';
import { ZodBodyPipe, ZodQueryPipe } from '../http/validation';
import { createRoomBody, listRoomsQuery, roomUpdateFieldNames, roomUpdateOf, topicBody, updateRoomBody } from './rooms.schemas';

const problem = (pipe: { transform(v: unknown): unknown }, value: unknown): string => {
  try {
    pipe.transform(value);
  } catch (err) {
    return (err as ApiError).message;
  }
  throw new Error('did not throw');
};

describe('POST /v2/room body', () => {
  const pipe = new ZodBodyPipe(createRoomBody);

  it('defaults privacy, topic and guest access, and drops unknown fields', () => {
    expect(pipe.transform({ name: 'Ops', token: 'x' })).toEqual({ name: 'Ops', privacy: 'public', topic: '', guest_access: false });
  });

  it('reads the owner as an id, digits, an e-mail address or a mention name', () => {
    expect(pipe.transform({ name: 'a', owner_user_id: 5 }).owner_user_id).toEqual({ id: 5 });
    expect(pipe.transform({ name: 'a', owner_user_id: '5' }).owner_user_id).toEqual({ id: 5 });
    expect(pipe.transform({ name: 'a', owner_user_id: 'Ada@Example.com' }).owner_user_id).toEqual({ email: 'Ada@Example.com' });
    expect(pipe.transform({ name: 'a', owner_user_id: '@ada' }).owner_user_id).toEqual({ mention: 'ada' });
    expect(pipe.transform({ name: 'a', owner_user_id: null }).owner_user_id).toBeUndefined();
  });

  it('reads form-encoded flags', () => {
    expect(pipe.transform({ name: 'a', guest_access: '1', privacy: 'private' })).toMatchObject({ guest_access: true, privacy: 'private' });
  });

  it.each([
    [{}, 'name: is required'],
    [{ name: '' }, 'name: must not be empty'],
    [{ name: 'x'.repeat(51) }, 'name: must be at most 50 characters (got 51)'],
    [{ name: '123' }, 'name: must not be only digits (it would be read as a room ID)'],
    [{ name: 'a', privacy: 'secret' }, 'privacy: must be one of public, private (got "secret")'],
    [{ name: 'a', topic: '<b>x</b>' }, 'topic: must not contain HTML'],
    [{ name: 'a', guest_access: 'maybe' }, 'guest_access: must be true or false (got string)'],
    [{ name: 'a', owner_user_id: 'nobody' }, 'owner_user_id: must be a user ID or an e-mail address (got "nobody")'],
    [{ name: 'a', owner_user_id: -3 }, 'owner_user_id: must be a user ID or an e-mail address (got -3)'],
  ])('answers 400 naming the field for %j', (body, message) => {
    expect(problem(pipe, body)).toBe(message);
  });
});

describe('PUT /v2/room/{room} body', () => {
  const pipe = new ZodBodyPipe(updateRoomBody);
  const update = (body: unknown) => roomUpdateOf(pipe.transform(body));

  it('keeps only the fields given, in the command\'s terms', () => {
    expect(update({})).toEqual({});
    expect(update({ is_guest_accessible: true, unknown: 1, links: {} })).toEqual({ guestAccess: true });
    expect(update({ name: 'New', privacy: 'private', topic: '', is_archived: 'true' }))
      .toEqual({ name: 'New', privacy: 'private', topic: '', isArchived: true });
  });

  it('reads the owner from owner.id (a whole User object too), an id alone, or owner_user_id', () => {
    expect(update({ owner: { id: 4, name: 'Ada', links: { self: 'x' } } })).toEqual({ owner: { id: 4 } });
    expect(update({ owner: 'ada@example.com' })).toEqual({ owner: { email: 'ada@example.com' } });
    expect(update({ owner_user_id: 9 })).toEqual({ owner: { id: 9 } });
    expect(update({ owner: { id: 4 }, owner_user_id: 9 })).toEqual({ owner: { id: 4 } });
    expect(update({ owner: null, topic: null })).toEqual({});
  });

  it('names the owner as the client gave it: owner.id, else v2\'s usual owner_user_id', () => {
    const names = (body: unknown) => roomUpdateFieldNames(pipe.transform(body));
    expect(names({ owner: { id: 999 } })).toEqual({ owner: 'owner.id' });
    expect(names({ owner: 999 })).toEqual({ owner: 'owner.id' });
    expect(names({ owner: { id: 4 }, owner_user_id: 9 })).toEqual({ owner: 'owner.id' });
    expect(names({ owner_user_id: 9 })).toEqual({});
    expect(names({ owner: {}, owner_user_id: 9 })).toEqual({});
    expect(names({ topic: 'x' })).toEqual({});
  });

  it.each([
    [{ name: '' }, 'name: must not be empty'],
    [{ is_archived: 'yes' }, 'is_archived: must be true or false (got string)'],
    [{ owner: { id: 'not a user' } }, 'owner.id: must be a user ID or an e-mail address (got "not a user")'],
    [{ owner: [1] }, 'owner: must be an object (got array)'],
  ])('answers 400 naming the field for %j', (body, message) => {
    expect(problem(pipe, body)).toBe(message);
  });
});

describe('topic and list query', () => {
  it('needs a topic without HTML', () => {
    expect(new ZodBodyPipe(topicBody).transform({ topic: '' })).toEqual({ topic: '' });
    expect(problem(new ZodBodyPipe(topicBody), {})).toBe('topic: is required');
    expect(problem(new ZodBodyPipe(topicBody), { topic: 'x'.repeat(251) })).toBe('topic: must be at most 250 characters (got 251)');
  });

  it('defaults to private rooms included and archived ones left out', () => {
    const pipe = new ZodQueryPipe(listRoomsQuery);
    expect(pipe.transform({})).toEqual({ 'start-index': 0, 'max-results': 100, 'include-private': true, 'include-archived': false });
    expect(problem(pipe, { 'max-results': '1001' })).toBe('max-results: must be a whole number from 0 to 1000 (got "1001")');
  });
});
