import { isIP } from 'node:net';
import * as ipaddr from 'ipaddr.js';

/**
 * Which addresses the outbound client may connect to. A webhook URL, an add-on descriptor URL
 * and an install callback are all chosen by users, so without this the service would fetch
 * whatever they point it at inside our network (SSRF). Range checks are ipaddr.js's.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Network = [Address, number];

/**
 * Only global unicast passes: an address ipaddr.js places in no special-purpose range (its
 * range() is 'unicast'), and for IPv6 also inside 2000::/3, the only block IANA hands out as
 * global unicast (ipaddr.js calls 4000::1 or the IPv4-compatible ::a00:1 'unicast' too).
 * Everything else is refused; these are the words of the refusal.
 */
const RANGE_WORDING: Readonly<Record<string, string>> = {
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
  reserved: 'a reserved address',
  discard: 'a discard-only address',
  teredo: 'a Teredo address',
  benchmarking: 'a benchmarking address',
  rfc6052: 'a local-use NAT64 address',
  as112: 'an AS112 DNS sink address',
  as112v6: 'an AS112 DNS sink address',
  amt: 'an AMT relay address',
  deprecatedOrchid: 'an ORCHID identifier',
  orchid2: 'an ORCHID identifier',
  droneRemoteIdProtocolEntityTags: 'a drone identifier',
  segmentRouting: 'a segment-routing identifier',
};

/** Finer words for what ipaddr.js lumps together as 'reserved' (the refusal is the same). */
const RESERVED_WORDING: ReadonlyArray<[Network, string]> = ([
  ['192.0.0.0/24', 'an IETF protocol assignment address'],
  ['192.0.2.0/24', 'a documentation address'],
  ['198.51.100.0/24', 'a documentation address'],
  ['203.0.113.0/24', 'a documentation address'],
  ['198.18.0.0/15', 'a benchmarking address'],
  ['192.88.99.0/24', 'a 6to4 relay anycast address'],
  ['240.0.0.0/4', 'a reserved (future use) address'],
  ['2001:db8::/32', 'a documentation address'],
  ['3fff::/20', 'a documentation address'],
  ['2001::/23', 'an IETF protocol assignment address'],
] as const).map(([cidr, words]) => [ipaddr.parseCIDR(cidr), words]);

const GLOBAL_UNICAST_V6: Network = ipaddr.parseCIDR('2000::/3');

/**
 * Instance metadata services (AWS/GCP/Azure/OpenStack, AWS over IPv6, Alibaba): they hand out
 * credentials, so they stay refused even when WEBHOOK_ALLOWED_NETWORKS opens a range holding them.
 */
const METADATA_ADDRESSES: readonly Address[] = ['169.254.169.254', 'fd00:ec2::254', '100.100.100.200'].map((a) =>
  ipaddr.parse(a),
);

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
 * Why `address` may not be connected to, or null when it may: only global unicast addresses
 * pass, unless `allowed` (CIDRs) holds them; cloud metadata addresses never pass. An address
 * that stands for an IPv4 address (IPv4-mapped, IPv4-compatible, IPv4-translated, NAT64
 * 64:ff9b::/96, 6to4) is judged as that IPv4 address, allowed networks included.
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
  const host = ipHostOf(url);
  return host === null ? null : addressRefusal(host, allowed);
}

/**
 * Why a URL may not be used without TLS, or null: plain http is for addresses inside the
 * allowed networks only (an operator's own network); elsewhere, https. A host name is judged
 * at connect time, on the addresses it resolves to (GuardedHttpClient's plainHttpOnlyWithinAllowedNetworks).
 */
export function urlHttpsRefusal(url: string, allowed: readonly string[]): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:') return null;
  const host = ipHostOf(url);
  if (host === null || new AddressPolicy(allowed).allows(host)) return null;
  return httpsRequiredText(host);
}

/** The words of a plain-http refusal (`hostname`: the name that resolved to `address`). */
export const httpsRequiredText = (address: string, hostname?: string): string =>
  `must be https: plain http is only for addresses in WEBHOOK_ALLOWED_NETWORKS, and ${hostname ? `${hostname} (${address})` : address} is not in them`;

/** The IP address a URL's host is, or null for a host name or what is not a URL. */
function ipHostOf(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return null;
  }
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return isIP(bare) === 0 ? null : bare;
}

/** addressRefusal with the allowed networks parsed once (the client checks on every connect). */
export class AddressPolicy {
  private readonly allowed: Network[];

  constructor(allowed: readonly string[] = []) {
    this.allowed = allowed.map((entry) => {
      const network = parseNetwork(entry.trim());
      if (!network) throw new Error(`"${entry}" is not a network in CIDR notation (like 127.0.0.0/8 or ::1/128)`);
      return asJudgedNetwork(network);
    });
  }

  refusal(address: string): string | null {
    const shown = address.length > 64 ? `${address.slice(0, 64)}...` : address;
    const parsed = parseAddress(address);
    if (!parsed) return `${shown} is not an IP address; refused`;
    const bare = unbracketed(address);
    const judged = judgedAs(parsed);

    if (isMetadata(judged)) return `${bare} is a cloud metadata address; refused`;
    if (this.isAllowed(judged)) return null;
    const why = whyNotGlobal(judged);
    if (why === null) return null;
    const via = judged === parsed ? '' : ` (stands for ${judged.toString()})`;
    return `${bare}${via} is ${why}; refused ${ALLOW_HINT}`;
  }

  /**
   * Whether `address` is inside the operator's allowed networks (as refusal judges it: an
   * embedded IPv4 address by itself). A global address outside them is not; metadata never is.
   */
  allows(address: string): boolean {
    const parsed = parseAddress(address);
    if (!parsed) return false;
    const judged = judgedAs(parsed);
    return !isMetadata(judged) && this.isAllowed(judged);
  }

  private isAllowed(address: Address): boolean {
    return this.allowed.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));
  }
}

const unbracketed = (address: string): string =>
  (address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address);

/**
 * The address a text names, as the kernel would connect to it, or null. net.isIP is strict
 * (dotted-quad IPv4, valid IPv6; ipaddr.js alone also takes "0x7f.1"). An IPv6 text goes
 * through the URL parser first: ipaddr.js reads `::a.b.c.d` as ::ffff:a.b.c.d, and the
 * connection would go to ::a.b.c.d. A zone (`fe80::1%eth0`) is dropped: the address is judged.
 */
function parseAddress(address: string): Address | null {
  const bare = unbracketed(address);
  const family = isIP(bare);
  if (family === 4) return ipaddr.parse(bare);
  if (family !== 6) return null;
  try {
    const serialized = new URL(`http://[${bare.replace(/%.*$/, '')}]/`).hostname;
    return ipaddr.parse(serialized.slice(1, -1));
  } catch {
    return null;
  }
}

function isMetadata(address: Address): boolean {
  return METADATA_ADDRESSES.some((meta) => sameAddress(address, meta));
}

/** Why an address is not global unicast (worded), or null when it is. */
function whyNotGlobal(address: Address): string | null {
  const range = address.range();
  if (range === 'unicast') {
    if (address.kind() === 'ipv4' || address.match(GLOBAL_UNICAST_V6)) return null;
    return 'outside global unicast (2000::/3)';
  }
  if (range === 'reserved') {
    const finer = RESERVED_WORDING.find(([[network, bits]]) => network.kind() === address.kind() && address.match(network, bits));
    if (finer) return finer[1];
  }
  return RANGE_WORDING[range] ?? `not a global unicast address (${range})`;
}

const V4_IN_LAST_32_BITS = new Set(['ipv4Mapped', 'rfc6145']);
const WELL_KNOWN_NAT64: Network = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * The address a connection to `address` really reaches: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-translated (::ffff:0:a.b.c.d) and IPv4-compatible (::a.b.c.d) addresses are the
 * embedded IPv4 address, and so are the well-known NAT64 prefix 64:ff9b::/96 and 6to4, which
 * route to it through a gateway. RFC 8215's local-use NAT64 prefix (64:ff9b:1::/48) is not
 * judged so: where the IPv4 address sits in it is the network's choice; it is refused whole.
 * Teredo (2001::/32) is refused whole too.
 */
function judgedAs(address: Address): Address {
  if (address.kind() === 'ipv4') return address;
  const v6 = address as ipaddr.IPv6;
  const bytes = v6.toByteArray();
  const range = v6.range();
  if (V4_IN_LAST_32_BITS.has(range) || v6.match(WELL_KNOWN_NAT64)) return ipaddr.fromByteArray(bytes.slice(12, 16));
  if (range === '6to4') return ipaddr.fromByteArray(bytes.slice(2, 6));
  // IPv4-compatible: the first 96 bits zero, except :: and ::1 (their own ranges).
  if (range === 'unicast' && bytes.slice(0, 12).every((b) => b === 0)) return ipaddr.fromByteArray(bytes.slice(12, 16));
  return address;
}

/**
 * An allowed network as refusal matches it: an IPv6 network of IPv4-mapped addresses
 * (::ffff:10.0.0.0/104) is the IPv4 network it stands for, since the addresses in it are
 * judged as IPv4 addresses. Any other IPv6 network opens no embedded IPv4 address.
 */
function asJudgedNetwork([address, bits]: Network): Network {
  if (address.kind() === 'ipv6' && bits >= 96 && (address as ipaddr.IPv6).range() === 'ipv4Mapped') {
    return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [address, bits];
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
  const address = parseAddress(addressPart);
  if (!address) return null;
  if (bitsPart === undefined) return [address, max];
  if (!/^\d{1,3}$/.test(bitsPart)) return null;
  const bits = Number(bitsPart);
  if (bits > max) return null;
  return [address, bits];
}
