import { addressKey } from './client-address';

describe('addressKey', () => {
  it('counts an IPv4 address as it is, an IPv4-mapped IPv6 one as its IPv4 address', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64 network: rotating the interface part buys nothing', () => {
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:eeee:dddd:cccc')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  it('keeps what is not an address apart rather than failing', () => {
    expect(addressKey(undefined)).toBe('unknown');
    expect(addressKey('')).toBe('unknown');
  });
});
