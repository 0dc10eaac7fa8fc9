import { addonIdOf, installAddonBody, requestedScopes, tokenBody } from './addons.schemas';
import { basicCredentials } from './client-credentials';

describe('add-on request schemas', () => {
  it('reads the room as an id (number or digits) or a name; absent, null or "" is group-wide', () => {
    const url = 'https://addon.example.com/capabilities';
    expect(installAddonBody.parse({ url, room: 12 })).toEqual({ url, room: { id: 12 } });
    expect(installAddonBody.parse({ url, room: '12' })).toEqual({ url, room: { id: 12 } });
    expect(installAddonBody.parse({ url, room: 'Ops' })).toEqual({ url, room: { name: 'Ops' } });
    expect(installAddonBody.parse({ url, room: null })).toEqual({ url });
    expect(installAddonBody.parse({ url, room: '' })).toEqual({ url });
    expect(installAddonBody.safeParse({ url, room: 1.5 }).success).toBe(false);
    expect(installAddonBody.safeParse({ url: 'file:///etc/passwd' }).success).toBe(false);
  });

  it('splits scopes on spaces (OAuth) or commas, as one text or a list', () => {
    expect(requestedScopes(undefined)).toBeUndefined();
    expect(requestedScopes('')).toBeUndefined();
    expect(requestedScopes('send_notification view_room')).toEqual(['send_notification', 'view_room']);
    expect(requestedScopes(' send_notification,view_room ')).toEqual(['send_notification', 'view_room']);
    expect(requestedScopes(['admin_room', 'view_group view_room'])).toEqual(['admin_room', 'view_group', 'view_room']);
    expect(tokenBody.parse({ grant_type: 'client_credentials', scope: null, extra: 1 })).toEqual({ grant_type: 'client_credentials' });
  });

  it('reads HTTP Basic credentials (the secret may hold a colon)', () => {
    const header = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;
    expect(basicCredentials(header('id:se:cret'))).toEqual({ id: 'id', secret: 'se:cret' });
    expect(basicCredentials(`basic  ${Buffer.from('a:b').toString('base64')} `)).toEqual({ id: 'a', secret: 'b' });
    expect(basicCredentials(header(':secret'))).toBeNull();
    expect(basicCredentials(header('no-colon'))).toBeNull();
    expect(basicCredentials('Bearer abc')).toBeNull();
    expect(basicCredentials(undefined)).toBeNull();
  });

  it('takes installation ids only; anything else names no installation (404)', () => {
    expect(addonIdOf('42')).toBe(42);
    expect(() => addonIdOf('0')).toThrow('Add-on installation 0 not found');
    expect(() => addonIdOf('abc')).toThrow('Add-on installation abc not found');
  });
});
