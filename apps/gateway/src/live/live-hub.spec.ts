import { createLogger } from '@app/common';
import {
  EventEnvelope, PrivateMessageSentV1, RoomAccessNarrowedV1, RoomAccessNarrowedV1Payload, RoomMemberAddedV1, RoomMemberEnteredV2, RoomMessageSentV2, TokenRevokedV1,
} from '@app/contracts';
import { LiveConnection, LiveSink } from './live-connection';
import { LiveHub } from './live-hub';
import { EventPage } from './resume-cursor';
import { UserLiveConnection } from './user-live-connection';

class Broker {
  onEvent!: (envelope: EventEnvelope, routingKey: string) => void;
  onConnect!: () => void;
  subscriptions = 0;
  stopped = 0;
  fail = false;
  subscribeTransient = jest.fn(async (_b: string[], e: typeof this.onEvent, c: () => void) => {
    if (this.fail) throw new Error('broker down');
    this.subscriptions++;
    this.onEvent = e;
    this.onConnect = c;
    c();
    return { stop: async () => void this.stopped++ };
  });
}

const sink = (): LiveSink & { written: string[]; ended: boolean } => {
  const s = { written: [] as string[], ended: false, write: (t: string) => void s.written.push(t), pendingBytes: () => 0, end: () => void (s.ended = true), onClose: () => undefined };
  return s;
};
const message = (roomId: number, sequence: number): EventEnvelope =>
  ({ id: `e${sequence}`, type: 'room.message-sent', version: 2, occurredAt: '', payload: { room: { id: roomId }, message: { id: `m${sequence}` } }, sequence });

describe('LiveHub: this replica\'s live connections and the room events that feed them', () => {
  const settings = { heartbeatMs: 60_000, maxPendingBytes: 1_000, connectTimeoutMs: 100, lingerMs: 10 };
  const make = () => {
    const broker = new Broker();
    const hub = new LiveHub(broker as never, settings, createLogger('test', 'silent'));
    const fetches: Array<[number, number]> = [];
    const connect = (roomId: number, from: number, s = sink()) => {
      const fetch = async (after: number): Promise<EventPage> => {
        fetches.push([roomId, after]);
        return { lastSeq: after, covered: true, events: [] };
      };
      const c = new LiveConnection(roomId, s, { seq: from, claimed: false }, fetch, { maxPendingBytes: 1_000 }, (x) => hub.remove(x));
      hub.add(c);
      return { c, s };
    };
    return { broker, hub, connect, fetches };
  };

  it('subscribes once, and hands each event only to the connections of its room', async () => {
    const { broker, hub, connect } = make();
    await hub.ready();
    await hub.ready();
    expect(broker.subscriptions).toBe(1);
    const a = connect(1, 0);
    const b = connect(2, 0);
    broker.onEvent(message(1, 1), RoomMessageSentV2.routingKey);
    expect(a.s.written).toEqual([expect.stringMatching(/^id: 1\nevent: room_message\n/)]);
    expect(b.s.written).toEqual([]);
    expect(hub.size).toBe(2);
  });

  it('an access narrowed re-checks the reader\'s connections: of one room, of anyone in it, or of that user in every room', async () => {
    const { broker, hub } = make();
    await hub.ready();
    const checks: string[] = [];
    const open = (roomId: number, userId: number) => {
      const access = { userId, check: async () => { checks.push(`${roomId}/${userId}`); return true; } };
      const fetch = async (after: number): Promise<EventPage> => ({ lastSeq: after, covered: true, events: [] });
      hub.add(new LiveConnection(roomId, sink(), { seq: 0, claimed: false }, fetch, { maxPendingBytes: 1_000, access }, (x) => hub.remove(x)));
    };
    open(1, 7); open(1, 8); open(2, 7); open(2, 8);
    const narrowed = (payload: RoomAccessNarrowedV1Payload) => {
      checks.length = 0;
      broker.onEvent({ id: 'n', type: RoomAccessNarrowedV1.type, version: 1, occurredAt: '', payload }, RoomAccessNarrowedV1.routingKey);
      return checks.sort();
    };
    expect(narrowed({ roomId: 1, userId: 7 })).toEqual(['1/7']);
    expect(narrowed({ roomId: 2, userId: null })).toEqual(['2/7', '2/8']);
    expect(narrowed({ roomId: null, userId: 8 })).toEqual(['1/8', '2/8']);
    expect(narrowed({ roomId: null, userId: null })).toEqual([]);
  });

  it('a token revoked ends the streams opened with it, told on the room events\' queue (in order with them)', async () => {
    const { broker, hub } = make();
    await hub.ready();
    const fetch = async (after: number): Promise<EventPage> => ({ lastSeq: after, covered: true, events: [] });
    const open = (roomId: number, tokenId: number) => {
      const s = sink();
      hub.add(new LiveConnection(roomId, s, { seq: 0, claimed: false }, fetch, { maxPendingBytes: 1_000, tokenId }, (x) => hub.remove(x)));
      return s;
    };
    const [a, b, c] = [open(1, 5), open(2, 5), open(1, 6)];
    broker.onEvent({ id: 'r', type: TokenRevokedV1.type, version: 1, occurredAt: '', payload: { tokenId: 5 } }, TokenRevokedV1.routingKey);
    broker.onEvent(message(1, 1), RoomMessageSentV2.routingKey);
    expect([a.ended, b.ended, c.ended]).toEqual([true, true, false]);
    expect(a.written).toEqual([expect.stringContaining('"token_revoked"')]);
    expect(c.written).toEqual([expect.stringMatching(/^id: 1\nevent: room_message\n/)]);
    expect(hub.size).toBe(1);
  });

  it('after the broker comes back, every connection reads what it missed from the log', async () => {
    const { broker, hub, connect, fetches } = make();
    await hub.ready();
    connect(1, 4);
    connect(2, 9);
    broker.onConnect();
    await new Promise((r) => setTimeout(r, 10));
    expect(fetches).toEqual([[1, 4], [2, 9]]);
  });

  it('answers 503 when the broker cannot be reached, and tries again on the next connection', async () => {
    const { broker, hub } = make();
    broker.fail = true;
    await expect(hub.ready()).rejects.toMatchObject({ status: 503 });
    broker.fail = false;
    await hub.ready();
    expect(broker.subscriptions).toBe(1);
  });

  it('unsubscribes a while after the last connection ends; ends every stream when the gateway stops', async () => {
    const { broker, hub, connect } = make();
    await hub.ready();
    const { c } = connect(1, 0);
    c.end();
    expect(hub.size).toBe(0);
    await new Promise((r) => setTimeout(r, 30));
    expect(broker.stopped).toBe(1);
    await hub.ready();
    const open = connect(3, 0);
    await hub.beforeApplicationShutdown();
    expect(open.s.ended).toBe(true);
    expect(open.s.written).toEqual([': the gateway is stopping: reconnect with Last-Event-ID to resume\n\n']);
    await expect(hub.ready()).rejects.toMatchObject({ status: 503 });
  });
});

describe('LiveHub: people\'s streams', () => {
  const settings = { heartbeatMs: 60_000, maxPendingBytes: 1_000, connectTimeoutMs: 100, lingerMs: 10 };
  const make = () => {
    const broker = new Broker();
    const hub = new LiveHub(broker as never, settings, createLogger('test', 'silent'));
    const access = new Map<number, boolean>();
    const person = (userId: number, rooms: number[], tokenId = 1) => {
      const s = sink();
      const c: UserLiveConnection = new UserLiveConnection(userId, s, rooms, {
        maxPendingBytes: 1_000, tokenId,
        mayRead: async (roomId) => access.get(roomId) ?? true,
        presentPrivate: (p) => JSON.stringify({ id: p.message.id }),
        watching: (roomId, w) => hub.personWatches(c, roomId, w),
      }, (x) => hub.removePerson(x));
      hub.addPerson(c);
      return { c, s };
    };
    return { broker, hub, person, access };
  };
  const envelope = (payload: unknown, sequence?: number): EventEnvelope => ({ id: 'x', type: 't', version: 1, occurredAt: '', payload, ...(sequence ? { sequence } : {}) });
  const pm = (from: number, to: number) => envelope({ message: { id: `p${from}-${to}`, from: { id: from } }, to: { id: to } });

  it('hands room events to the people whose chats hold the room, and private messages to their sender and recipient only', async () => {
    const { broker, hub, person } = make();
    await hub.ready();
    const ann = person(7, [1]);
    const bob = person(8, [2]);
    const eve = person(9, []);
    broker.onEvent(message(1, 1), RoomMessageSentV2.routingKey);
    broker.onEvent(pm(8, 7), PrivateMessageSentV1.routingKey);
    expect(ann.s.written).toEqual([expect.stringMatching(/^event: room_message\n/), 'event: private_message\ndata: {"id":"p8-7"}\n\n']);
    expect(bob.s.written).toEqual(['event: private_message\ndata: {"id":"p8-7"}\n\n']);
    expect(eve.s.written).toEqual([]);
    expect(hub.size).toBe(3);
  });

  it('adds a room the person enters or is made a member of', async () => {
    const { broker, hub, person } = make();
    await hub.ready();
    const ann = person(7, []);
    broker.onEvent(envelope({ room: { id: 3 }, sender: { id: 7 } }, 1), RoomMemberEnteredV2.routingKey);
    broker.onEvent(envelope({ roomId: 4, userId: 7 }), RoomMemberAddedV1.routingKey);
    broker.onEvent(message(3, 2), RoomMessageSentV2.routingKey);
    broker.onEvent(message(4, 1), RoomMessageSentV2.routingKey);
    expect(ann.s.written).toHaveLength(2);
    expect(ann.c.roomIds).toEqual([3, 4]);
  });

  it('stops carrying a room the person lost access to, and nothing said there after reaches them', async () => {
    const { broker, hub, person, access } = make();
    await hub.ready();
    const ann = person(7, [1, 2]);
    access.set(1, false);
    broker.onEvent(envelope({ roomId: 1, userId: 7 } satisfies RoomAccessNarrowedV1Payload), RoomAccessNarrowedV1.routingKey);
    broker.onEvent(message(1, 5), RoomMessageSentV2.routingKey);
    await new Promise((r) => setImmediate(r));
    broker.onEvent(message(1, 6), RoomMessageSentV2.routingKey);
    broker.onEvent(message(2, 1), RoomMessageSentV2.routingKey);
    expect(ann.s.written).toEqual([expect.stringContaining('"id":"m1"')]);
    expect(ann.c.roomIds).toEqual([2]);
  });

  it('ends the streams of a revoked token, and every one after a broker outage (events_missed)', async () => {
    const { broker, hub, person } = make();
    await hub.ready();
    const revoked = person(7, [1], 11);
    const kept = person(8, [1], 12);
    broker.onEvent(envelope({ tokenId: 11 }), TokenRevokedV1.routingKey);
    expect(revoked.s.written).toEqual([expect.stringContaining('"token_revoked"')]);
    expect(kept.s.ended).toBe(false);
    broker.onConnect();
    expect(kept.s.written).toEqual([expect.stringContaining('"events_missed"')]);
    expect(hub.size).toBe(0);
  });
});
