/**
 * Which endpoint URLs may receive webhooks, judged at creation, on every update and again before every attempt
 * (a name can start resolving to a private address at any time). Production: https only, and the SSRF guard of
 * src/net (no private, loopback, link-local or metadata address, every resolved address public). Development
 * (ENVIRONMENT=development, and only then) also allows http and https on loopback (127.0.0.0/8, [::1],
 * localhost), so a developer can receive events on their own machine.
 */
import type { Env } from "../env.ts";
import { isDevelopment } from "../env.ts";
import { parseIpv4 } from "../net/ip-ranges.ts";
import { resolutionRefusal } from "../net/resolve.ts";
import { refusalOf } from "../net/url-guard.ts";

export type Send = (request: Request) => Promise<Response>;

const isLoopback = (url: URL): boolean => {
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host === "[::1]") return true;
  const v4 = parseIpv4(host);
  return v4 !== null && v4 >>> 24 === 127;
};

/** Why `raw` may not receive webhooks, or null when it may. */
export const endpointUrlRefusal = async (
  env: Pick<Env, "ENVIRONMENT">,
  raw: string,
  send: Send = (r) => fetch(r),
): Promise<string | null> => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a valid URL";
  }
  if (url.username || url.password) return "URLs with credentials are not allowed";
  if (isDevelopment(env) && isLoopback(url))
    return url.protocol === "http:" || url.protocol === "https:"
      ? null
      : "only http and https URLs are allowed";
  if (url.protocol !== "https:") return "the URL must use https";
  const refusal = refusalOf(url);
  if (refusal) return refusal;
  const host = url.hostname.replace(/\.$/, "");
  if (host.startsWith("[") || parseIpv4(host) !== null) return null;
  return resolutionRefusal(host, send);
};
