import type { UserView } from '@app/contracts';
import { presenceOf, rolesOf, toV2CreatedUser, toV2User, toV2UserItem } from './users.presenter';

const USER: UserView = {
  id: 3, name: 'Ada Lovelace', mentionName: 'Ada', email: 'ada@example.com', title: 'Analyst',
  photoUrl: 'http://h/img/silhouette_125.png', created: '2020-01-01T00:00:00.000Z', lastActive: null,
  status: 'offline', statusMessage: '', isGroupAdmin: true, isDeleted: false, isGuest: false, timezone: 'UTC',
  xmppJid: '1_3@chat.localhost', version: 'V1',
};

describe('v2 user presenters', () => {
  it('shapes the v2 user record with exactly the fields clients read, in order', () => {
    expect(Object.keys(toV2User(USER, 'http://h'))).toEqual([
      'id', 'name', 'mention_name', 'email', 'title', 'photo_url', 'last_active', 'created', 'presence', 'timezone',
      'is_group_admin', 'is_guest', 'is_deleted', 'xmpp_jid', 'roles', 'version', 'links',
    ]);
    expect(toV2User(USER, 'http://h')).toMatchObject({
      mention_name: 'Ada', presence: null, is_group_admin: true, roles: ['user', 'admin'], links: { self: 'http://h/v2/user/3' },
    });
  });

  it('answers presence for users with a session, null otherwise', () => {
    expect(presenceOf({ ...USER, status: 'available', statusMessage: 'here' })).toEqual({ show: 'chat', status: 'here', is_online: true });
    expect(presenceOf({ ...USER, status: 'dnd' })).toEqual({ show: 'dnd', status: null, is_online: true });
  });

  it('gives roles from the admin and guest flags', () => {
    expect(rolesOf({ ...USER, isGroupAdmin: false })).toEqual(['user']);
    expect(rolesOf({ ...USER, isGroupAdmin: false, isGuest: true })).toEqual(['guest']);
  });

  it('answers a create with {id, links} and the new user as entity', () => {
    expect(toV2CreatedUser(USER, 'http://h')).toEqual({
      id: 3, links: { self: 'http://h/v2/user/3' }, entity: toV2UserItem(USER, 'http://h'),
    });
    expect(toV2UserItem(USER, 'http://h')).toEqual({ id: 3, name: 'Ada Lovelace', mention_name: 'Ada', version: 'V1', links: { self: 'http://h/v2/user/3' } });
  });
});
