/**
 * Addresses a server-side fetch must never reach: loopback, private, link-local (cloud metadata lives at
 * 169.254.169.254 and fd00:ec2::254), carrier-grade NAT, multicast, reserved and documentation ranges, and
 * the IPv6 forms that embed such an IPv4 address (mapped, compatible, NAT64, 6to4).
 * Inputs are hostnames as the WHATWG URL parser normalises them: IPv4 in dotted decimal (it already turned
 * `2130706433`, `0x7f.1` and `0177.0.0.1` into `127.0.0.1`), IPv6 in brackets.
 */

/** [first octets as a 32-bit number, prefix length] */
const V4_BLOCKED: Array<[string, number]> = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

const V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The 32-bit value of a dotted-decimal IPv4 address, or null. */
export const parseIpv4 = (host: string): number | null => {
  const match = V4.exec(host);
  if (!match) return null;
  const parts = match.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return null;
  return parts.reduce((n, p) => n * 256 + p, 0);
};

const inV4Block = (ip: number, [base, bits]: [string, number]): boolean => {
  const size = 2 ** (32 - bits);
  const start = parseIpv4(base)!;
  return ip >= start && ip < start + size;
};

export const isBlockedIpv4 = (ip: number): boolean => V4_BLOCKED.some((block) => inV4Block(ip, block));

/** Eight 16-bit groups of an IPv6 address (brackets optional, embedded IPv4 allowed), or null. */
export const parseIpv6 = (input: string): number[] | null => {
  let host = input.replace(/^\[|\]$/g, "").toLowerCase();
  if (host.includes("%")) return null; // zone ids never appear in URLs we accept
  const v4 = /(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(host);
  if (v4) {
    const ipv4 = parseIpv4(v4[1]!);
    if (ipv4 === null) return null;
    host = `${host.slice(0, v4.index)}${(ipv4 >>> 16).toString(16)}:${(ipv4 & 0xffff).toString(16)}`;
  }
  const halves = host.split("::");
  if (halves.length > 2) return null;
  const parse = (s: string) =>
    s === "" ? [] : s.split(":").map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? head.length !== 8 : missing < 1) return null;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.some(Number.isNaN) ? null : groups;
};

export const isBlockedIpv6 = (groups: number[]): boolean => {
  const [a = 0, b = 0] = groups;
  const zeros = (n: number) => groups.slice(0, n).every((x) => x === 0);
  const embedded = (hi: number, lo: number) => isBlockedIpv4(hi * 0x10000 + lo);
  if (zeros(8)) return true; // ::
  if (zeros(7) && groups[7] === 1) return true; // ::1
  if (zeros(5) && groups[5] === 0xffff) return embedded(groups[6]!, groups[7]!); // ::ffff:a.b.c.d (mapped)
  if (zeros(4) && groups[4] === 0xffff && groups[5] === 0) return true; // ::ffff:0:a.b.c.d (translated, RFC 2765)
  if (zeros(6)) return true; // ::a.b.c.d (deprecated IPv4-compatible)
  if (a === 0x64 && b === 0xff9b)
    return embedded(groups[6]!, groups[7]!) || groups.slice(2, 6).some((x) => x !== 0); // NAT64
  if (a === 0x2001 && b === 0) return true; // Teredo 2001::/32 tunnels to any IPv4 address
  if (a === 0x2002) return embedded(b, groups[2]!); // 6to4 carries an IPv4 address
  if ((a & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local (fd00:ec2::254 is AWS metadata)
  if ((a & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((a & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated)
  if ((a & 0xff00) === 0xff00) return true; // multicast
  if (a === 0x2001 && b === 0x0db8) return true; // documentation
  if (a === 0x100 && groups.slice(1, 4).every((x) => x === 0)) return true; // 100::/64 discard-only
  return false;
};
