import { isIP } from 'node:net';
import * as ipaddr from 'ipaddr.js';

/**
 * Which addresses the outbound client may connect to. A webhook URL, an add-on descriptor URL
 * and an install callback are all chosen by users, so without this the service would fetch
 * whatever they point it at inside our network (SSRF). Range checks are ipaddr.js's.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Network = [Address, number];

/** ipaddr.js range names that are refused, worded for the message. */
const REFUSED_RANGES: Readonly<Record<string, string>> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local address',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  carrierGradeNat: 'a carrier-grade NAT address',
  // fec0::/10 was IPv6's private range before unique-local replaced it; some hosts still route it.
  deprecatedSiteLocal: 'a site-local address',
};

/**
 * Instance metadata services (AWS/GCP/Azure/OpenStack, AWS over IPv6, Alibaba): they hand out
 * credentials, so they stay refused even when WEBHOOK_ALLOWED_NETWORKS opens a range holding them.
 */
const METADATA_ADDRESSES: readonly Address[] = ['169.254.169.254', 'fd00:ec2::254', '100.100.100.200'].map((a) =>
  ipaddr.parse(a),
);

/** RFC 8215's local-use NAT64 prefix: where the IPv4 address sits inside it is the network's choice. */
const LOCAL_NAT64: Network = ipaddr.parseCIDR('64:ff9b:1::/48');

const ALLOW_HINT = '(WEBHOOK_ALLOWED_NETWORKS opens ranges)';

/**
 * Parses `WEBHOOK_ALLOWED_NETWORKS` (comma-separated CIDRs; a bare address means just that
 * address). Throws an Error naming the first bad entry, for validation at start-up.
 */
export function parseAllowedNetworks(text: string | undefined | null): string[] {
  if (!text) return [];
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return entries.map((entry) => {
    const network = parseNetwork(entry);
    if (!network) {
      throw new Error(`"${entry}" is not a network in CIDR notation (like 127.0.0.0/8 or ::1/128)`);
    }
    return `${network[0].toString()}/${network[1]}`;
  });
}

/**
 * Why `address` may not be connected to, or null when it may. `allowed` holds CIDRs that open
 * refused ranges (cloud metadata addresses excepted). An IPv4-mapped IPv6 address is judged as
 * the IPv4 address it stands for.
 */
export function addressRefusal(address: string, allowed: readonly string[]): string | null {
  return new AddressPolicy(allowed).refusal(address);
}

/**
 * Why a URL can never be reached, judged without a DNS lookup: its host is an IP address
 * (however written: `0xa9fea9fe` and `[::ffff:a9fe:a9fe]` are 169.254.169.254 once parsed)
 * that addressRefusal refuses. Null for a host name (judged on each connection, on the
 * address it resolves to then) and for an allowed address. For refusing at registration
 * what every delivery would refuse.
 */
export function urlAddressRefusal(url: string, allowed: readonly string[]): string | null {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return null;
  }
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return isIP(bare) === 0 ? null : addressRefusal(bare, allowed);
}

/** addressRefusal with the allowed networks parsed once (the client checks on every connect). */
export class AddressPolicy {
  private readonly allowed: Network[];

  constructor(allowed: readonly string[] = []) {
    this.allowed = allowed.map((entry) => {
      const network = parseNetwork(entry.trim());
      if (!network) throw new Error(`"${entry}" is not a network in CIDR notation (like 127.0.0.0/8 or ::1/128)`);
      return network;
    });
  }

  refusal(address: string): string | null {
    const shown = address.length > 64 ? `${address.slice(0, 64)}...` : address;
    // net.isIP is strict (dotted-quad IPv4, valid IPv6); ipaddr.js alone also takes "0x7f.1".
    const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
    if (isIP(bare) === 0) return `${shown} is not an IP address; refused`;
    const parsed = ipaddr.parse(bare);
    const judged = judgedAs(parsed);

    for (const meta of METADATA_ADDRESSES) {
      if (sameAddress(judged, meta)) return `${bare} is a cloud metadata address; refused`;
    }
    if (this.isAllowed(parsed) || (judged !== parsed && this.isAllowed(judged))) return null;

    if (parsed.kind() === 'ipv6' && parsed.match(LOCAL_NAT64)) return `${bare} is a local-use NAT64 address; refused ${ALLOW_HINT}`;
    const range = judged.range();
    const wording = REFUSED_RANGES[range];
    if (!wording) return null;
    const via = judged === parsed ? '' : ` (stands for ${judged.toString()})`;
    return `${bare}${via} is ${wording}; refused ${ALLOW_HINT}`;
  }

  private isAllowed(address: Address): boolean {
    return this.allowed.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));
  }
}

/**
 * The address a connection to `address` really reaches: IPv4-mapped (::ffff:a.b.c.d) and
 * IPv4-translated (::ffff:0:a.b.c.d) addresses are the embedded IPv4 address, and so are the
 * well-known NAT64 prefixes and 6to4, which route to the embedded IPv4 address through a gateway.
 */
function judgedAs(address: Address): Address {
  if (address.kind() === 'ipv4') return address;
  const v6 = address as ipaddr.IPv6;
  const bytes = v6.toByteArray();
  switch (v6.range()) {
    case 'ipv4Mapped':
      return v6.toIPv4Address();
    case 'rfc6145':
    case 'rfc6052': // 64:ff9b::/96 (the local-use /48 is refused before this is asked)
      return ipaddr.fromByteArray(bytes.slice(12, 16));
    case '6to4':
      return ipaddr.fromByteArray(bytes.slice(2, 6));
    default:
      return address;
  }
}

function sameAddress(a: Address, b: Address): boolean {
  return a.kind() === b.kind() && a.toNormalizedString() === b.toNormalizedString();
}

function parseNetwork(entry: string): Network | null {
  const slash = entry.indexOf('/');
  const addressPart = slash === -1 ? entry : entry.slice(0, slash);
  const bitsPart = slash === -1 ? undefined : entry.slice(slash + 1);
  const family = isIP(addressPart);
  if (family === 0) return null;
  const max = family === 4 ? 32 : 128;
  if (bitsPart === undefined) return [ipaddr.parse(addressPart), max];
  if (!/^\d{1,3}$/.test(bitsPart)) return null;
  const bits = Number(bitsPart);
  if (bits > max) return null;
  return [ipaddr.parse(addressPart), bits];
}
