import { isIP } from 'node:net';

/**
 * Which IP addresses a webhook may reach. Anything that is not ordinary public unicast is
 * refused: a webhook URL is user input, and without this a customer could make the service
 * call its own loopback, the cloud metadata endpoint or the private network it runs in.
 * IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by
 * the embedded address, so `::ffff:127.0.0.1` is loopback.
 */
export type AddressCategory =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'metadata'
  | 'multicast'
  | 'broadcast'
  | 'unique-local'
  | 'reserved'
  | 'invalid';

interface Range {
  base: bigint;
  bits: number;
  category: Exclude<AddressCategory, 'public'>;
}

function v4ToBigInt(address: string): bigint | null {
  const parts = address.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

/** Parses any textual IPv6 form (compressed, with an embedded dotted quad, with a zone id). */
function v6ToBigInt(input: string): bigint | null {
  let address = input.split('%')[0]!;
  const lastColon = address.lastIndexOf(':');
  if (address.includes('.', lastColon)) {
    const v4 = v4ToBigInt(address.slice(lastColon + 1));
    if (v4 === null) return null;
    address = `${address.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    value = (value << 16n) | BigInt(Number.parseInt(group, 16));
  }
  return value;
}

const v4 = (cidr: string, category: Range['category']): Range => {
  const [base, bits] = cidr.split('/');
  return { base: v4ToBigInt(base!)!, bits: Number(bits), category };
};
const v6 = (cidr: string, category: Range['category']): Range => {
  const [base, bits] = cidr.split('/');
  return { base: v6ToBigInt(base!)!, bits: Number(bits), category };
};

/** Most specific first: the first match decides. */
const V4_RANGES: Range[] = [
  v4('169.254.169.254/32', 'metadata'), // AWS, GCP, Azure, OpenStack instance metadata
  v4('168.63.129.16/32', 'metadata'), // Azure wire server
  v4('100.100.100.200/32', 'metadata'), // Alibaba Cloud
  v4('255.255.255.255/32', 'broadcast'),
  v4('0.0.0.0/8', 'unspecified'), // "this network"; 0.0.0.0 reaches localhost on Linux
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'cgnat'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  v4('192.0.2.0/24', 'reserved'), // documentation
  v4('192.88.99.0/24', 'reserved'), // 6to4 relay anycast
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'), // benchmarking
  v4('198.51.100.0/24', 'reserved'), // documentation
  v4('203.0.113.0/24', 'reserved'), // documentation
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'),
];

const V6_RANGES: Range[] = [
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('fd00:ec2::254/128', 'metadata'), // AWS instance metadata over IPv6
  v6('::/8', 'reserved'), // after the embedded-IPv4 forms are unwrapped below
  v6('64:ff9b:1::/48', 'reserved'), // local-use NAT64
  v6('100::/64', 'reserved'), // discard-only
  v6('2001::/23', 'reserved'), // IETF protocol assignments, incl. Teredo tunnels
  v6('2001:db8::/32', 'reserved'), // documentation
  v6('3fff::/20', 'reserved'), // documentation
  v6('5f00::/16', 'reserved'), // segment routing
  v6('fc00::/7', 'unique-local'),
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'link-local'), // deprecated site-local
  v6('ff00::/8', 'multicast'),
];

function match(value: bigint, width: number, ranges: Range[]): AddressCategory {
  for (const range of ranges) {
    const shift = BigInt(width - range.bits);
    if (value >> shift === range.base >> shift) return range.category;
  }
  return 'public';
}

function classifyV4(value: bigint): AddressCategory {
  return match(value, 32, V4_RANGES);
}

function classifyV6(value: bigint): AddressCategory {
  const top96 = value >> 32n;
  const low32 = value & 0xffffffffn;
  // ::ffff:a.b.c.d (mapped) and 64:ff9b::a.b.c.d (NAT64) reach the embedded IPv4 address.
  if (top96 === 0xffffn || top96 === 0x64ff9b0000000000000000n) return classifyV4(low32);
  // ::a.b.c.d (deprecated IPv4-compatible) is never a legitimate target: name what it hides.
  if (top96 === 0n && low32 > 1n) {
    const embedded = classifyV4(low32);
    return embedded === 'public' ? 'reserved' : embedded;
  }
  // 2002:AABB:CCDD::/48 (6to4) carries the IPv4 address AA.BB.CC.DD.
  if (value >> 112n === 0x2002n) return classifyV4((value >> 80n) & 0xffffffffn);
  return match(value, 128, V6_RANGES);
}

/** Classifies a literal IP address (IPv6 may carry brackets or a zone id). */
export function classifyAddress(address: string): AddressCategory {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare.split('%')[0]!);
  if (family === 4) return classifyV4(v4ToBigInt(bare)!);
  if (family === 6) {
    const value = v6ToBigInt(bare);
    return value === null ? 'invalid' : classifyV6(value);
  }
  return 'invalid';
}

export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === 'public';
}
