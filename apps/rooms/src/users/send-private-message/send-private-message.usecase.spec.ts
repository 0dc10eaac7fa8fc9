import { PrivateMessageSentV1, UserRef } from '@app/contracts';
import { fakeUnitOfWork, META } from '../../outbox/fake-unit-of-work';
import type { PrivateMessageRepository } from '../private-message.repository';
import type { UserRepository } from '../user.repository';
import { SendPrivateMessage } from './send-private-message.usecase';

describe('SendPrivateMessage', () => {
  it('stores the message and writes its event in the same transaction, naming sender and recipient', async () => {
    const { uow, emitted } = fakeUnitOfWork();
    const people: Record<number, object> = {
      7: { id: 7, name: 'Bob Roe', mentionName: 'bob', version: 'v7' },
      9: { id: 9, name: 'Ann Lee', mentionName: 'ann', version: 'v9' },
    };
    const users = { findByRef: async (_m: unknown, ref: UserRef) => people['id' in ref ? ref.id : 9] } as unknown as UserRepository;
    const inserted: unknown[] = [];
    const messages = { insert: async (_m: unknown, row: unknown) => void inserted.push(row) } as unknown as PrivateMessageRepository;
    const reply = await new SendPrivateMessage(uow, users, messages).execute(
      { actor: { userId: 7 }, user: { mention: 'ann' }, message: 'hi @ann', messageFormat: 'text', notify: false }, META);
    expect(inserted).toHaveLength(1);
    expect(emitted).toEqual([{
      routingKey: PrivateMessageSentV1.routingKey,
      payload: {
        message: { id: reply.messageId, date: reply.date, message: 'hi @ann', messageFormat: 'text', from: { id: 7, name: 'Bob Roe', mentionName: 'bob', version: 'v7' } },
        to: { id: 9, name: 'Ann Lee', mentionName: 'ann', version: 'v9' },
      },
    }]);
    // Not a room event: the webhook dispatcher (room.*.v2) never sees it.
    expect(PrivateMessageSentV1.routingKey).toBe('user.private-message-sent.v1');
  });
});
