/**
 * One delivery attempt over HTTP: the URL is judged again by the endpoint policy (names can start resolving to
 * private addresses at any time), the POST never follows a redirect, has ATTEMPT_TIMEOUT_MS for everything, and
 * only a 2xx answer counts. The receiver's first bytes are kept for the attempt log.
 */
import type { Env } from "../env.ts";
import { ATTEMPT_TIMEOUT_MS, MAX_RESPONSE_BODY_BYTES } from "./limits.ts";
import { parseRetryAfter } from "./schedule.ts";
import { endpointUrlRefusal, type Send } from "./url-policy.ts";

export interface AttemptOutcome {
  ok: boolean;
  /** The receiver's status, or null when no answer came (refused URL, network error, timeout). */
  status: number | null;
  error: string | null;
  durationMs: number;
  responseBody: string | null;
  /** Milliseconds the receiver asked us to wait (Retry-After), or null. */
  retryAfterMs: number | null;
}

const readHead = async (res: Response, max: number): Promise<string> => {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= max) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) all.set(chunk, (at += chunk.byteLength) - chunk.byteLength);
  return new TextDecoder().decode(all.subarray(0, max));
};

/** POSTs `body` with `headers` to `url` once and says how it went; never throws. */
export const attemptDelivery = async (
  env: Pick<Env, "ENVIRONMENT">,
  req: { url: string; headers: Record<string, string>; body: string },
  opts: { timeoutMs?: number; send?: Send; now?: () => number } = {},
): Promise<AttemptOutcome> => {
  const now = opts.now ?? Date.now;
  const send = opts.send ?? ((r: Request) => fetch(r));
  const started = now();
  const failed = (error: string, status: number | null = null, responseBody: string | null = null) => ({
    ok: false,
    status,
    error,
    durationMs: now() - started,
    responseBody,
    retryAfterMs: null,
  });
  const refusal = await endpointUrlRefusal(env, req.url, send).catch(() => "the URL could not be checked");
  if (refusal) return failed(`URL not allowed: ${refusal}`);
  const controller = new AbortController();
  const timeoutMs = opts.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await send(
      new Request(req.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "media-render-webhooks/1",
          ...req.headers,
        },
        body: req.body,
        redirect: "manual",
        signal: controller.signal,
      }),
    );
    const responseBody = await readHead(res, MAX_RESPONSE_BODY_BYTES);
    const durationMs = now() - started;
    if (res.status >= 200 && res.status < 300)
      return { ok: true, status: res.status, error: null, durationMs, responseBody, retryAfterMs: null };
    const error =
      res.status >= 300 && res.status < 400
        ? `redirects are not followed (status ${res.status})`
        : `the receiver answered status ${res.status}`;
    return {
      ok: false,
      status: res.status,
      error,
      durationMs,
      responseBody,
      retryAfterMs: parseRetryAfter(res.headers.get("retry-after"), now()),
    };
  } catch (e) {
    return failed(
      controller.signal.aborted
        ? `no answer within ${timeoutMs / 1000} s`
        : `the request failed: ${(e as Error)?.message ?? String(e)}`,
    );
  } finally {
    clearTimeout(timer);
  }
};
