/**
 * The SSRF guard: decides whether a user-supplied URL may be fetched by the service.
 *
 * A Worker cannot resolve DNS itself, so the guard works on what the URL says: only http and https, no
 * credentials, no IP literal in a private/loopback/link-local/metadata range (see ip-ranges.ts), and no
 * name that only means something inside a network (`localhost`, single-label names, `.local`, `.internal`,
 * ...). In production, Cloudflare's egress never routes a Worker's fetch to private networks, which covers
 * public names that resolve to private addresses; redirects are followed by hand and each hop is checked
 * again (safe-fetch.ts).
 */
import { ValidationFailed } from "../lib/errors";
import { isBlockedIpv4, isBlockedIpv6, parseIpv4, parseIpv6 } from "./ip-ranges";

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
