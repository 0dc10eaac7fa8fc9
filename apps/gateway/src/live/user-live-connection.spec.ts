import type { PrivateMessageSentV1Payload } from '@app/contracts';
import type { LiveEvent } from './live-event';
import type { LiveSink } from './live-stream';
import { UserLiveConnection } from './user-live-connection';

const sink = (pending = () => 0): LiveSink & { written: string[]; ended: boolean } => {
  const s = { written: [] as string[], ended: false, write: (t: string) => void s.written.push(t), pendingBytes: pending, end: () => void (s.ended = true), onClose: () => undefined };
  return s;
};
const said = (roomId: number, text: string): LiveEvent =>
  ({ roomId, seq: 1, name: 'room_message', frame: `id: 1\nevent: room_message\ndata: ${text}\n\n`, userFrame: `event: room_message\ndata: ${text}\n\n` });
const pm = { message: { id: 'p1', from: { id: 9 } }, to: { id: 7 } } as unknown as PrivateMessageSentV1Payload;

function make(answers: Array<Promise<boolean>> = [], pending?: () => number) {
  const s = sink(pending);
  const watching: Array<[number, boolean]> = [];
  const ended: UserLiveConnection[] = [];
  const asked: number[] = [];
  const c = new UserLiveConnection(7, s, [1, 2], {
    maxPendingBytes: 100,
    tokenId: 5,
    mayRead: (roomId) => {
      asked.push(roomId);
      return answers.shift() ?? Promise.resolve(true);
    },
    presentPrivate: (p) => JSON.stringify({ id: p.message.id }),
    watching: (roomId, w) => void watching.push([roomId, w]),
  }, (x) => void ended.push(x));
  return { c, s, watching, ended, asked };
}

describe('UserLiveConnection: one person\'s stream of their chats', () => {
  it('sends what is said in its rooms without an id, and its private messages, and nothing of other rooms', () => {
    const { c, s } = make();
    c.offerRoomEvent(said(1, 'a'));
    c.offerRoomEvent(said(3, 'elsewhere'));
    c.offerPrivateMessage(pm);
    expect(s.written).toEqual(['event: room_message\ndata: a\n\n', 'event: private_message\ndata: {"id":"p1"}\n\n']);
  });

  it('carries a room it joins from then on, and tells the hub', () => {
    const { c, s, watching } = make();
    c.watch(3);
    c.offerRoomEvent(said(3, 'now'));
    expect(s.written).toEqual(['event: room_message\ndata: now\n\n']);
    expect(watching).toEqual([[3, true]]);
  });

  it('holds a room\'s events while access is asked again: refused, they are dropped and the room leaves the stream', async () => {
    let refuse!: (v: boolean) => void;
    const { c, s, watching, asked } = make([new Promise((r) => (refuse = r))]);
    c.recheckRoom(1);
    c.offerRoomEvent(said(1, 'after the loss'));
    c.offerRoomEvent(said(2, 'other room'));
    expect(s.written).toEqual(['event: room_message\ndata: other room\n\n']);
    refuse(false);
    await new Promise((r) => setImmediate(r));
    c.offerRoomEvent(said(1, 'later'));
    expect(asked).toEqual([1]);
    expect(s.written).toEqual(['event: room_message\ndata: other room\n\n']);
    expect(c.roomIds).toEqual([2]);
    expect(watching).toEqual([[1, false]]);
    expect(c.isOpen).toBe(true);
  });

  it('allowed, sends what it held, in order', async () => {
    const { c, s } = make([Promise.resolve(true)]);
    c.recheckRoom(2);
    c.offerRoomEvent(said(2, 'one'));
    c.offerRoomEvent(said(2, 'two'));
    expect(s.written).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(s.written).toEqual(['event: room_message\ndata: one\n\n', 'event: room_message\ndata: two\n\n']);
  });

  it('cuts off a client that does not read (slow_client, telling it to read its chats again), and lets go of its rooms', () => {
    const { c, s, ended, watching } = make([], () => 1_000);
    c.offerPrivateMessage(pm);
    expect(s.written).toEqual([expect.stringMatching(/^event: error\ndata: .*"slow_client".*GET \/v2\/user\/\{user\}\/chats/)]);
    expect(s.ended).toBe(true);
    expect(ended).toEqual([c]);
    expect(watching).toEqual([[1, false], [2, false]]);
  });
});
