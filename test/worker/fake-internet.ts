/**
 * A stand-in internet for the fetches of the SSRF guard (there is no network here, and miniflare would reach
 * private addresses anyway): `withDns` answers the guard's DNS-over-HTTPS lookups from a table (every other name
 * resolves to one public documentation-free address) and passes every other request to `fetcher`.
 */
import { DOH_ENDPOINT } from "../../src/net/resolve.ts";

export const PUBLIC_ADDRESS = "93.184.215.14";

export const withDns =
  (fetcher: (r: Request) => Promise<Response>, records: Record<string, string[]> = {}) =>
  async (r: Request): Promise<Response> => {
    if (!r.url.startsWith(`${DOH_ENDPOINT}?`)) return fetcher(r);
    const url = new URL(r.url);
    const name = url.searchParams.get("name")!;
    const type = url.searchParams.get("type");
    const addresses = records[name] ?? [PUBLIC_ADDRESS];
    const wanted = addresses.filter((a) => (type === "AAAA") === a.includes(":"));
    return Response.json({
      Status: 0,
      Answer: wanted.map((data) => ({ type: type === "AAAA" ? 28 : 1, data })),
    });
  };
