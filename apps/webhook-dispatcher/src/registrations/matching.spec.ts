import { BridgeTarget, compileWebhookPattern, WebhookEventName, WebhookRegistration } from '@app/contracts';
import { compareForms, inForce, matchingRegistrations, MAX_REPLY_DEPTH, PatternCache, RegistrationIndex, roomIdOf } from './matching';

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

/** A bridge: a registration whose `event` is the first of the events it forwards. */
const bridge = (over: Partial<WebhookRegistration> = {}, target: Partial<BridgeTarget> = {}): WebhookRegistration => {
  const events = target.events ?? ['room_message', 'room_notification', 'room_topic_change', 'room_file_upload'];
  return registration({
    event: events[0], delivery: 'ordered', ...over,
    bridge: { kind: 'slack', events, matrixRoomId: null, matrixAccessToken: null, ...target },
  });
};

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

describe('matchingRegistrations for bridges', () => {
  const topic = { room: room(), sender: 'Ada', topic: 'release day' };

  it('matches a bridge for each of its events, and for no other', () => {
    const regs = [bridge({ id: 1 }), bridge({ id: 2 }, { events: ['room_enter', 'room_exit'] }), registration({ id: 3, event: 'room_enter' })];
    expect(match('room_message', messagePayload('hi'), regs)).toEqual([1]);
    expect(match('room_notification', notificationPayload(), regs)).toEqual([1]);
    expect(match('room_topic_change', topic, regs)).toEqual([1]);
    expect(match('room_enter', { room: room(), sender: {} }, regs)).toEqual([2, 3]);
    expect(match('room_exit', { room: room(), sender: {} }, regs)).toEqual([2]);
    expect(match('room_archived', { room: room() }, regs)).toEqual([]);
  });

  it('applies a bridge\'s pattern to room_message only: its other events still go out', () => {
    const regs = [bridge({ id: 1, pattern: '^deploy' })];
    expect(match('room_message', messagePayload('deploy prod'), regs)).toEqual([1]);
    expect(match('room_message', messagePayload('lunch?'), regs)).toEqual([]);
    expect(match('room_notification', notificationPayload(), regs)).toEqual([1]);
    expect(match('room_topic_change', topic, regs)).toEqual([1]);
  });

  it('never sends a message back out through the bridge it came in by; the room\'s other bridges and webhooks get it', () => {
    const regs = [bridge({ id: 1 }), bridge({ id: 2 }, { kind: 'mattermost' }), registration({ id: 3 })];
    const cameIn = { ...messagePayload('hello from Mattermost'), origin: { bridgeId: 2 } };
    expect(match('room_message', cameIn, regs)).toEqual([1, 3]);
    expect(match('room_message', messagePayload('hello from the room'), regs)).toEqual([1, 2, 3]);
    // An origin that is not a bridge's numeric id keeps no bridge out.
    expect(match('room_message', { ...messagePayload('x'), origin: { bridgeId: '2' } }, regs)).toEqual([1, 2, 3]);
  });

  it('sends an add-on\'s reply to a bridged message out through every bridge, the one it came in by too', () => {
    const regs = [bridge({ id: 1 }), bridge({ id: 2 }), registration({ id: 3, event: 'room_notification' })];
    expect(match('room_notification', { ...notificationPayload({ webhookId: 3, deliveryId: 'd', depth: 1 }), origin: { bridgeId: 2 } }, regs)).toEqual([1, 2]);
  });

  it('leaves out a disabled bridge for every one of its events', () => {
    const regs = [bridge({ id: 1, enabled: false })];
    expect(match('room_message', messagePayload('hi'), regs)).toEqual([]);
    expect(match('room_topic_change', topic, regs)).toEqual([]);
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

describe('RegistrationIndex with bridges', () => {
  it('lists a bridge under each of its events, in order among the webhooks, once per event', () => {
    const index = new RegistrationIndex([
      registration({ id: 1, event: 'room_topic_change' }),
      bridge({ id: 2 }, { events: ['room_message', 'room_topic_change', 'room_message'] }),
      registration({ id: 3 }),
    ]);
    expect(index.forEvent(7, 'room_message').map((r) => r.id)).toEqual([2, 3]);
    expect(index.forEvent(7, 'room_topic_change').map((r) => r.id)).toEqual([1, 2]);
    expect(index.forEvent(7, 'room_notification')).toEqual([]);
    expect(index.size).toBe(3);
  });

  it('moves a bridge whose events change, keeping its former form for events caused before', () => {
    const before = bridge({ id: 2, createdVersion: 3 }, { events: ['room_message', 'room_topic_change'] });
    const index = new RegistrationIndex([before]);
    const after = bridge({ id: 2, createdVersion: 6 }, { events: ['room_notification'] });
    index.apply({ registrations: [after], removed: [{ ...before, removedVersion: 6 }] });
    expect(index.forEvent(7, 'room_message').map((r) => r.id)).toEqual([]);
    expect(index.forEvent(7, 'room_topic_change').map((r) => r.id)).toEqual([]);
    expect(index.forEvent(7, 'room_notification').map((r) => r.id)).toEqual([2]);
    expect(index.forEvent(7, 'room_message', 5).map((r) => r.id)).toEqual([2]);
    expect(index.forEvent(7, 'room_topic_change', 5)).toEqual([{ ...before, removedVersion: 6 }]);
    expect(index.forEvent(7, 'room_notification', 5)).toEqual([]);

    // Deleted: gone from every list it was in, still matched for events caused before.
    index.apply({ registrations: [], removed: [{ ...after, removedVersion: 8 }] });
    expect(index.forEvent(7, 'room_notification')).toEqual([]);
    expect(index.forEvent(7, 'room_notification', 7).map((r) => r.id)).toEqual([2]);
    expect(index.size).toBe(0);
    const full = new RegistrationIndex([], [{ ...before, removedVersion: 6 }, { ...after, removedVersion: 8 }]);
    for (const event of ['room_message', 'room_topic_change', 'room_notification'] as const) {
      for (const v of [undefined, 4, 6, 7, 8]) expect(index.forEvent(7, event, v)).toEqual(full.forEvent(7, event, v));
    }
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

describe('RegistrationIndex brought up to date with changes', () => {
  const EVENTS: WebhookEventName[] = ['room_message', 'room_topic_change', 'room_created'];
  /** What an index answers: every room and event at every stamp (and unstamped), every form by id and stamp, its size. */
  const answers = (index: RegistrationIndex) => {
    const forms = (regs: Array<WebhookRegistration | undefined>) => regs.map((r) => r && `${r.id}:${r.url}:${r.enabled ?? true}`);
    const stamps = [undefined, ...Array.from({ length: 40 }, (_, v) => v)];
    return {
      forEvent: [7, 8, 9].flatMap((roomId) => EVENTS.flatMap((event) => stamps.map((v) => forms(index.forEvent(roomId, event, v))))),
      at: [1, 2, 3, 4, 5, 6].flatMap((id) => stamps.slice(1).map((v) => forms([index.at(id, v!)]))),
      now: forms([...index.registrations()].sort((a, b) => a.id - b.id)),
      size: index.size,
    };
  };
  const urls = (index: RegistrationIndex, roomId: number, version?: number) => index.forEvent(roomId, 'room_message', version).map((r) => `${r.id}:${r.url}`);

  // Webhook 1 created at 3, webhook 2 at 4; the index holds version 5.
  const one = registration({ id: 1, url: 'https://a.example/1', createdVersion: 3 });
  const two = registration({ id: 2, url: 'https://a.example/2', createdVersion: 4 });
  const at5 = () => new RegistrationIndex([one, two]);

  it('replaces a changed registration, keeping its former form for events caused before', () => {
    const index = at5();
    const changed = registration({ id: 1, url: 'https://a.example/1b', createdVersion: 6 });
    index.apply({ registrations: [changed], removed: [{ ...one, removedVersion: 6 }] });
    expect(urls(index, 7)).toEqual(['1:https://a.example/1b', '2:https://a.example/2']);
    // The forms in force now first, then the removed ones (compareForms: the order of a full load).
    expect(urls(index, 7, 5)).toEqual(['2:https://a.example/2', '1:https://a.example/1']);
    expect(urls(index, 7, 6)).toEqual(['1:https://a.example/1b', '2:https://a.example/2']);
    expect(index.get(1)).toBe(changed);
    expect(index.at(1, 5)?.url).toBe('https://a.example/1');
    expect(index.size).toBe(2);
    expect(answers(index)).toEqual(answers(new RegistrationIndex([changed, two], [{ ...one, removedVersion: 6 }])));
  });

  it('drops a deleted registration, still matching an event caused before the deletion', () => {
    const index = at5();
    index.apply({ registrations: [], removed: [{ ...two, removedVersion: 7 }] });
    expect(urls(index, 7)).toEqual(['1:https://a.example/1']);
    expect(urls(index, 7, 6)).toEqual(['1:https://a.example/1', '2:https://a.example/2']);
    expect(urls(index, 7, 7)).toEqual(['1:https://a.example/1']);
    expect(index.get(2)).toBeUndefined();
    expect(index.at(2, 6)?.url).toBe('https://a.example/2');
    expect(index.size).toBe(1);
  });

  it('takes a disabling and an enabling as replacements (the rooms service writes them as changes)', () => {
    const index = at5();
    const disabled = registration({ ...one, enabled: false, createdVersion: 6 });
    index.apply({ registrations: [disabled], removed: [{ ...one, removedVersion: 6 }] });
    expect(index.get(1)?.enabled).toBe(false);
    expect(index.forEvent(7, 'room_message', 5).find((r) => r.id === 1)?.enabled).not.toBe(false);
    // Matching leaves the disabled form out, for an event caused after the disabling only.
    expect(match('room_message', messagePayload('x'), index.forEvent(7, 'room_message', 6))).toEqual([2]);
    expect(match('room_message', messagePayload('x'), index.forEvent(7, 'room_message', 5))).toEqual([2, 1]);

    const enabled = registration({ ...one, createdVersion: 8 });
    index.apply({ registrations: [enabled], removed: [{ ...disabled, removedVersion: 8 }] });
    expect(index.get(1)).toBe(enabled);
    expect(match('room_message', messagePayload('x'), index.forEvent(7, 'room_message', 7))).toEqual([2]);
    expect(match('room_message', messagePayload('x'), index.forEvent(7, 'room_message', 8))).toEqual([1, 2]);
    expect(answers(index)).toEqual(answers(new RegistrationIndex([enabled, two], [{ ...one, removedVersion: 6 }, { ...disabled, removedVersion: 8 }])));
  });

  it('adds and drops group-wide registrations, for every room', () => {
    const index = at5();
    const everyRoom = registration({ id: 3, roomId: null, event: 'room_created', oauthClientId: 'c', createdVersion: 6 });
    const messages = registration({ id: 4, roomId: null, url: 'https://a.example/4', oauthClientId: 'c', createdVersion: 6 });
    index.apply({ registrations: [messages, everyRoom] });
    expect(urls(index, 7)).toEqual(['1:https://a.example/1', '2:https://a.example/2', '4:https://a.example/4']);
    expect(urls(index, 8)).toEqual(['4:https://a.example/4']);
    expect(index.forEvent(9, 'room_created').map((r) => r.id)).toEqual([3]);
    expect(urls(index, 8, 5)).toEqual([]);

    index.apply({ registrations: [], removed: [{ ...everyRoom, removedVersion: 7 }, { ...messages, removedVersion: 7 }] });
    expect(urls(index, 8)).toEqual([]);
    expect(urls(index, 8, 6)).toEqual(['4:https://a.example/4']);
    expect(index.forEvent(9, 'room_created', 6).map((r) => r.id)).toEqual([3]);
    expect(answers(index)).toEqual(answers(new RegistrationIndex([one, two], [{ ...everyRoom, removedVersion: 7 }, { ...messages, removedVersion: 7 }])));
  });

  it('filters by stamp once changes bring versions to an index loaded without them', () => {
    const index = new RegistrationIndex([registration({ id: 1 })]);
    index.apply({ registrations: [registration({ id: 2, createdVersion: 5 })] });
    expect(index.forEvent(7, 'room_message', 4).map((r) => r.id)).toEqual([1]);
    expect(index.forEvent(7, 'room_message', 5).map((r) => r.id)).toEqual([1, 2]);
  });

  it('answers as a full load of the same forms would, after any run of changes', () => {
    // A rooms service in miniature: webhooks 1-6 in rooms 7 and 8 (or group-wide) created,
    // changed (another URL, moved, disabled, enabled) and deleted at random, each change at
    // a new version, every form it ends kept with that version. After each batch of changes
    // the index brought up to date equals an index built whole from the forms of that time.
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const inForceNow = new Map<number, WebhookRegistration>();
    const removed: WebhookRegistration[] = [];
    let version = 1;
    const full = () => new RegistrationIndex([...inForceNow.values()].sort((a, b) => a.id - b.id), [...removed].sort(compareForms));
    const index = full();
    let since = version;
    for (let batch = 0; batch < 12; batch++) {
      for (let n = 1 + random(3); n > 0; n--) {
        version++;
        const id = 1 + random(6);
        const before = inForceNow.get(id);
        if (before) {
          removed.push({ ...before, removedVersion: version });
          inForceNow.delete(id);
        }
        if (!before || random(3) > 0) {
          const roomId = [7, 8, null][random(3)];
          inForceNow.set(id, registration({
            id, roomId, url: `https://a.example/${id}/${version}`, enabled: random(4) > 0, createdVersion: version,
            event: roomId === null && random(2) === 0 ? 'room_created' : EVENTS[random(2)],
          }));
        }
      }
      index.apply({
        registrations: [...inForceNow.values()].filter((r) => r.createdVersion! > since).sort((a, b) => a.id - b.id),
        removed: removed.filter((r) => r.removedVersion! > since).sort(compareForms),
      });
      since = version;
      expect(answers(index)).toEqual(answers(full()));
      // Not only what it answers: each list in the order a full load gives.
      for (const roomId of [7, 8, 9]) for (const event of EVENTS) for (const v of [undefined, version - 2]) {
        expect(index.forEvent(roomId, event, v)).toEqual(full().forEvent(roomId, event, v));
      }
    }
    expect(removed.length).toBeGreaterThan(10);
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
