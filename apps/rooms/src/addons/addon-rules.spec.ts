import { capabilitiesUrlOf, grantScopes, installationBody, newOAuthClient, secretMatches, uninstallUrl } from './addon-rules';

describe('add-on rules', () => {
  it('makes a UUID client id and a 32-byte base64url secret', () => {
    const a = newOAuthClient();
    expect(a.oauthId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Buffer.from(a.oauthSecret, 'base64url')).toHaveLength(32);
    expect(a.oauthSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newOAuthClient().oauthSecret).not.toBe(a.oauthSecret);
  });

  it('builds the installation body with numbers, and no roomId group-wide', () => {
    const common = { oauthId: 'id', oauthSecret: 's', capabilitiesUrl: 'http://a.example/cap?x=1' };
    expect(installationBody({ ...common, roomId: 12 })).toEqual({ oauthId: 'id', oauthSecret: 's', capabilitiesUrl: 'http://a.example/cap?x=1', roomId: 12, groupId: 1 });
    const groupWide = installationBody({ ...common, roomId: null });
    expect(groupWide).toEqual({ oauthId: 'id', oauthSecret: 's', capabilitiesUrl: 'http://a.example/cap?x=1', groupId: 1 });
    expect('roomId' in groupWide).toBe(false);
  });

  it('points at the capabilities document as the gateway names it (its links.self)', () => {
    expect(capabilitiesUrlOf('https://chat.example.com')).toBe('https://chat.example.com/v2/capabilities');
    // PUBLIC_BASE_URL arrives normalised by the configuration (env.publicBaseUrl, tested there).
    expect(capabilitiesUrlOf('https://chat.example.com/base')).toBe('https://chat.example.com/base/v2/capabilities');
  });

  it('appends the client id to the callback path for the uninstall call', () => {
    expect(uninstallUrl('https://a.example/installed', 'abc')).toBe('https://a.example/installed/abc');
    expect(uninstallUrl('https://a.example/installed/', 'abc')).toBe('https://a.example/installed/abc');
    expect(uninstallUrl('https://a.example/installed?t=1', 'abc')).toBe('https://a.example/installed/abc?t=1');
  });

  it('compares secrets', () => {
    expect(secretMatches('s3cret', 's3cret')).toBe(true);
    expect(secretMatches('s3cres', 's3cret')).toBe(false);
    expect(secretMatches('', 's3cret')).toBe(false);
    expect(secretMatches('s3cret-and-more', 's3cret')).toBe(false);
  });

  it('grants the scopes asked for within those allowed, all of them when none are asked for', () => {
    const allowed = ['send_notification', 'view_room'] as const;
    expect(grantScopes(undefined, [...allowed])).toEqual({ ok: true, scopes: ['send_notification', 'view_room'] });
    expect(grantScopes([], [...allowed])).toEqual({ ok: true, scopes: ['send_notification', 'view_room'] });
    expect(grantScopes(['view_room', 'view_room'], [...allowed])).toEqual({ ok: true, scopes: ['view_room'] });
    expect(grantScopes(['admin_group'], [...allowed])).toEqual({
      ok: false, scope: 'admin_group',
      problem: 'the scope admin_group was not requested by the add-on\'s descriptor (capabilities.hipchatApiConsumer.scopes: send_notification, view_room)',
    });
    expect(grantScopes(['launch'], [...allowed])).toMatchObject({ ok: false, scope: 'launch', problem: expect.stringMatching(/^unknown scope "launch"/) });
    expect(grantScopes(undefined, [])).toEqual({ ok: true, scopes: [] });
  });
});
