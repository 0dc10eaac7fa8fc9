import { CommandFailure, UserRef } from '@app/contracts';
import type { DataSource } from 'typeorm';
import type { Actors } from '../../users/actors';
import type { UserRepository } from '../../users/user.repository';
import type { ChatRepository } from '../chat.repository';
import { ListChats } from './list-chats.usecase';

function setUp() {
  const patterns: string[] = [];
  const users = { findByRef: async (_m: unknown, ref: UserRef) => ({ id: 'id' in ref ? ref.id : 7 }) } as unknown as UserRepository;
  const actors = { user: async () => ({ id: 7, mentionName: 'bob' }) } as unknown as Actors;
  const at = new Date('2026-11-29T06:00:00Z');
  const chats = {
    rooms: async () => [
      { id: 12, name: 'Ops', privacy: 'public', unread: 3, mentioned: true, last_id: 'm1', last_at: at },
      { id: 13, name: 'Quiet', privacy: 'private', unread: 0, mentioned: false, last_id: null, last_at: null },
    ],
    privateChats: async (_m: unknown, _id: number, pattern: string) => {
      patterns.push(pattern);
      return [{ id: 9, name: 'Ann Lee', mention_name: 'ann', unread: 1, mentioned: false, last_id: 'p1', last_at: at }];
    },
  } as unknown as ChatRepository;
  return { useCase: new ListChats({ manager: {} } as DataSource, users, actors, chats), patterns };
}

describe('ListChats', () => {
  it('answers the person\'s rooms and private chats, with a mention pattern of their own mention name', async () => {
    const { useCase, patterns } = setUp();
    await expect(useCase.execute({ actor: { userId: 7 }, user: { mention: 'bob' } })).resolves.toEqual({
      rooms: [
        { id: 12, name: 'Ops', privacy: 'public', unread: 3, mentioned: true, lastMessage: { id: 'm1', date: '2026-11-29T06:00:00.000Z' } },
        { id: 13, name: 'Quiet', privacy: 'private', unread: 0, mentioned: false, lastMessage: null },
      ],
      users: [{ id: 9, name: 'Ann Lee', mentionName: 'ann', unread: 1, mentioned: false, lastMessage: { id: 'p1', date: '2026-11-29T06:00:00.000Z' } }],
    });
    expect(patterns).toEqual([expect.stringContaining('@bob')]);
  });

  it('is personal: anyone else (a group admin too) is refused, and so is a token of no user', async () => {
    const { useCase } = setUp();
    const refusal = async (p: Promise<unknown>) => ((await p.then(() => null, (e: unknown) => e)) as CommandFailure).error;
    expect(await refusal(useCase.execute({ actor: { userId: 7 }, user: { id: 8 } }))).toMatchObject({ code: 'forbidden', reason: 'not_allowed' });
    expect(await refusal(useCase.execute({ actor: { tokenId: 1 }, user: { id: 7 } }))).toMatchObject({ code: 'forbidden' });
  });
});
