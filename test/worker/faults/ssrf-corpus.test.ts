/**
 * An SSRF corpus: addresses drawn at random from every range the guard must refuse, written in every form a URL
 * parser accepts (dotted, integer, hex, octal, short forms; IPv6 mapped, translated, compatible, NAT64, 6to4,
 * Teredo), reached directly, through a DNS name that resolves to them (alone or next to a public address) and
 * through a public URL that redirects to them. Every one is refused before a request leaves for it; a corpus of
 * public addresses in the same forms is let through, so the guard is not simply refusing everything.
 * The ranges are written out here, independently of src/net/ip-ranges.ts, so a range dropped there fails here.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ValidationFailed } from "../../../src/lib/errors.ts";
import { safeFetch } from "../../../src/net/safe-fetch.ts";
import { PUBLIC_ADDRESS, withDns } from "../fake-internet.ts";
import { figure, scaled } from "./scale.ts";

const SEED = 20261124;

/** [first address, prefix length]: what no fetch of ours may reach. */
const PRIVATE_V4: Array<[number, number, number, number, number]> = [
  [0, 0, 0, 0, 8],
  [10, 0, 0, 0, 8],
  [100, 64, 0, 0, 10],
  [127, 0, 0, 0, 8],
  [169, 254, 0, 0, 16],
  [172, 16, 0, 0, 12],
  [192, 0, 0, 0, 24],
  [192, 168, 0, 0, 16],
  [198, 18, 0, 0, 15],
  [224, 0, 0, 0, 4],
  [240, 0, 0, 0, 4],
];

const toInt = (a: number, b: number, c: number, d: number) => ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
const octets = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255] as const;
const hex4 = (n: number) => n.toString(16);

const privateV4 = fc
  .tuple(fc.constantFrom(...PRIVATE_V4), fc.nat())
  .map(([[a, b, c, d, bits], r]) => (toInt(a, b, c, d) + (r % 2 ** (32 - bits))) >>> 0);

/** Public IPv4 addresses: random 32-bit values outside every private range (and outside documentation nets). */
const isPrivate = (n: number) =>
  PRIVATE_V4.some(([a, b, c, d, bits]) => n >>> (32 - bits) === toInt(a, b, c, d) >>> (32 - bits)) ||
  [toInt(192, 0, 2, 0), toInt(198, 51, 100, 0), toInt(203, 0, 113, 0), toInt(192, 88, 99, 0)].includes(
    (n & 0xffffff00) >>> 0,
  );
const publicV4 = fc.nat({ max: 0xffffffff }).filter((n) => !isPrivate(n));

/** Every way to write an IPv4 address as a URL host (the WHATWG parser accepts them all). */
const v4Forms = (n: number): string[] => {
  const [a, b, c, d] = octets(n);
  return [
    `${a}.${b}.${c}.${d}`,
    `${n}`,
    `0x${n.toString(16)}`,
    `0${a.toString(8)}.0${b.toString(8)}.0${c.toString(8)}.0${d.toString(8)}`,
    `0x${a.toString(16)}.0x${b.toString(16)}.0x${c.toString(16)}.0x${d.toString(16)}`,
    `${a}.${(b << 16) + (c << 8) + d}`,
    `${a}.${b}.${(c << 8) + d}`,
    `${a}.${b}.${c}.${d}.`,
  ];
};

/** Every IPv6 form that carries an IPv4 address (for a private one, each must be refused). */
const v6Forms = (n: number): string[] => {
  const [a, b, c, d] = octets(n);
  const hi = hex4(n >>> 16);
  const lo = hex4(n & 0xffff);
  const teredoClient = (~n >>> 0).toString(16).padStart(8, "0");
  return [
    `[::ffff:${a}.${b}.${c}.${d}]`,
    `[::ffff:${hi}:${lo}]`,
    `[0:0:0:0:0:ffff:${hi}:${lo}]`,
    `[::ffff:0:${hi}:${lo}]`,
    `[::${a}.${b}.${c}.${d}]`,
    `[64:ff9b::${hi}:${lo}]`,
    `[2002:${hi}:${lo}::1]`,
    `[2001:0:4136:e378:8000:63bf:${teredoClient.slice(0, 4)}:${teredoClient.slice(4)}]`,
  ];
};

/** A transport that answers DNS from `records`, redirects `/go?to=` and records every other request. */
const internet = (records: Record<string, string[]>) => {
  const reached: string[] = [];
  const fetcher = withDns(async (r) => {
    const url = new URL(r.url);
    if (url.hostname === "public.example.com" && url.pathname === "/go")
      return new Response(null, { status: 302, headers: { location: url.searchParams.get("to")! } });
    reached.push(r.url);
    return new Response(new Uint8Array([1]), { headers: { "content-type": "image/png" } });
  }, records);
  return { reached, fetcher };
};

const outcome = async (url: string, records: Record<string, string[]> = {}) => {
  const net = internet(records);
  try {
    await safeFetch(url, { maxBytes: 100, fetcher: net.fetcher });
    return { refused: false, reached: net.reached };
  } catch (e) {
    return { refused: e instanceof ValidationFailed, reached: net.reached, error: e };
  }
};

describe("SSRF corpus", () => {
  it("refuses every private address in every form, by name and by redirect; lets public ones through", async () => {
    let refused = 0;
    let leaks = 0;
    let wronglyRefused = 0;
    let label = 0;
    const runs = scaled(60, 600);
    await fc.assert(
      fc.asyncProperty(privateV4, publicV4, async (bad, good) => {
        const [a, b, c, d] = octets(bad);
        const name = `h${label++}.corpus.example.com`;
        const records = {
          [name]: [`${a}.${b}.${c}.${d}`],
          [`mixed-${name}`]: [PUBLIC_ADDRESS, `${a}.${b}.${c}.${d}`],
          [`v6-${name}`]: [`::ffff:${a}.${b}.${c}.${d}`],
        };
        const hosts = [...v4Forms(bad), ...v6Forms(bad), name, `mixed-${name}`, `v6-${name}`];
        for (const host of hosts)
          for (const url of [
            `http://${host}/x.png`,
            `https://public.example.com/go?to=${encodeURIComponent(`http://${host}:8080/x.png`)}`,
          ]) {
            const result = await outcome(url, records);
            if (result.refused && result.reached.length === 0) refused++;
            else leaks++;
            expect(result.reached, url).toEqual([]);
            expect(result.refused, `${url}: ${String(result.error)}`).toBe(true);
          }
        for (const host of v4Forms(good).slice(0, 4)) {
          const result = await outcome(`https://${host}/x.png`);
          if (result.refused) wronglyRefused++;
          expect(result.refused, `public ${host}`).toBe(false);
        }
      }),
      { seed: SEED, numRuns: runs },
    );
    figure("SSRF corpus URLs refused", refused);
    figure("SSRF corpus leaks", leaks);
    figure("SSRF public addresses wrongly refused", wronglyRefused);
  });
});
