/**
 * The SSRF guard: decides whether a user-supplied URL may be fetched by the service.
 *
 * Two stages. `refusalOf` judges what the URL says: only http and https, no credentials, no IP literal in a
 * private/loopback/link-local/metadata range (see ip-ranges.ts), and no name that only means something inside a
 * network (`localhost`, single-label names, `.local`, `.internal`, ...). Then safe-fetch.ts resolves the name
 * (resolve.ts: every address it has must be public, so `127.0.0.1.nip.io` is refused too) before each request,
 * and follows redirects by hand, checking every hop again.
 */
import { ValidationFailed } from "../lib/errors.ts";
import { isBlockedIpv4, isBlockedIpv6, parseIpv4, parseIpv6 } from "./ip-ranges.ts";

/** Name suffixes that are resolved only inside private networks. */
const INTERNAL_SUFFIXES = [
  ".localhost",
  ".local",
  ".internal",
  ".intranet",
  ".corp",
  ".home",
  ".lan",
  ".localdomain",
  ".home.arpa",
  ".in-addr.arpa",
  ".ip6.arpa",
];

/** Why `url` may not be fetched, or null when it may. */
export const refusalOf = (url: URL): string | null => {
  if (url.protocol !== "http:" && url.protocol !== "https:") return "only http and https URLs are allowed";
  if (url.username || url.password) return "URLs with credentials are not allowed";
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[")) {
    const groups = parseIpv6(host);
    return !groups || isBlockedIpv6(groups) ? "the address is private, loopback or link-local" : null;
  }
  const v4 = parseIpv4(host);
  if (v4 !== null) return isBlockedIpv4(v4) ? "the address is private, loopback or link-local" : null;
  if (/^[\d.]+$/.test(host)) return "malformed IP address";
  if (host === "localhost" || INTERNAL_SUFFIXES.some((s) => host.endsWith(s)))
    return "the host name is internal";
  if (!host.includes(".")) return "the host name is not a public domain name";
  return null;
};

/** Parses `raw` and throws a 400 naming `field` when the URL is malformed or refused. */
export const checkUrl = (raw: string, field = "url"): URL => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationFailed([{ field, message: `Not a valid URL: ${raw}`, code: "INVALID_URL" }]);
  }
  const refusal = refusalOf(url);
  if (refusal)
    throw new ValidationFailed(
      [{ field, message: `URL not allowed: ${refusal}`, code: "URL_NOT_ALLOWED" }],
      "URL not allowed",
    );
  return url;
};
