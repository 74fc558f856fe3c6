/**
 * API rate limiting per credential: fixed windows aligned to the epoch.
 *
 * Three limits per API key or session, each counted again per account (below):
 * - every request under /api: 1,000 per 15 minutes (the reference service's published figure);
 * - job creation (the routes that say `rateLimit: "job creation"`: POST /api/v1/jobs, a template render): 60 per
 *   minute. The reference publishes 10; an automation that fans a spreadsheet out into renders needs more, and
 *   creation is already bounded by the plan's concurrent-job limit and the token balance, so this limit only stops
 *   runaway loops;
 * - opening a job's event stream (`rateLimit: "event stream"`): 20 per minute (see JOB_EVENTS_LIMIT).
 *
 * Which limits a route counts against is said by the route itself, in its describe() (`rateLimit`,
 * src/lib/openapi-route.ts): the credential's gate counts a request against the limits of the route that answers it
 * (src/lib/declared-routes.ts), and an MCP tools/call against those of its tool's route.
 *
 * An account may hold 50 keys and any number of sessions, so each limit is also counted per account, across all
 * its credentials, at twice one credential's figure: one key can use its whole allowance and the account's other
 * credentials still have as much again, but 50 keys no longer make 50 allowances.
 *
 * Where requests are counted: a credential's requests in its own Durable Object (src/auth/credential-gate.ts),
 * exactly and without a D1 write per request, which passes what it admits on to the account's object; only a
 * credential that authenticates is counted (a made-up key writes nothing anywhere). Why not the Workers rate-limit
 * binding: it only offers 10 s / 60 s periods and tells nothing about the remaining allowance, so it cannot produce
 * the X-RateLimit-* headers. Sign-in attempts (per address and IP, before any credential exists) are counted in D1
 * (table `rate_limits`, `hit` below; one atomic upsert per attempt). If a limiter fails, requests are let through
 * (logged): an outage of the limiter must not become an outage of the API.
 *
 * Headers: X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset (unix seconds when the window ends) on every
 * counted response, plus Retry-After (seconds) on a 429.
 */
import type { Context } from "hono";
import type { Ctx } from "../context.ts";
import { RateLimited } from "./errors.ts";

export interface Limit {
  name: string;
  limit: number;
  windowMs: number;
}

export const API_LIMIT: Limit = { name: "api", limit: 1000, windowMs: 15 * 60_000 };
export const JOB_CREATE_LIMIT: Limit = { name: "jobs-create", limit: 60, windowMs: 60_000 };
/**
 * Opening a job's event stream: a stream lives up to 5 minutes and reads the job's row about once a second (more
 * often in its first second), so its open counts once against the general limit but costs some 320 reads. 20 opens a minute bounds one key at about
 * 100 live streams (100 indexed reads a second) while a client following each of its renders never meets it.
 */
export const JOB_EVENTS_LIMIT: Limit = { name: "job-events", limit: 20, windowMs: 60_000 };

/** Per-credential limits: those a request counts against (limitsFor). */
const CREDENTIAL_LIMITS = [API_LIMIT, JOB_CREATE_LIMIT, JOB_EVENTS_LIMIT];

/** The account's counterpart of a credential's limit: the same window, twice the count. */
const perAccount = (limit: Limit): Limit => ({
  name: `account-${limit.name}`,
  limit: 2 * limit.limit,
  windowMs: limit.windowMs,
});

export const ACCOUNT_API_LIMIT = perAccount(API_LIMIT);
export const ACCOUNT_JOB_CREATE_LIMIT = perAccount(JOB_CREATE_LIMIT);
export const ACCOUNT_JOB_EVENTS_LIMIT = perAccount(JOB_EVENTS_LIMIT);

/** A credential's limit name -> the account's counterpart. */
export const ACCOUNT_LIMIT_OF: Record<string, Limit> = {
  [API_LIMIT.name]: ACCOUNT_API_LIMIT,
  [JOB_CREATE_LIMIT.name]: ACCOUNT_JOB_CREATE_LIMIT,
  [JOB_EVENTS_LIMIT.name]: ACCOUNT_JOB_EVENTS_LIMIT,
};

/** Every limit a gate may be asked to count, by name (a credential's and an account's). */
export const RATE_LIMITS: Record<string, Limit> = Object.fromEntries(
  [...CREDENTIAL_LIMITS, ...Object.values(ACCOUNT_LIMIT_OF)].map((l) => [l.name, l]),
);

/** Start of the fixed window containing `at` (windows are aligned to the epoch). */
export const windowStart = (at: number, windowMs: number): number => Math.floor(at / windowMs) * windowMs;

/** Counter row key of `limit` for a key hash. */
export const bucketOf = (limit: Limit, keyHash: string): string => `${limit.name}:${keyHash}`;

/**
 * What a route may say of its rate limits (`rateLimit` in its describe()), and the limits each means: every request
 * a credential makes counts against the general limit; one that creates a job, or opens a job's event stream, also
 * against that limit. A public route says nothing: it reads no credential, so nothing is counted.
 */
export const ROUTE_RATE_LIMITS = {
  general: [API_LIMIT],
  "job creation": [API_LIMIT, JOB_CREATE_LIMIT],
  "event stream": [API_LIMIT, JOB_EVENTS_LIMIT],
} as const satisfies Record<string, readonly Limit[]>;

export type RouteRateLimit = keyof typeof ROUTE_RATE_LIMITS;

/**
 * The limits a request counts against: those its route declares, the general one for a request no described route
 * answers (a 404 under /api, the MCP endpoint itself).
 */
export const limitsFor = (rateLimit: RouteRateLimit | undefined): readonly Limit[] =>
  ROUTE_RATE_LIMITS[rateLimit ?? "general"];

export interface Outcome {
  limit: Limit;
  count: number;
  resetAt: number;
}

/** Counts one request against each limit in one atomic D1 batch and returns the new counts. */
export const hit = async (
  d1: D1Database,
  keyHash: string,
  limits: Limit[],
  at: number,
): Promise<Outcome[]> => {
  const results = await d1.batch(
    limits.map((limit) =>
      d1
        .prepare(
          `INSERT INTO rate_limits (bucket, window_start, count) VALUES (?1, ?2, 1)
           ON CONFLICT (bucket, window_start) DO UPDATE SET count = count + 1 RETURNING count`,
        )
        .bind(bucketOf(limit, keyHash), windowStart(at, limit.windowMs)),
    ),
  );
  return limits.map((limit, i) => ({
    limit,
    count: (results[i]?.results[0] as { count?: number } | undefined)?.count ?? 0,
    resetAt: windowStart(at, limit.windowMs) + limit.windowMs,
  }));
};

/** Whether `outcome`'s request is over its limit. */
export const isOver = (outcome: Outcome): boolean => outcome.count > outcome.limit.limit;

/** The outcome to report: an exceeded limit if any, else the one with the least allowance left. */
export const decisive = (outcomes: Outcome[]): Outcome =>
  outcomes.reduce((chosen, next) => {
    const chosenOver = isOver(chosen);
    const nextOver = isOver(next);
    if (chosenOver !== nextOver) return chosenOver ? chosen : next;
    return next.limit.limit - next.count < chosen.limit.limit - chosen.count ? next : chosen;
  });

/** Sends the X-RateLimit headers of a counted request; throws RateLimited past a limit. */
export const enforce = (c: Context, outcomes: Outcome[], at: number): void => {
  const shown = decisive(outcomes);
  c.header("X-RateLimit-Limit", String(shown.limit.limit));
  c.header("X-RateLimit-Remaining", String(Math.max(0, shown.limit.limit - shown.count)));
  c.header("X-RateLimit-Reset", String(Math.ceil(shown.resetAt / 1000)));
  if (isOver(shown)) throw new RateLimited(Math.max(1, Math.ceil((shown.resetAt - at) / 1000)));
};

/** Logs a limiter that could not count: an outage of the limiter must not become an outage of the API. */
export const limiterUnavailable = (e: unknown): void =>
  console.error(JSON.stringify({ level: "error", msg: "rate limiter unavailable", error: String(e) }));

/** The longest window of the limits counted in `rate_limits` (the sign-in limits count per hour). */
const LONGEST_WINDOW_MS = 3600_000;

/** Cron: deletes counters of windows that ended. */
export const pruneRateLimits = async (ctx: Ctx): Promise<number> => {
  const res = await ctx.d1
    .prepare("DELETE FROM rate_limits WHERE window_start < ?1")
    .bind(ctx.now() - LONGEST_WINDOW_MS)
    .run();
  return res.meta.changes ?? 0;
};
