import ipaddr from 'ipaddr.js';

/**
 * The key a client address is counted under: an IPv4 address as it is (an IPv4-mapped IPv6
 * one as its IPv4 address), an IPv6 address by its /64 network, since one subscriber is
 * usually given a whole /64 and could otherwise take a fresh address for every request.
 * Anything else (no address: a closed socket) is counted as it is written.
 */
export function addressKey(address: string | undefined): string {
  const text = address ?? '';
  if (!ipaddr.isValid(text)) return text || 'unknown';
  const parsed = ipaddr.process(text);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}
