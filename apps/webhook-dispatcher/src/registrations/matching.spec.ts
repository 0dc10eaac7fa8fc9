import { compileWebhookPattern, WebhookEventName, WebhookRegistration } from '@app/contracts';
import { inForce, matchingRegistrations, MAX_REPLY_DEPTH, PatternCache, RegistrationIndex, roomIdOf } from './matching';

const registration = (over: Partial<WebhookRegistration> = {}): WebhookRegistration => ({
  id: 1, roomId: 7, event: 'room_message', url: 'https://r.example/hook', pattern: null, name: 'hook',
  authentication: 'none', delivery: 'concurrent', key: null, installationId: null, oauthClientId: null, created: '2025-01-01T00:00:00.000Z',
  secret: 's', userId: 5, ...over,
});
const room = (id = 7) => ({ id, is_archived: false, links: { self: 's', participants: 'p', webhooks: 'w' }, name: 'Ops', privacy: 'public', version: 'v' });
const messagePayload = (text: unknown) => ({ room: room(), message: { date: 'd', from: null, id: 'm1', message: text, type: 'message' } });
const notificationPayload = (causedBy?: { webhookId: number; deliveryId: string; depth: number }) => ({
  room: room(),
  message: { color: 'gray', date: 'd', from: 'Bot', id: 'n1', mentions: [], message: 'deploy', message_format: 'text', type: 'notification' },
  notify: false,
  ...(causedBy ? { causedBy } : {}),
});

const cache = new PatternCache();
const match = (event: WebhookEventName, payload: unknown, registrations: WebhookRegistration[]) =>
  matchingRegistrations({ event, payload, registrations, patterns: cache.lookup }).map((r) => r.id);

describe('matchingRegistrations', () => {
  describe('room_message', () => {
    const regs = [
      registration({ id: 1 }),
      registration({ id: 2, pattern: '^/deploy\\b' }),
      registration({ id: 3, pattern: '(?i)hello' }),
      registration({ id: 4, pattern: '' }),
    ];

    it('applies each pattern to the message text (a search; registrations without one get every message)', () => {
      expect(match('room_message', messagePayload('/deploy prod'), regs)).toEqual([1, 2, 4]);
      expect(match('room_message', messagePayload('well HELLO there'), regs)).toEqual([1, 3, 4]);
      expect(match('room_message', messagePayload('/deployment'), regs)).toEqual([1, 4]);
    });

    it('matches no pattern when the text is missing', () => {
      expect(match('room_message', { room: room() }, regs)).toEqual([1, 4]);
      expect(match('room_message', messagePayload(42), regs)).toEqual([1, 4]);
    });

    it('skips a registration whose pattern does not compile, and delivers to the others', () => {
      const bad = [registration({ id: 5, pattern: '(a)\\1' }), registration({ id: 6, pattern: 'a' })];
      expect(match('room_message', messagePayload('aa'), bad)).toEqual([6]);
    });
  });

  it('ignores pattern for other events', () => {
    const regs = [registration({ id: 1, event: 'room_topic_change', pattern: 'never-matches-this' })];
    expect(match('room_topic_change', { room: room(), sender: 'x', topic: 'new' }, regs)).toEqual([1]);
  });

  it('leaves out disabled registrations (absent flag: enabled)', () => {
    const regs = [registration({ id: 1, enabled: false }), registration({ id: 2, enabled: true }), registration({ id: 3 })];
    expect(match('room_message', messagePayload('hi'), regs)).toEqual([2, 3]);
  });

  it('keeps only the registrations of the event', () => {
    const regs = [registration({ id: 1, event: 'room_enter' }), registration({ id: 2, event: 'room_exit' })];
    expect(match('room_exit', { room: room(), sender: {} }, regs)).toEqual([2]);
  });

  it('delivers room_created only to group-wide registrations', () => {
    const regs = [registration({ id: 1, event: 'room_created', roomId: 7 }), registration({ id: 2, event: 'room_created', roomId: null })];
    expect(match('room_created', { room: room(), sender: 'x' }, regs)).toEqual([2]);
  });

  describe('room_notification', () => {
    const regs = [1, 2, 3].map((id) => registration({ id, event: 'room_notification' }));

    it('goes to every registration when it is no reply', () => {
      expect(match('room_notification', notificationPayload(), regs)).toEqual([1, 2, 3]);
    });

    it('never goes back to the webhook whose reply caused it', () => {
      expect(match('room_notification', notificationPayload({ webhookId: 2, deliveryId: 'd', depth: 1 }), regs)).toEqual([1, 3]);
      expect(match('room_notification', notificationPayload({ webhookId: 3, deliveryId: 'd', depth: MAX_REPLY_DEPTH - 1 }), regs)).toEqual([1, 2]);
    });

    it(`goes nowhere at depth ${MAX_REPLY_DEPTH} or more`, () => {
      expect(MAX_REPLY_DEPTH).toBe(3);
      expect(match('room_notification', notificationPayload({ webhookId: 9, deliveryId: 'd', depth: MAX_REPLY_DEPTH }), regs)).toEqual([]);
      expect(match('room_notification', notificationPayload({ webhookId: 9, deliveryId: 'd', depth: 10 }), regs)).toEqual([]);
    });
  });
});

describe('RegistrationIndex', () => {
  const regs = [
    registration({ id: 1, roomId: 7, event: 'room_message' }),
    registration({ id: 2, roomId: 7, event: 'room_topic_change' }),
    registration({ id: 3, roomId: 8, event: 'room_message' }),
    registration({ id: 4, roomId: null, event: 'room_message', oauthClientId: 'c' }),
    registration({ id: 5, roomId: 7, event: 'room_message' }),
  ];
  const index = new RegistrationIndex(regs);

  it('gives the room registrations of the event, then the group-wide ones', () => {
    expect(index.forEvent(7, 'room_message').map((r) => r.id)).toEqual([1, 5, 4]);
    expect(index.forEvent(8, 'room_message').map((r) => r.id)).toEqual([3, 4]);
    expect(index.forEvent(9, 'room_message').map((r) => r.id)).toEqual([4]);
    expect(index.forEvent(7, 'room_topic_change').map((r) => r.id)).toEqual([2]);
    expect(index.forEvent(7, 'room_exit')).toEqual([]);
    expect(index.size).toBe(5);
  });

  it('hands out copies: a caller cannot change the index', () => {
    index.forEvent(7, 'room_message').pop();
    expect(index.forEvent(7, 'room_message')).toHaveLength(3);
  });

  it('keeps one registration per id (the later)', () => {
    const twice = new RegistrationIndex([registration({ id: 1, url: 'https://old.example' }), registration({ id: 1, url: 'https://new.example' })]);
    expect(twice.size).toBe(1);
    expect(twice.forEvent(7, 'room_message').map((r) => r.url)).toEqual(['https://new.example']);
  });

  it('is empty for no registrations', () => {
    expect(new RegistrationIndex([]).size).toBe(0);
  });
});

describe('RegistrationIndex with versions', () => {
  // Webhook 1: created at 3 with one URL, changed at 5 (PUT), deleted at 8. Webhook 2: created at 6.
  const first = registration({ id: 1, url: 'https://a.example/old', createdVersion: 3, removedVersion: 5 });
  const changed = registration({ id: 1, url: 'https://a.example/new', createdVersion: 5, removedVersion: 8 });
  const later = registration({ id: 2, createdVersion: 6 });
  const index = new RegistrationIndex([later], [first, changed]);
  const ids = (version?: number) => index.forEvent(7, 'room_message', version).map((r) => `${r.id}:${r.url}`);

  it('matches an event with the forms in force at its stamp', () => {
    expect(ids(2)).toEqual([]);
    expect(ids(3)).toEqual(['1:https://a.example/old']);
    expect(ids(5)).toEqual(['1:https://a.example/new']);
    expect(ids(6)).toEqual(['2:https://r.example/hook', '1:https://a.example/new']);
    expect(ids(8)).toEqual(['2:https://r.example/hook']);
  });

  it('matches an unstamped event with what is in force now', () => {
    expect(ids(undefined)).toEqual(['2:https://r.example/hook']);
  });

  it('finds the form of a webhook in force at a version', () => {
    expect(index.at(1, 4)?.url).toBe('https://a.example/old');
    expect(index.at(1, 7)?.url).toBe('https://a.example/new');
    expect(index.at(1, 8)).toBeUndefined();
    expect(index.size).toBe(1);
  });

  it('treats a registration without versions as in force for every stamp', () => {
    expect(inForce(registration(), 1)).toBe(true);
    expect(inForce(registration(), undefined)).toBe(true);
    expect(inForce(registration({ removedVersion: 4 }), undefined)).toBe(false);
  });
});

describe('PatternCache', () => {
  it('compiles each source once', () => {
    const compile = jest.fn(compileWebhookPattern);
    const patterns = new PatternCache(10, compile);
    expect(patterns.get('a+b').test('xaab')).toBe(true);
    expect(patterns.get('a+b')).toBe(patterns.get('a+b'));
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it('drops the least recently used past its capacity', () => {
    const compile = jest.fn(compileWebhookPattern);
    const patterns = new PatternCache(2, compile);
    patterns.get('a');
    patterns.get('b');
    patterns.get('a'); // now b is the least recently used
    patterns.get('c');
    expect(patterns.size).toBe(2);
    patterns.get('a');
    expect(compile).toHaveBeenCalledTimes(3);
    patterns.get('b');
    expect(compile).toHaveBeenCalledTimes(4);
  });

  it('throws for a source the engine refuses, every time, compiling it once', () => {
    const compile = jest.fn(compileWebhookPattern);
    const patterns = new PatternCache(10, compile);
    expect(() => patterns.get('(?=x)')).toThrow();
    expect(() => patterns.get('(?=x)')).toThrow();
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it('holds about a thousand by default', () => {
    const patterns = new PatternCache();
    for (let i = 0; i < 1100; i++) patterns.get(`p${i}`);
    expect(patterns.size).toBe(1000);
  });
});

describe('roomIdOf', () => {
  it('is payload.room.id, or null', () => {
    expect(roomIdOf({ room: room(42) })).toBe(42);
    expect(roomIdOf({ room: { id: '42' } })).toBeNull();
    expect(roomIdOf({ room: null })).toBeNull();
    expect(roomIdOf({})).toBeNull();
    expect(roomIdOf(null)).toBeNull();
    expect(roomIdOf(undefined)).toBeNull();
  });
});
