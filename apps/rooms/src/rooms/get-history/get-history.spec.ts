import { MessageEntity } from '../../database/entities';
import { recentWindow, toHistoryView } from './get-history.usecase';

describe('recentWindow', () => {
  it('pages freely without recent, and within the newest 75 with it', () => {
    expect(recentWindow({ recentOnly: false, offset: 200, limit: 101 })).toEqual({ offset: 200, limit: 101 });
    expect(recentWindow({ recentOnly: true, offset: 0, limit: 101 })).toEqual({ offset: 0, limit: 75 });
    expect(recentWindow({ recentOnly: true, offset: 70, limit: 11 })).toEqual({ offset: 70, limit: 5 });
    expect(recentWindow({ recentOnly: true, offset: 80, limit: 11 })).toEqual({ offset: 80, limit: 0 });
    // No limit: v1's `recent` (the newest 75) and a v1 day (all of it).
    expect(recentWindow({ recentOnly: true, offset: 0 })).toEqual({ offset: 0, limit: 75 });
    expect(recentWindow({ recentOnly: false, offset: 0 })).toEqual({ offset: 0, limit: null });
  });
});

describe('toHistoryView', () => {
  const base = {
    id: 'm', roomId: 1, type: 'message' as const, fromLabel: null, userId: 3, body: 'hi', messageFormat: 'text' as const, color: null,
    notify: false, mentionUserIds: [], createdAt: new Date('2024-01-01T00:00:00Z'), userName: 'Ada', file: null,
  };

  it('gives v1 rows only what v1 shows', () => {
    expect(toHistoryView(Object.assign(new MessageEntity(), base))).toEqual({
      id: 'm', date: '2024-01-01T00:00:00.000Z', type: 'message', from: { userId: 3, name: 'Ada' }, message: 'hi', messageFormat: 'text', color: null,
    });
  });

  it('adds the v2 fields of full rows', () => {
    const view = toHistoryView(Object.assign(new MessageEntity(), {
      ...base, userMentionName: 'ada', userVersion: 'V1', mentions: [{ id: 4, name: 'Bo', mentionName: 'bo', version: 'V2' }],
      messageLinks: [{ type: 'link', url: 'https://x.example' }], card: null, attachTo: null,
      file: { name: 'a.txt', size: 1, url: 'https://f.example/a.txt' },
    }));
    expect(view).toMatchObject({
      from: { userId: 3, name: 'Ada', mentionName: 'ada', version: 'V1' }, mentions: [{ id: 4, mentionName: 'bo' }],
      messageLinks: [{ type: 'link', url: 'https://x.example' }], file: { name: 'a.txt', size: 1, url: 'https://f.example/a.txt' },
    });
    expect(view).not.toHaveProperty('card');
    expect(view).not.toHaveProperty('attachTo');
  });
});
