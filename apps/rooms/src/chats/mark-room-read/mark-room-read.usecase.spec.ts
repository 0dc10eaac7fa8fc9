import { CommandFailure, RoomRef } from '@app/contracts';
import { fakeUnitOfWork, META } from '../../outbox/fake-unit-of-work';
import type { RoomRepository } from '../../rooms/room.repository';
import { roomNotFound } from '../../rooms/room-access';
import type { Actors } from '../../users/actors';
import type { ChatRepository, ReadPoint } from '../chat.repository';
import { MarkRoomRead } from './mark-room-read.usecase';

const MESSAGE = '6f1c1c52-6d5e-4b43-9a36-3c1b3a8f0001';

function setUp(opts: { seesRoom?: boolean; message?: ReadPoint | null } = {}) {
  const { uow, emitted } = fakeUnitOfWork();
  const marked: Array<[number, number, ReadPoint]> = [];
  const rooms = {
    findForUse: async (_m: unknown, ref: RoomRef) => {
      if (opts.seesRoom === false) throw roomNotFound(ref);
      return { room: { id: 12 }, user: { id: 7 } };
    },
  } as unknown as RoomRepository;
  const chats = {
    roomMessage: async (_m: unknown, roomId: number, id: string) => (opts.message === undefined ? { id, createdAt: new Date(roomId) } : opts.message),
    markRoom: async (_m: unknown, userId: number, roomId: number, to: ReadPoint) => void marked.push([userId, roomId, to]),
  } as unknown as ChatRepository;
  const actors = { user: async () => ({ id: 7 }) } as unknown as Actors;
  return { useCase: new MarkRoomRead(uow, rooms, actors, chats), marked, emitted };
}

const failureOf = async (p: Promise<unknown>) => ((await p.then(() => null, (e: unknown) => e)) as CommandFailure).error;

describe('MarkRoomRead', () => {
  it('moves the acting user\'s marker in the room to the message, and tells nobody (no event)', async () => {
    const { useCase, marked, emitted } = setUp();
    await expect(useCase.execute({ actor: { userId: 7 }, room: { id: 12 }, messageId: MESSAGE }, META)).resolves.toEqual({});
    expect(marked).toEqual([[7, 12, { id: MESSAGE, createdAt: new Date(12) }]]);
    expect(emitted).toEqual([]);
  });

  it('refuses a token of no user (a room token, an add-on): 403, nothing marked', async () => {
    const { useCase, marked } = setUp();
    expect(await failureOf(useCase.execute({ actor: { tokenId: 3, roomId: 12 }, room: { id: 12 }, messageId: MESSAGE }, META)))
      .toMatchObject({ code: 'forbidden', reason: 'not_allowed' });
    expect(marked).toEqual([]);
  });

  it('answers a room the user may not see as not found (the private-room rule), nothing marked', async () => {
    const { useCase, marked } = setUp({ seesRoom: false });
    expect(await failureOf(useCase.execute({ actor: { userId: 7 }, room: { id: 12 }, messageId: MESSAGE }, META)))
      .toMatchObject({ code: 'not_found', reason: 'room_not_found' });
    expect(marked).toEqual([]);
  });

  it('refuses a message that is not one of the room\'s as a bad message_id', async () => {
    const { useCase, marked } = setUp({ message: null });
    expect(await failureOf(useCase.execute({ actor: { userId: 7 }, room: { id: 12 }, messageId: MESSAGE }, META)))
      .toEqual({ code: 'invalid', reason: 'rule', field: 'message_id', detail: { problem: 'names no message of room 12' } });
    expect(marked).toEqual([]);
  });
});
