/**
 * Name resolution for the SSRF guard. A Worker has no DNS API, so names are resolved over DNS-over-HTTPS (RFC 8484,
 * the JSON form of Cloudflare's resolver) through the same transport as the fetch itself; every A and AAAA answer
 * (after CNAMEs) must be a public address. Fails closed: a name that does not resolve is refused.
 *
 * What remains (documented in docs/security-and-limits.md): the fetch resolves the name again, so a record that changes in between
 * (DNS rebinding) is only stopped by Cloudflare's egress, which never routes a Worker's fetch into a private network.
 */
import * as v from "valibot";
import { isBlockedIpv4, isBlockedIpv6, parseIpv4, parseIpv6 } from "./ip-ranges.ts";

export const DOH_ENDPOINT = "https://cloudflare-dns.com/dns-query";

const DohAnswer = v.object({
  Status: v.number(),
  Answer: v.optional(v.array(v.object({ type: v.number(), data: v.string() })), []),
});

const A_RECORD = 1;
const AAAA_RECORD = 28;

/** Why the addresses of `host` may not be fetched, or null when every one is public. */
export const resolutionRefusal = async (
  host: string,
  send: (request: Request) => Promise<Response>,
  signal?: AbortSignal,
): Promise<string | null> => {
  const addresses: string[] = [];
  for (const type of ["A", "AAAA"] as const) {
    const url = `${DOH_ENDPOINT}?name=${encodeURIComponent(host)}&type=${type}`;
    let parsed;
    try {
      const res = await send(new Request(url, { headers: { accept: "application/dns-json" }, signal }));
      parsed = v.safeParse(DohAnswer, await res.json());
    } catch {
      return "the host name could not be resolved";
    }
    if (!parsed.success) return "the host name could not be resolved";
    for (const answer of parsed.output.Answer)
      if (answer.type === (type === "A" ? A_RECORD : AAAA_RECORD)) addresses.push(answer.data);
  }
  if (addresses.length === 0) return "the host name does not resolve to an address";
  for (const address of addresses) {
    const v4 = parseIpv4(address);
    const v6 = v4 === null ? parseIpv6(address) : null;
    const blocked = v4 !== null ? isBlockedIpv4(v4) : v6 !== null ? isBlockedIpv6(v6) : true;
    if (blocked) return `the host name resolves to a private, loopback or link-local address (${address})`;
  }
  return null;
};
