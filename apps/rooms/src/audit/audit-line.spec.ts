import { auditActorOf, cleanDetails, cleanSubject, maskUrl, roomChangeLines, webhookAuditUrl, webhookSubject } from './audit-line';

describe('audit lines: who acted', () => {
  it('names a user by their current name, a token by its label, an add-on by its installation, the CLI, the service', () => {
    expect(auditActorOf({ label: 'API', tokenId: 4, userId: 7, address: '10.0.0.9' }, { userName: 'Ada' })).toEqual({ type: 'user', id: 7, name: 'Ada' });
    expect(auditActorOf({ label: 'deploy bot', tokenId: 4 }, { tokenKind: 'admin', tokenLabel: 'deploy bot' })).toEqual({ type: 'token', id: 4, name: 'deploy bot' });
    expect(auditActorOf({ label: 'Jira', tokenId: 9 }, { tokenKind: 'addon', tokenLabel: 'Jira', addonId: 3, addonName: 'Jira Cloud' }))
      .toEqual({ type: 'addon', id: 3, name: 'Jira Cloud' });
    expect(auditActorOf({ label: 'cli' })).toEqual({ type: 'cli', id: null, name: 'cli' });
    expect(auditActorOf(undefined)).toEqual({ type: 'system', id: null, name: 'rooms service' });
  });
});

describe('audit lines: no secret, ever', () => {
  it('masks a URL\'s query and fragment and drops its credentials', () => {
    expect(maskUrl('https://hooks.example.com/in/abc?token=s3cret&x=1')).toBe('https://hooks.example.com/in/abc?…');
    expect(maskUrl('https://user:pa55@hooks.example.com/in#frag')).toBe('https://hooks.example.com/in?…');
    expect(maskUrl('https://hooks.example.com/in')).toBe('https://hooks.example.com/in');
  });

  it('drops secret-named keys at any depth and masks every URL in the details', () => {
    const details = cleanDetails({
      url: 'https://h.example/p?secret=abc', secret: 'whsec', oauthSecret: 'o', tokenHash: 'f'.repeat(64), password: 'pw', authorization: 'Bearer x',
      nested: { callbackUrl: 'http://a.example/cb?sig=1', accessToken: 't', list: ['https://b.example/?k=v', 'plain'] },
      kind: 'personal', roomId: 3, missing: undefined,
    });
    expect(details).toEqual({
      url: 'https://h.example/p?…',
      nested: { callbackUrl: 'http://a.example/cb?…', list: ['https://b.example/?…', 'plain'] },
      kind: 'personal', roomId: 3,
    });
    const text = JSON.stringify(details);
    for (const secret of ['whsec', 'abc', 'pw', 'Bearer', 'sig=1', 'k=v']) expect(text).not.toContain(secret);
  });

  it('names a webhook by its name, else by its masked URL; a target named by a URL is masked too', () => {
    expect(webhookSubject({ id: 5, name: 'ci', url: 'https://h.example/x?s=1' })).toEqual({ type: 'webhook', id: 5, name: 'ci' });
    expect(webhookSubject({ id: 5, name: '', url: 'https://h.example/x?s=1' })).toEqual({ type: 'webhook', id: 5, name: 'https://h.example/***?s=***' });
    expect(cleanSubject(webhookSubject({ id: 5, name: '', url: 'https://h.example/x?s=1' })).name).toBe('https://h.example/***?s=***');
    expect(cleanSubject({ type: 'webhook', id: 1, name: 'https://h.example/?q=secret' }).name).toBe('https://h.example/?…');
  });

  it('masks a webhook\'s URL as a bridge\'s: a credential in its path is gone too, its query keeps its names', () => {
    const slack = webhookAuditUrl('https://hooks.slack.com/services/T0001/B0002/XXSECRETXX');
    const keyed = webhookAuditUrl('https://receiver.example.com/hooks/in?key=abc&x=1');
    expect(slack).toBe('https://hooks.slack.com/services/***');
    expect(keyed).toBe('https://receiver.example.com/hooks/***?key=***&x=***');
    // The log's cleaning leaves what is masked so as it is.
    expect(cleanDetails({ url: slack, other: keyed })).toEqual({ url: slack, other: keyed });
    expect(JSON.stringify(cleanDetails({ url: 'https://receiver.example.com/hooks/in?key=abc#frag' }))).not.toMatch(/abc|frag/);
  });
});

describe('audit lines: a room update', () => {
  const room = { id: 1, name: 'Ops', privacy: 'public', ownerUserId: 2 };

  it('records the ownership, privacy and archiving changes, with what they were', () => {
    expect(roomChangeLines(room, { ownerUserId: 3, privacy: 'private', isArchived: true }, { id: 3, name: 'Bea' })).toEqual([
      { action: 'room.owner_changed', target: { type: 'room', id: 1, name: 'Ops' }, details: { from: 2, to: { id: 3, name: 'Bea' } } },
      { action: 'room.privacy_changed', target: { type: 'room', id: 1, name: 'Ops' }, details: { from: 'public', to: 'private' } },
      { action: 'room.archived', target: { type: 'room', id: 1, name: 'Ops' } },
    ]);
  });

  it('records nothing for a topic or a name', () => {
    expect(roomChangeLines(room, {})).toEqual([]);
    expect(roomChangeLines(room, { ownerUserId: 2, privacy: 'public' })).toEqual([]);
  });
});
