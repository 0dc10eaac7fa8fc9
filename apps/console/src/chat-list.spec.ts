import { applyArrival, arrivalOf, ChatEntry, countLabel, entriesOf, entryName, markRead, notifies, reconcile, textMentions, unreadTotal } from './chat-list';

const me = { id: 1, mentionName: 'ada' };
const ops: ChatEntry = { type: 'room', id: 12, name: 'Ops', unread: 0, mentioned: false };
const zoo: ChatEntry = { type: 'room', id: 14, name: 'Zoo', unread: 0, mentioned: false };
const ann: ChatEntry = { type: 'user', id: 7, name: 'Ann Lee', mentionName: 'ann', unread: 0, mentioned: false };
const bob: ChatEntry = { type: 'user', id: 8, name: 'Bob', mentionName: 'bob', unread: 2, mentioned: false };

const roomMessage = (roomId: number, from: unknown, text: string, mentions: unknown[] = []) => ({
  message: { id: 'm1', date: '2026-01-01T00:00:00Z', from, message: text, mentions, type: 'message' },
  room: { id: roomId, name: roomId === 12 ? 'Ops' : 'New room' },
});

describe('the chat list', () => {
  it('reads the API list, capping counts and leaving out what it cannot read', () => {
    expect(entriesOf({
      items: [
        { type: 'room', id: 12, name: 'Ops', privacy: 'public', unread: 3, mentioned: true, last_message: { id: 'm', date: '2026-01-01T00:00:01.5Z' }, links: {} },
        { type: 'user', id: 7, name: 'Ann Lee', mention_name: 'ann', unread: 250, mentioned: false },
        { type: 'group', id: 1, name: 'x' },
        { type: 'room', name: 'no id' },
      ],
    })).toEqual([
      { type: 'room', id: 12, name: 'Ops', unread: 3, mentioned: true, lastAt: Date.parse('2026-01-01T00:00:01.5Z') },
      { type: 'user', id: 7, name: 'Ann Lee', mentionName: 'ann', unread: 100, mentioned: false },
    ]);
    expect(entriesOf(null)).toEqual([]);
  });

  it('names an entry with its count and mention, "99+" from the cap on', () => {
    expect(entryName(ops)).toBe('Ops');
    expect(entryName({ ...ops, unread: 3 })).toBe('Ops, 3 unread');
    expect(entryName({ ...ops, unread: 3, mentioned: true })).toBe('Ops, 3 unread, mentioned');
    expect(entryName({ ...ops, unread: 100 })).toBe('Ops, 99+ unread');
    expect(countLabel(99)).toBe('99');
    expect(countLabel(100)).toBe('99+');
  });

  it('totals the unread and clears a chat that was read', () => {
    const list = [{ ...ops, unread: 3, mentioned: true }, ann, bob];
    expect(unreadTotal(list)).toBe(5);
    const read = markRead(list, { type: 'room', id: 12 });
    expect(read[0]).toEqual(ops);
    expect(read[2]).toBe(list[2]);
    expect(unreadTotal(read)).toBe(2);
    // A person and a room with the same id are different chats.
    expect(markRead(list, { type: 'user', id: 12 })[0].unread).toBe(3);
  });

  it('finds an @mention of the person in a text, not of someone whose name starts the same', () => {
    expect(textMentions('hi @ada, look', 'ada')).toBe(true);
    expect(textMentions('@ADA', 'ada')).toBe(true);
    expect(textMentions('hi @adam', 'ada')).toBe(false);
    expect(textMentions('mail me at me@ada', 'ada')).toBe(false);
    expect(textMentions('no mention', 'ada')).toBe(false);
  });
});

describe('an event of the user stream', () => {
  it('says a room message arrived, mentioning me when its mentions name me', () => {
    const a = arrivalOf('room_message', roomMessage(12, { id: 7, name: 'Ann Lee', mention_name: 'ann' }, 'hi @ada', [{ id: 1, mention_name: 'ada' }]), me);
    expect(a).toEqual({ chat: { type: 'room', id: 12 }, name: 'Ops', from: 'Ann Lee', fromMe: false, text: 'hi @ada', mentionsMe: true, private: false, at: Date.parse('2026-01-01T00:00:00Z') });
    expect(arrivalOf('room_notification', roomMessage(12, 'CI', 'Build passed'), me)).toMatchObject({ from: 'CI', mentionsMe: false, fromMe: false });
    expect(arrivalOf('room_message', roomMessage(12, { id: 1, name: 'Ada' }, 'mine @ada', [{ id: 1 }]), me)).toMatchObject({ fromMe: true, mentionsMe: false });
    expect(arrivalOf('room_notification', roomMessage(12, 'CI', '<b>@all</b> deploy failing'), me)).toMatchObject({ mentionsMe: true });
    expect(arrivalOf('room_message', roomMessage(12, { id: 7, name: 'Ann Lee' }, '@here standup'), me)).toMatchObject({ mentionsMe: false });
  });

  it('reads a file upload, a private message both ways, and ignores other events', () => {
    expect(arrivalOf('room_file_upload', { file: { name: 'a.png' }, room: { id: 12, name: 'Ops' }, sender: { id: 7, name: 'Ann' } }, me))
      .toMatchObject({ chat: { type: 'room', id: 12 }, text: 'shared a.png', from: 'Ann', fromMe: false });
    const from = { id: 7, name: 'Ann Lee', mention_name: 'ann' };
    const to = { id: 1, name: 'Ada', mention_name: 'ada' };
    expect(arrivalOf('private_message', { message: { id: 'p', from, message: 'psst @ada' }, from, to }, me)).toEqual({
      chat: { type: 'user', id: 7 }, name: 'Ann Lee', mentionName: 'ann', from: 'Ann Lee', fromMe: false, text: 'psst @ada', mentionsMe: true, private: true,
    });
    expect(arrivalOf('private_message', { message: { id: 'p', message: 'hello' }, from: to, to: from }, me))
      .toMatchObject({ chat: { type: 'user', id: 7 }, name: 'Ann Lee', fromMe: true, mentionsMe: false });
    expect(arrivalOf('room_topic_change', { room: { id: 12 }, topic: 't' }, me)).toBeNull();
    expect(arrivalOf('room_message', 'nonsense', me)).toBeNull();
    expect(arrivalOf('private_message', { message: 'x' }, me)).toBeNull();
  });

  it('counts one more in its chat, with the mark, unless I sent it or have the chat open', () => {
    const list = [ops, zoo, ann, bob];
    const mention = arrivalOf('room_message', roomMessage(12, { id: 7, name: 'Ann' }, '@ada', [{ id: 1 }]), me)!;
    const after = applyArrival(list, mention, null);
    expect(after[0]).toEqual({ ...ops, unread: 1, mentioned: true });
    expect(after.slice(1)).toEqual(list.slice(1));
    expect(applyArrival(list, mention, { type: 'room', id: 12 })).toBe(list);
    const mine = arrivalOf('room_message', roomMessage(12, { id: 1, name: 'Ada' }, 'hi'), me)!;
    expect(applyArrival(list, mine, null)).toBe(list);
    // The cap holds.
    expect(applyArrival([{ ...ops, unread: 100 }], mention, null)[0].unread).toBe(100);
  });

  it('puts a private chat with news first among the private chats, and adds chats it did not list', () => {
    const list = [ops, zoo, ann, bob];
    const fromBob = arrivalOf('private_message', { message: { message: 'hi' }, from: { id: 8, name: 'Bob' }, to: { id: 1, name: 'Ada' } }, me)!;
    expect(applyArrival(list, fromBob, null).map((e) => `${e.name}:${e.unread}`)).toEqual(['Ops:0', 'Zoo:0', 'Bob:3', 'Ann Lee:0']);
    const fromCy = arrivalOf('private_message', { message: { message: 'hi' }, from: { id: 9, name: 'Cy', mention_name: 'cy' }, to: { id: 1 } }, me)!;
    expect(applyArrival(list, fromCy, null)[2]).toEqual({ type: 'user', id: 9, name: 'Cy', mentionName: 'cy', unread: 1, mentioned: false });
    const inNewRoom = arrivalOf('room_message', roomMessage(13, { id: 7, name: 'Ann' }, 'hi'), me)!;
    expect(applyArrival(list, inNewRoom, null).map((e) => e.name)).toEqual(['New room', 'Ops', 'Zoo', 'Ann Lee', 'Bob']);
    expect(applyArrival([ann], inNewRoom, null).map((e) => e.name)).toEqual(['New room', 'Ann Lee']);
  });

  it('notifies a mention or a private message, not mine, nor one in the chat I am looking at', () => {
    const mention = arrivalOf('room_message', roomMessage(12, { id: 7, name: 'Ann' }, '@ada', [{ id: 1 }]), me)!;
    const plain = arrivalOf('room_message', roomMessage(12, { id: 7, name: 'Ann' }, 'hi'), me)!;
    const dm = arrivalOf('private_message', { message: { message: 'hi' }, from: { id: 8, name: 'Bob' }, to: { id: 1 } }, me)!;
    const mine = arrivalOf('private_message', { message: { message: 'hi' }, from: { id: 1 }, to: { id: 8, name: 'Bob' } }, me)!;
    expect(notifies(mention, null, true)).toBe(true);
    expect(notifies(plain, null, false)).toBe(false);
    expect(notifies(dm, { type: 'room', id: 12 }, true)).toBe(true);
    expect(notifies(mine, null, false)).toBe(false);
    expect(notifies(mention, { type: 'room', id: 12 }, true)).toBe(false);
    // Open but in a tab in the background: told.
    expect(notifies(mention, { type: 'room', id: 12 }, false)).toBe(true);
  });

  it('keeps the count of a message that came while the list was read, unless the list counted it', () => {
    const at = Date.parse('2026-01-01T00:00:00Z');
    const mention = arrivalOf('room_message', roomMessage(12, { id: 7, name: 'Ann' }, '@ada', [{ id: 1 }]), me)!;
    // Read before the message was stored: its newest message is older.
    expect(reconcile([{ ...ops, lastAt: at - 1000 }], [mention], null)[0]).toMatchObject({ unread: 1, mentioned: true });
    // Read after: the list counted it already.
    expect(reconcile([{ ...ops, unread: 1, mentioned: true, lastAt: at }], [mention], null)[0]).toMatchObject({ unread: 1 });
    expect(reconcile([], [mention], null)).toEqual([{ type: 'room', id: 12, name: 'Ops', unread: 1, mentioned: true }]);
  });
});
