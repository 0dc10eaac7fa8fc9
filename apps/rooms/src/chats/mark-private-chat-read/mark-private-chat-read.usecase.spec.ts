import { CommandFailure, commandFailure, UserRef } from '@app/contracts';
import { fakeUnitOfWork, META } from '../../outbox/fake-unit-of-work';
import type { UserRepository } from '../../users/user.repository';
import type { ChatRepository, ReadPoint } from '../chat.repository';
import { MarkPrivateChatRead } from './mark-private-chat-read.usecase';

const MESSAGE = '6f1c1c52-6d5e-4b43-9a36-3c1b3a8f0002';

function setUp(opts: { message?: ReadPoint | null } = {}) {
  const { uow, emitted } = fakeUnitOfWork();
  const marked: Array<[number, number, ReadPoint]> = [];
  const asked: Array<[number, number]> = [];
  const users = {
    findByRef: async (_m: unknown, ref: UserRef) => {
      if ('id' in ref) return { id: ref.id };
      if ('mention' in ref && ref.mention === 'ann') return { id: 9 };
      throw commandFailure('not_found', 'user_not_found', 'user');
    },
  } as unknown as UserRepository;
  const chats = {
    privateMessage: async (_m: unknown, a: number, b: number, id: string) => {
      asked.push([a, b]);
      return opts.message === undefined ? { id, createdAt: new Date(5) } : opts.message;
    },
    markPrivateChat: async (_m: unknown, userId: number, other: number, to: ReadPoint) => void marked.push([userId, other, to]),
  } as unknown as ChatRepository;
  return { useCase: new MarkPrivateChatRead(uow, users, chats), marked, asked, emitted };
}

const failureOf = async (p: Promise<unknown>) => ((await p.then(() => null, (e: unknown) => e)) as CommandFailure).error;

describe('MarkPrivateChatRead', () => {
  it('moves the marker of the acting user\'s chat with the other user (named by @mention), no event', async () => {
    const { useCase, marked, asked, emitted } = setUp();
    await useCase.execute({ actor: { userId: 7 }, user: { mention: 'ann' }, messageId: MESSAGE }, META);
    expect(asked).toEqual([[7, 9]]);
    expect(marked).toEqual([[7, 9, { id: MESSAGE, createdAt: new Date(5) }]]);
    expect(emitted).toEqual([]);
  });

  it('refuses a message that is not between the two users as a bad message_id', async () => {
    const { useCase, marked } = setUp({ message: null });
    expect(await failureOf(useCase.execute({ actor: { userId: 7 }, user: { id: 9 }, messageId: MESSAGE }, META)))
      .toMatchObject({ code: 'invalid', field: 'message_id' });
    expect(marked).toEqual([]);
  });

  it('refuses a token of no user', async () => {
    const { useCase } = setUp();
    expect(await failureOf(useCase.execute({ actor: { tokenId: 4 }, user: { id: 9 }, messageId: MESSAGE }, META))).toMatchObject({ code: 'forbidden' });
  });
});
