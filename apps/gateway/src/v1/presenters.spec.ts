import { DateTime } from 'luxon';
import type { HistoryMessageView, RoomDetailView, RoomView, UserView } from '@app/contracts';
import { formatHistoryDate, toV1HistoryMessage, toV1Room, toV1RoomDetail, toV1User, unixSeconds } from './presenters';

const ROOM: RoomView = {
  id: 7, name: 'Dev Ops Room', topic: 'Deploys', privacy: 'public', isArchived: false, ownerUserId: 3,
  created: '2010-11-19T23:48:19.999Z', lastActive: null, xmppJid: '1_dev_ops_room@conf.localhost',
  guestAccessUrl: null, version: 'A1B2C3D4',
};

const USER: UserView = {
  id: 3, name: 'Ada Lovelace', mentionName: 'AdaLovelace', email: 'ada@example.com', title: '',
  photoUrl: 'http://127.0.0.1:8080/img/silhouette_125.png', created: '2020-01-02T03:04:05.678Z', lastActive: null,
  status: 'offline', statusMessage: '', isGroupAdmin: true, isDeleted: false, isGuest: false, timezone: 'UTC',
  xmppJid: '1_3@chat.localhost', version: 'V',
};

/** The bodies are compared as text: key order is part of what v1 clients see. */
describe('v1 presenters', () => {
  it('shapes a room as the v1 ROOM record, key for key', () => {
    expect(JSON.stringify(toV1Room(ROOM))).toBe(
      '{"room_id":7,"name":"Dev Ops Room","topic":"Deploys","last_active":0,"created":1290210499,"owner_user_id":3,' +
      '"is_archived":false,"is_private":false,"xmpp_jid":"1_dev_ops_room@conf.localhost","guest_access_url":null}');
  });

  it('gives last_active and created in UNIX seconds, rounded down; is_private from the privacy', () => {
    const room = toV1Room({ ...ROOM, privacy: 'private', isArchived: true, lastActive: '2020-01-01T00:00:00.999Z', guestAccessUrl: 'http://x/g/abc' });
    expect(room).toMatchObject({ last_active: 1577836800, is_private: true, is_archived: true, guest_access_url: 'http://x/g/abc' });
    expect(unixSeconds('2020-01-01T00:00:01.000001Z')).toBe(1577836801);
    expect(unixSeconds(null)).toBe(0);
  });

  it('adds member_user_ids and participants for rooms/show', () => {
    const detail: RoomDetailView = { ...ROOM, memberUserIds: [3, 9], participants: [{ userId: 9, name: 'Grace', mentionName: 'grace', version: 'V9' }] };
    expect(JSON.stringify(toV1RoomDetail(detail))).toBe(
      `${JSON.stringify(toV1Room(ROOM)).slice(0, -1)},"member_user_ids":[3,9],"participants":[{"user_id":9,"name":"Grace"}]}`);
  });

  it('shapes a user as the v1 USER record, is_deleted only when asked (users/list), after timezone', () => {
    const expected = '{"user_id":3,"name":"Ada Lovelace","mention_name":"AdaLovelace","email":"ada@example.com","title":"",' +
      '"photo_url":"http://127.0.0.1:8080/img/silhouette_125.png","last_active":0,"created":1577934245,"status":"offline",' +
      '"status_message":"","is_group_admin":1,"timezone":"UTC"';
    expect(JSON.stringify(toV1User(USER))).toBe(`${expected}}`);
    expect(JSON.stringify(toV1User({ ...USER, isDeleted: true }, true))).toBe(`${expected},"is_deleted":1}`);
    expect(toV1User({ ...USER, isGroupAdmin: false }, true)).toMatchObject({ is_group_admin: 0, is_deleted: 0 });
  });

  describe('history messages', () => {
    const message: HistoryMessageView = {
      id: 'm1', date: '2010-11-19T23:48:19.000Z', type: 'notification', from: { userId: null, name: 'Importer' },
      message: 'la evening', messageFormat: 'html', color: 'yellow',
    };

    it('dates each message in the requested timezone, offset without a colon', () => {
      expect(formatHistoryDate('2010-11-19T23:48:19.000Z', 'America/Los_Angeles')).toBe('2010-11-19T15:48:19-0800');
      expect(formatHistoryDate('2010-11-19T23:48:19.000Z', 'UTC')).toBe('2010-11-19T23:48:19+0000');
      expect(formatHistoryDate('2010-07-01T12:00:00.000Z', 'Asia/Kolkata')).toBe('2010-07-01T17:30:00+0530');
      // UTC takes a short cut: the same text as luxon gives, for dates with and without milliseconds.
      for (const iso of ['2024-02-29T00:00:00.000Z', '1999-12-31T23:59:59.999Z', '2026-11-25T01:02:03Z', '2026-06-30T12:34:56.5Z']) {
        expect(formatHistoryDate(iso, 'UTC')).toBe(DateTime.fromISO(iso, { zone: 'UTC' }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZZ"));
      }
      // Anything else goes through luxon (an offset in the input, another zone).
      expect(formatHistoryDate('2010-11-19T23:48:19.000+01:00', 'UTC')).toBe('2010-11-19T22:48:19+0000');
    });

    it('answers user_id "api" for messages sent through the API, the number otherwise', () => {
      expect(JSON.stringify(toV1HistoryMessage(message, 'America/Los_Angeles')))
        .toBe('{"date":"2010-11-19T15:48:19-0800","from":{"name":"Importer","user_id":"api"},"message":"la evening"}');
      expect(toV1HistoryMessage({ ...message, from: { userId: 3, name: 'Ada' } }, 'UTC').from).toEqual({ name: 'Ada', user_id: 3 });
    });

    it('adds the file when there is one', () => {
      const file = { name: 'a.png', size: 42, url: 'http://x/a.png' };
      expect(JSON.stringify(toV1HistoryMessage({ ...message, file }, 'UTC')))
        .toBe('{"date":"2010-11-19T23:48:19+0000","from":{"name":"Importer","user_id":"api"},"message":"la evening",' +
          '"file":{"name":"a.png","size":42,"url":"http://x/a.png"}}');
    });
  });
});
