import { checkDescriptor, DescriptorCheck } from './descriptor';

const base = {
  key: 'com.example.echo',
  name: 'Echo',
  links: { self: 'https://addon.example.com/capabilities' },
  capabilities: {
    installable: { callbackUrl: 'https://addon.example.com/installed', allowRoom: true, allowGlobal: true },
    hipchatApiConsumer: { scopes: ['send_notification', 'view_room'] },
    webhook: [
      { url: 'https://addon.example.com/hook?t=1', event: 'room_message', pattern: '^/echo', name: 'echo', authentication: 'jwt', delivery: 'ordered', key: 'echo' },
      { url: 'https://addon.example.com/enter', event: 'room_enter' },
    ],
  },
};

const inRoom = { inRoom: true, maxWebhooks: 10 };
const problemsOf = (c: DescriptorCheck) => (c.ok ? [] : c.problems);
const withCaps = (caps: Record<string, unknown>) => ({ ...base, capabilities: { ...base.capabilities, ...caps } });

describe('checkDescriptor', () => {
  it('takes key, name, links.self, callback, scopes and webhooks (defaults filled in)', () => {
    const c = checkDescriptor(base, inRoom);
    expect(c).toEqual({
      ok: true,
      descriptor: {
        key: 'com.example.echo', name: 'Echo', selfUrl: 'https://addon.example.com/capabilities', callbackUrl: 'https://addon.example.com/installed',
        scopes: ['send_notification', 'view_room'],
        webhooks: [
          { event: 'room_message', url: 'https://addon.example.com/hook?t=1', pattern: '^/echo', name: 'echo', authentication: 'jwt', delivery: 'ordered', key: 'echo' },
          { event: 'room_enter', url: 'https://addon.example.com/enter', pattern: null, name: '', authentication: 'none', delivery: 'concurrent', key: null },
        ],
      },
    });
  });

  it('names the key when the name is absent, and needs neither scopes nor webhooks', () => {
    const c = checkDescriptor({ key: 'k', links: base.links, capabilities: { installable: { callbackUrl: 'http://a.example/i' } } }, { inRoom: false, maxWebhooks: 10 });
    expect(c).toMatchObject({ ok: true, descriptor: { key: 'k', name: 'k', scopes: [], webhooks: [] } });
  });

  it('refuses what is not an object', () => {
    expect(problemsOf(checkDescriptor([1], inRoom))).toEqual(['the descriptor must be a JSON object']);
    expect(problemsOf(checkDescriptor('x', inRoom))).toEqual(['the descriptor must be a JSON object']);
  });

  it('names every defect at once', () => {
    const c = checkDescriptor({ name: 7, links: {}, capabilities: { hipchatApiConsumer: { scopes: ['send_notification', 'launch_rockets'] } } }, inRoom);
    expect(problemsOf(c)).toEqual([
      'key: is required',
      'name: must be text (got number)',
      'links.self: is required',
      'capabilities.installable.callbackUrl: is required',
      expect.stringMatching(/^capabilities\.hipchatApiConsumer\.scopes\[1\]: unknown scope "launch_rockets" \(the scopes are admin_group, /),
    ]);
  });

  it('needs http(s) URLs for links.self and the callback', () => {
    const c = checkDescriptor({ ...base, links: { self: 'ftp://x/y' }, capabilities: { installable: { callbackUrl: 'not a url' } } }, inRoom);
    expect(problemsOf(c)).toEqual([
      'links.self: must be an http(s) URL (got "ftp://x/y")',
      'capabilities.installable.callbackUrl: must be an http(s) URL (got "not a url")',
    ]);
  });

  it('refuses a room install when allowRoom is false, and a group-wide one when allowGlobal is false', () => {
    const roomless = withCaps({ installable: { callbackUrl: 'https://a.example/i', allowRoom: false } });
    expect(problemsOf(checkDescriptor(roomless, inRoom))).toEqual([expect.stringMatching(/^capabilities\.installable\.allowRoom: is false: this add-on cannot be installed in a room/)]);
    expect(checkDescriptor(roomless, { inRoom: false, maxWebhooks: 10 }).ok).toBe(true);
    const roomOnly = withCaps({ installable: { callbackUrl: 'https://a.example/i', allowGlobal: false } });
    expect(problemsOf(checkDescriptor(roomOnly, { inRoom: false, maxWebhooks: 10 }))).toEqual([expect.stringMatching(/^capabilities\.installable\.allowGlobal: is false: this add-on cannot be installed group-wide/)]);
    expect(checkDescriptor(roomOnly, inRoom).ok).toBe(true);
    expect(problemsOf(checkDescriptor(withCaps({ installable: { callbackUrl: 'https://a.example/i', allowRoom: 'no' } }), inRoom)))
      .toEqual(['capabilities.installable.allowRoom: must be true or false (got string)']);
  });

  it('checks each webhook entry with the registration rules', () => {
    const c = checkDescriptor(withCaps({
      webhook: [
        { url: 'https://a.example/1', event: 'room_deleted_forever' },
        { url: 'mailto:x@example.com', event: 'room_message' },
        { url: 'https://a.example/3', event: 'room_message', pattern: '(a)\\1' },
        { url: 'https://a.example/4', event: 'room_enter', pattern: 'hello' },
        { url: 'https://a.example/5', event: 'room_exit', key: 'k'.repeat(41) },
        { event: 'room_exit' },
        'hook',
        { url: 'https://a.example/8', event: 'room_exit', key: 'same' },
        { url: 'https://a.example/9', event: 'room_enter', key: 'same' },
        { url: 'https://a.example/10', event: 'room_enter', authentication: 'basic' },
      ],
    }), inRoom);
    expect(problemsOf(c)).toEqual([
      expect.stringMatching(/^capabilities\.webhook\[0\]\.event: must be one of room_archived, .* \(got "room_deleted_forever"\)$/),
      'capabilities.webhook[1].url: must be an http(s) URL (got "mailto:x@example.com")',
      expect.stringMatching(/^capabilities\.webhook\[2\]\.pattern: must be a regular expression the safe \(RE2\) engine accepts/),
      'capabilities.webhook[3].pattern: applies to room_message webhooks only (this one is for room_enter)',
      'capabilities.webhook[4].key: must be 1 to 40 characters (got 41)',
      'capabilities.webhook[5].url: is required',
      'capabilities.webhook[6]: must be an object with url and event',
      'capabilities.webhook[8].key: "same" is already the key of capabilities.webhook[7] (keys are unique within an add-on)',
      'capabilities.webhook[9].authentication: must be one of jwt, none (got "basic")',
    ]);
  });

  it('limits how many webhooks an add-on declares', () => {
    const many = Array.from({ length: 3 }, (_, i) => ({ url: `https://a.example/${i}`, event: 'room_enter' }));
    expect(problemsOf(checkDescriptor(withCaps({ webhook: many }), { inRoom: true, maxWebhooks: 2 })))
      .toEqual(['capabilities.webhook: declares 3 webhooks; at most 2 are allowed']);
    expect(problemsOf(checkDescriptor(withCaps({ webhook: 'x' }), inRoom))).toEqual(['capabilities.webhook: must be a list of webhooks']);
  });

  it('accepts a single webhook given as an object', () => {
    const c = checkDescriptor(withCaps({ webhook: { url: 'https://a.example/1', event: 'room_enter' } }), inRoom);
    expect(c.ok && c.descriptor.webhooks.map((w) => w.url)).toEqual(['https://a.example/1']);
  });

  it('refuses a webhook URL at an address deliveries may not reach, unless the allowed networks open it', () => {
    const descriptor = withCaps({ webhook: [
      { url: 'http://0xa9fea9fe/latest/meta-data', event: 'room_message' },
      { url: 'http://127.0.0.1:3000/hook', event: 'room_enter' },
      { url: 'https://addon.example.com/named', event: 'room_exit' },
    ] });
    expect(problemsOf(checkDescriptor(descriptor, inRoom))).toEqual([
      'capabilities.webhook[0].url: cannot be delivered to: 169.254.169.254 is a cloud metadata address; refused',
      expect.stringMatching(/^capabilities\.webhook\[1\]\.url: cannot be delivered to: 127\.0\.0\.1 is a loopback address; refused/),
    ]);
    expect(problemsOf(checkDescriptor(descriptor, { ...inRoom, allowedNetworks: ['127.0.0.0/8'] }))).toEqual([
      'capabilities.webhook[0].url: cannot be delivered to: 169.254.169.254 is a cloud metadata address; refused',
    ]);
  });

  describe('capabilities.installable.callbackUrl (where the OAuth secret goes)', () => {
    const withCallback = (callbackUrl: string) => withCaps({ installable: { callbackUrl }, webhook: [] });

    it.each([
      ['https://addon.example.com/installed', []],
      ['https://8.8.8.8/installed', []],
      ['https://[2606:4700::1]:8443/installed', []],
      ['http://127.0.0.1:3000/installed', ['127.0.0.0/8']],
      ['http://[::ffff:127.0.0.1]/installed', ['127.0.0.0/8']],
      ['http://10.1.2.3/installed', ['10.0.0.0/8']],
      // A name is judged when it is called, on the addresses it resolves to then.
      ['http://addon.internal/installed', []],
    ])('accepts %s with the allowed networks %j', (callbackUrl, allowedNetworks) => {
      expect(checkDescriptor(withCallback(callbackUrl), { ...inRoom, allowedNetworks })).toMatchObject({ ok: true, descriptor: { callbackUrl } });
    });

    it.each([
      ['http://8.8.8.8/installed?secret=s3cret', [], '8.8.8.8'],
      ['http://[2606:4700::1]/installed', [], '2606:4700::1'],
      ['http://127.0.0.1:3000/installed', [], '127.0.0.1'],
      ['http://127.0.0.1:3000/installed', ['127.0.0.2/32'], '127.0.0.1'],
      ['http://10.1.2.3/installed', ['127.0.0.0/8'], '10.1.2.3'],
    ])('refuses plain http to %s with the allowed networks %j, naming the field and the rule', (callbackUrl, allowedNetworks, address) => {
      expect(problemsOf(checkDescriptor(withCallback(callbackUrl), { ...inRoom, allowedNetworks }))).toEqual([
        `capabilities.installable.callbackUrl: must be https: plain http is only for addresses in WEBHOOK_ALLOWED_NETWORKS, and ${address} is not in them`,
      ]);
    });
  });
});
