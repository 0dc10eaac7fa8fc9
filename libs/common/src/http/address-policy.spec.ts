import { AddressPolicy, addressRefusal, parseAllowedNetworks, urlAddressRefusal } from './address-policy';

describe('addressRefusal', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.255.0.9', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['10.1.2.3', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.254', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['169.254.1.1', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['fc00::1', 'a unique-local address'],
    ['fd12:3456::1', 'a unique-local address'],
    ['224.0.0.1', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['ff02::1', 'a multicast address'],
    ['0.0.0.0', 'an unspecified address'],
    ['0.1.2.3', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['255.255.255.255', 'a broadcast address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['100.127.255.254', 'a carrier-grade NAT address'],
    ['fec0::1', 'a site-local address'],
    ['169.254.169.254', 'a cloud metadata address'],
    ['fd00:ec2::254', 'a cloud metadata address'],
    ['100.100.100.200', 'a cloud metadata address'],
  ])('refuses %s as %s', (address, wording) => {
    const refusal = addressRefusal(address, []);
    expect(refusal).toContain(`${address} is ${wording}; refused`);
  });

  it('words a refusal as the issue asks, with the way to open a range', () => {
    expect(addressRefusal('127.0.0.1', [])).toBe(
      '127.0.0.1 is a loopback address; refused (WEBHOOK_ALLOWED_NETWORKS opens ranges)',
    );
  });

  it.each([
    ['::ffff:127.0.0.1', '127.0.0.1', 'a loopback address'],
    ['::ffff:7f00:1', '127.0.0.1', 'a loopback address'],
    ['::ffff:10.0.0.1', '10.0.0.1', 'a private address'],
    ['::ffff:169.254.169.254', '169.254.169.254', 'a cloud metadata address'],
    ['::ffff:0:127.0.0.1', '127.0.0.1', 'a loopback address'], // IPv4-translated
    ['64:ff9b::a9fe:a9fe', '169.254.169.254', 'a cloud metadata address'], // NAT64
    ['2002:c0a8:0101::1', '192.168.1.1', 'a private address'], // 6to4
  ])('judges %s as the IPv4 address it stands for (%s)', (address, _v4, wording) => {
    expect(addressRefusal(address, [])).toMatch(new RegExp(`is ${wording}; refused`));
  });

  it('refuses the local-use NAT64 prefix, whose embedding the network chooses', () => {
    expect(addressRefusal('64:ff9b:1::a00:1', [])).toMatch(/local-use NAT64 address; refused/);
  });

  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '64:ff9b::808:808'])(
    'lets the public address %s through',
    (address) => {
      expect(addressRefusal(address, [])).toBeNull();
    },
  );

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
