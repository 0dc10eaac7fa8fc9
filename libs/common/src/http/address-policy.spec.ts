import { AddressPolicy, addressRefusal, parseAllowedNetworks, urlAddressRefusal, urlHttpsRefusal } from './address-policy';

describe('addressRefusal', () => {
  // Every spelling of every address that is not global unicast, and the words of its refusal.
  it.each([
    // IPv4
    ['0.0.0.0', 'an unspecified address'],
    ['0.1.2.3', 'an unspecified address'],
    ['10.1.2.3', 'a private address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['100.127.255.254', 'a carrier-grade NAT address'],
    ['127.0.0.1', 'a loopback address'],
    ['127.255.0.9', 'a loopback address'],
    ['169.254.1.1', 'a link-local address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.254', 'a private address'],
    ['192.0.0.9', 'an IETF protocol assignment address'],
    ['192.0.2.1', 'a documentation address'],
    ['192.88.99.1', 'a 6to4 relay anycast address'],
    ['192.168.1.1', 'a private address'],
    ['198.18.0.1', 'a benchmarking address'],
    ['198.19.255.254', 'a benchmarking address'],
    ['198.51.100.7', 'a documentation address'],
    ['203.0.113.9', 'a documentation address'],
    ['224.0.0.1', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['240.0.0.1', 'a reserved (future use) address'],
    ['254.1.2.3', 'a reserved (future use) address'],
    ['255.255.255.255', 'a broadcast address'],
    ['192.175.48.1', 'an AS112 DNS sink address'],
    // IPv6
    ['::', 'an unspecified address'],
    ['::1', 'a loopback address'],
    ['0:0:0:0:0:0:0:1', 'a loopback address'],
    ['fc00::1', 'a unique-local address'],
    ['fd12:3456::1', 'a unique-local address'],
    ['fe80::1', 'a link-local address'],
    ['fe80::1%eth0', 'a link-local address'],
    ['febf::1', 'a link-local address'],
    ['fec0::1', 'a site-local address'],
    ['ff02::1', 'a multicast address'],
    ['ff0e::1', 'a multicast address'],
    ['2001:db8::1', 'a documentation address'],
    ['3fff::1', 'a documentation address'],
    ['2001::1', 'a Teredo address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'a Teredo address'],
    ['2001:2::1', 'a benchmarking address'],
    ['2001:1::1', 'an IETF protocol assignment address'],
    ['100::1', 'a discard-only address'],
    ['64:ff9b:1::a00:1', 'a local-use NAT64 address'],
    ['64:ff9b:1::808:808', 'a local-use NAT64 address'],
    ['4000::1', 'outside global unicast (2000::/3)'],
    ['1::1', 'outside global unicast (2000::/3)'],
    ['100:0:0:1::1', 'outside global unicast (2000::/3)'],
    ['5f00::1', 'a segment-routing identifier'],
    ['e000::1', 'outside global unicast (2000::/3)'],
    // Cloud metadata
    ['169.254.169.254', 'a cloud metadata address'],
    ['fd00:ec2::254', 'a cloud metadata address'],
    ['100.100.100.200', 'a cloud metadata address'],
  ])('refuses %s as %s', (address, wording) => {
    const refusal = addressRefusal(address, []);
    expect(refusal).toContain(`${address} is ${wording}; refused`);
  });

  // An IPv6 address standing for an IPv4 address, in every spelling, is the IPv4 address.
  it.each([
    // IPv4-mapped, dotted and hex
    ['::ffff:127.0.0.1', '127.0.0.1', 'a loopback address'],
    ['::ffff:7f00:1', '127.0.0.1', 'a loopback address'],
    ['::ffff:10.0.0.1', '10.0.0.1', 'a private address'],
    ['::ffff:a00:1', '10.0.0.1', 'a private address'],
    ['0:0:0:0:0:ffff:a00:1', '10.0.0.1', 'a private address'],
    ['::ffff:198.18.0.1', '198.18.0.1', 'a benchmarking address'],
    ['::ffff:240.0.0.1', '240.0.0.1', 'a reserved (future use) address'],
    ['::ffff:100.64.0.1', '100.64.0.1', 'a carrier-grade NAT address'],
    ['::ffff:0.0.0.0', '0.0.0.0', 'an unspecified address'],
    // IPv4-compatible (deprecated), dotted and hex
    ['::10.0.0.1', '10.0.0.1', 'a private address'],
    ['::a00:1', '10.0.0.1', 'a private address'],
    ['::127.0.0.1', '127.0.0.1', 'a loopback address'],
    ['::7f00:1', '127.0.0.1', 'a loopback address'],
    ['::c0a8:101', '192.168.1.1', 'a private address'],
    ['::0.0.0.2', '0.0.0.2', 'an unspecified address'],
    ['::e000:1', '224.0.0.1', 'a multicast address'],
    // IPv4-translated
    ['::ffff:0:127.0.0.1', '127.0.0.1', 'a loopback address'],
    ['::ffff:0:a00:1', '10.0.0.1', 'a private address'],
    // NAT64, well-known prefix
    ['64:ff9b::10.0.0.1', '10.0.0.1', 'a private address'],
    ['64:ff9b::a00:1', '10.0.0.1', 'a private address'],
    ['64:ff9b::c612:1', '198.18.0.1', 'a benchmarking address'],
    // 6to4
    ['2002:c0a8:0101::1', '192.168.1.1', 'a private address'],
    ['2002:a00:1::1', '10.0.0.1', 'a private address'],
    ['2002:7f00:1::', '127.0.0.1', 'a loopback address'],
    ['2002:f000:1::1', '240.0.0.1', 'a reserved (future use) address'],
  ])('judges %s as the IPv4 address it stands for (%s)', (address, v4, wording) => {
    expect(addressRefusal(address, [])).toBe(`${address} (stands for ${v4}) is ${wording}; refused (WEBHOOK_ALLOWED_NETWORKS opens ranges)`);
  });

  it.each([
    ['::ffff:169.254.169.254'],
    ['::ffff:a9fe:a9fe'],
    ['::a9fe:a9fe'],
    ['64:ff9b::a9fe:a9fe'],
    ['2002:a9fe:a9fe::1'],
    ['::ffff:0:a9fe:a9fe'],
  ])('refuses %s: it stands for a cloud metadata address', (address) => {
    expect(addressRefusal(address, [])).toBe(`${address} is a cloud metadata address; refused`);
  });

  it.each([
    '93.184.216.34', '8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '198.20.0.1', '223.255.255.254', '192.0.3.1',
    '2606:4700:4700::1111', '2a00:1450:4001::1', '64:ff9b::808:808', '::ffff:8.8.8.8', '::ffff:808:808', '::8.8.8.8',
    '2002:808:808::1', '[2606:4700:4700::1111]',
  ])('lets the global unicast address %s through', (address) => {
    expect(addressRefusal(address, [])).toBeNull();
  });

  it('words a refusal as the issue asks, with the way to open a range', () => {
    expect(addressRefusal('127.0.0.1', [])).toBe(
      '127.0.0.1 is a loopback address; refused (WEBHOOK_ALLOWED_NETWORKS opens ranges)',
    );
  });

  it('refuses what is not an IP address (a name must be resolved first)', () => {
    expect(addressRefusal('localhost', [])).toBe('localhost is not an IP address; refused');
    expect(addressRefusal('0x7f.1', [])).toMatch(/not an IP address/);
    expect(addressRefusal('', [])).toMatch(/not an IP address/);
  });

  it('accepts a bracketed IPv6 literal as found in a URL host', () => {
    expect(addressRefusal('[::1]', [])).toMatch(/::1 is a loopback address/);
  });

  describe('allowed networks', () => {
    it('open the ranges they name, and only those', () => {
      const allowed = ['127.0.0.0/8', '10.20.0.0/16'];
      expect(addressRefusal('127.0.0.1', allowed)).toBeNull();
      expect(addressRefusal('127.9.9.9', allowed)).toBeNull();
      expect(addressRefusal('10.20.3.4', allowed)).toBeNull();
      expect(addressRefusal('10.21.3.4', allowed)).toMatch(/private address/);
      expect(addressRefusal('::1', allowed)).toMatch(/loopback address/);
    });

    it('open IPv4-mapped forms of an allowed IPv4 range', () => {
      expect(addressRefusal('::ffff:127.0.0.1', ['127.0.0.0/8'])).toBeNull();
    });

    // An address standing for an IPv4 address is that address, for the allowed networks too:
    // every spelling of 10.0.0.1 passes where 10.0.0.1 passes, and no other.
    it.each(['10.0.0.1', '::ffff:10.0.0.1', '::ffff:a00:1', '::a00:1', '::10.0.0.1', '::ffff:0:a00:1', '64:ff9b::a00:1', '2002:a00:1::1'])(
      'open %s with the IPv4 network holding it, and refuse it without',
      (address) => {
        expect(addressRefusal(address, ['10.0.0.0/8'])).toBeNull();
        expect(addressRefusal(address, ['10.0.0.0/8', '::ffff:10.0.0.0/104'])).toBeNull();
        expect(addressRefusal(address, ['::ffff:10.0.0.0/104'])).toBeNull();
        expect(addressRefusal(address, ['10.9.0.0/16'])).toMatch(/10\.0\.0\.1.* is a private address; refused/);
      },
    );

    it('never open an embedded IPv4 address through an IPv6 network around its spelling', () => {
      for (const allowed of [['::/0'], ['::/96'], ['2002::/16'], ['64:ff9b::/96']]) {
        expect(addressRefusal('::ffff:a00:1', allowed)).toMatch(/private address; refused/);
        expect(addressRefusal('::a00:1', allowed)).toMatch(/private address; refused/);
        expect(addressRefusal('2002:a00:1::1', allowed)).toMatch(/private address; refused/);
        expect(addressRefusal('64:ff9b::a00:1', allowed)).toMatch(/private address; refused/);
      }
      // ...while what is not an embedding opens as the IPv6 address it is.
      expect(addressRefusal('64:ff9b:1::a00:1', ['64:ff9b:1::/48'])).toBeNull();
      expect(addressRefusal('2001::1', ['2001::/32'])).toBeNull();
      expect(addressRefusal('4000::1', ['::/0'])).toBeNull();
    });

    it('open the reserved ranges an operator names', () => {
      expect(addressRefusal('198.18.0.1', ['198.18.0.0/15'])).toBeNull();
      expect(addressRefusal('240.0.0.1', ['240.0.0.0/4'])).toBeNull();
      expect(addressRefusal('::ffff:c612:1', ['198.18.0.0/15'])).toBeNull();
    });

    it('open IPv6 ranges', () => {
      expect(addressRefusal('::1', ['::1/128'])).toBeNull();
      expect(addressRefusal('fd12::5', ['fd12::/16'])).toBeNull();
      expect(addressRefusal('fd13::5', ['fd12::/16'])).toMatch(/unique-local/);
    });

    it('never open cloud metadata addresses', () => {
      expect(addressRefusal('169.254.169.254', ['169.254.0.0/16'])).toMatch(/cloud metadata address/);
      expect(addressRefusal('100.100.100.200', ['100.64.0.0/10'])).toMatch(/cloud metadata address/);
      expect(addressRefusal('fd00:ec2::254', ['fd00::/8'])).toMatch(/cloud metadata address/);
      expect(addressRefusal('169.254.1.1', ['169.254.0.0/16'])).toBeNull();
    });

    it('are checked when the policy is built', () => {
      expect(() => new AddressPolicy(['nonsense'])).toThrow('"nonsense" is not a network');
    });
  });
});

describe('urlAddressRefusal', () => {
  it('judges a URL whose host is an IP address, however it is written', () => {
    expect(urlAddressRefusal('http://169.254.169.254/latest/meta-data', [])).toBe('169.254.169.254 is a cloud metadata address; refused');
    expect(urlAddressRefusal('http://0xa9fea9fe/', [])).toBe('169.254.169.254 is a cloud metadata address; refused');
    expect(urlAddressRefusal('http://[::ffff:169.254.169.254]:8080/x', [])).toMatch(/cloud metadata address; refused$/);
    expect(urlAddressRefusal('https://10.1.2.3/hook', [])).toMatch(/^10\.1\.2\.3 is a private address; refused/);
    expect(urlAddressRefusal('http://127.0.0.1:3000/hook', ['127.0.0.0/8'])).toBeNull();
    expect(urlAddressRefusal('https://93.184.216.34/hook', [])).toBeNull();
  });

  it('leaves a host name to the connection (it is judged on the address it resolves to), and ignores what is not a URL', () => {
    expect(urlAddressRefusal('http://localhost:3000/hook', [])).toBeNull();
    expect(urlAddressRefusal('https://hooks.example.com/x', [])).toBeNull();
    expect(urlAddressRefusal('not a url', [])).toBeNull();
  });
});

describe('AddressPolicy.allows (inside the operator\'s networks, not merely global)', () => {
  const policy = new AddressPolicy(['127.0.0.0/8', '10.20.0.0/16', 'fd12::/16']);
  it.each([
    ['127.0.0.1', true], ['::ffff:127.0.0.1', true], ['::7f00:1', true], ['10.20.1.1', true], ['fd12::5', true],
    ['8.8.8.8', false], ['::ffff:8.8.8.8', false], ['2606:4700::1', false], ['10.21.0.1', false], ['::1', false], ['localhost', false],
  ])('%s: %s', (address, inside) => {
    expect(policy.allows(address)).toBe(inside);
  });

  it('never holds a cloud metadata address', () => {
    expect(new AddressPolicy(['169.254.0.0/16']).allows('169.254.169.254')).toBe(false);
  });
});

describe('urlHttpsRefusal', () => {
  const allowed = ['127.0.0.0/8', '10.0.0.0/8'];
  it.each([
    'https://8.8.8.8/cb', 'https://[2606:4700::1]/cb', 'https://addon.example.com/cb', 'http://127.0.0.1:3000/cb',
    'http://[::ffff:127.0.0.1]/cb', 'http://10.1.2.3/cb', 'http://addon.example.com/cb', 'not a url',
  ])('lets %s through (https, an allowed address, or a name judged at connect time)', (url) => {
    expect(urlHttpsRefusal(url, allowed)).toBeNull();
  });

  it.each([
    ['http://8.8.8.8/cb?secret=s3cret', '8.8.8.8'],
    ['http://[2606:4700::1]:8080/cb', '2606:4700::1'],
    ['http://0x08080808/cb', '8.8.8.8'],
    ['http://192.168.1.1/cb', '192.168.1.1'],
  ])('refuses plain http to %s, naming the rule and the address only', (url, address) => {
    const refusal = urlHttpsRefusal(url, allowed);
    expect(refusal).toBe(`must be https: plain http is only for addresses in WEBHOOK_ALLOWED_NETWORKS, and ${address} is not in them`);
    expect(refusal).not.toMatch(/s3cret|\/cb/);
  });
});

describe('parseAllowedNetworks', () => {
  it('is empty for an empty or blank setting', () => {
    expect(parseAllowedNetworks('')).toEqual([]);
    expect(parseAllowedNetworks('  ,  ')).toEqual([]);
    expect(parseAllowedNetworks(undefined)).toEqual([]);
  });

  it('reads comma-separated CIDRs, IPv4 and IPv6, trimming spaces', () => {
    expect(parseAllowedNetworks('127.0.0.0/8, 10.0.0.0/8 ,::1/128,fd00::/8')).toEqual([
      '127.0.0.0/8',
      '10.0.0.0/8',
      '::1/128',
      'fd00::/8',
    ]);
  });

  it('takes a bare address as that one address', () => {
    expect(parseAllowedNetworks('192.168.5.7,::1')).toEqual(['192.168.5.7/32', '::1/128']);
  });

  it.each([
    ['localhost', 'localhost'],
    ['127.0.0.0/33', '127.0.0.0/33'],
    ['::1/129', '::1/129'],
    ['10.0.0.0/', '10.0.0.0/'],
    ['10.0.0.0/8/8', '10.0.0.0/8/8'],
    ['10.0.0/8', '10.0.0/8'],
    ['127.0.0.0/8, 300.1.1.1/32', '300.1.1.1/32'],
    ['10.0.0.0/x', '10.0.0.0/x'],
  ])('rejects %j naming the bad entry', (text, bad) => {
    expect(() => parseAllowedNetworks(text)).toThrow(`"${bad}" is not a network in CIDR notation`);
  });

  it('produces what addressRefusal accepts', () => {
    const allowed = parseAllowedNetworks('127.0.0.0/8');
    expect(addressRefusal('127.0.0.1', allowed)).toBeNull();
  });
});
