/**
 * The request gate of an authenticated credential: one Durable Object per credential, named by its kind and SHA-256
 * (`key:<hash>` for an API key, `session:<hash>` for a session token). An authenticated request makes one RPC to it
 * before its handler runs, answered from the object's memory and storage; before, every such request wrote a
 * rate-limit row to D1 (in production, a write to the database's primary) in the batch that looked the key up.
 *
 * - Rate limits (the rules of src/lib/rate-limit.ts): exact fixed-window counts. The object handles one event at a
 *   time and counts without awaiting anything, so concurrent requests never lose a count. Counts live in memory and
 *   are written to the object's own SQLite storage (one record per limit and window) within COUNTS_FLUSH_MS, so an
 *   object evicted after going idle resumes its windows where they were; a crash or redeploy can lose at most the
 *   last second of counts. (Writing every count before answering cost ~20 % of the API's throughput here:
 *   `npm run bench throughput`, part 1.)
 * - An API key's row is read from D1 on first use and kept for KEY_ROW_TTL_MS. Deleting a key tells its object to
 *   forget it (src/keys/manage-keys.ts), so a deleted key is refused at once; the TTL bounds any change made
 *   elsewhere. A made-up or expired key is counted nowhere and writes nothing (its object stores nothing).
 * - `lastUsedAt` is written to D1 by the object, at most once per LAST_USED_PRECISION_MS.
 * - The account's limits (src/lib/rate-limit.ts) are counted by one more object of this class, `account:<userId>`,
 *   which a credential's object asks for every request it admits itself. So that an account's object never becomes
 *   a hot spot, a credential's object does not ask it about a request its own limits refuse, and once the account
 *   is over a limit the credential's object remembers that until the window ends and refuses on its own: per
 *   window and limit, the account's object answers at most the account's allowance plus one call per credential
 *   (2,000 + N per 15 minutes for the general limit), whatever the traffic. The price is one more RPC (object to
 *   object) on each admitted request.
 */
import { DurableObject } from "cloudflare:workers";
import * as v from "valibot";
import type { Env } from "../env.ts";
import {
  ACCOUNT_LIMIT_OF,
  isOver,
  limiterUnavailable,
  RATE_LIMITS,
  windowStart,
  type Limit,
  type Outcome,
} from "../lib/rate-limit.ts";

/** How long an object trusts the key row it read (a deleted key is forgotten at once; see above). */
export const KEY_ROW_TTL_MS = 60_000;
/** How long a count may stay in memory only: what a crash or redeploy of the object can lose. */
export const COUNTS_FLUSH_MS = 1000;
/** How stale `lastUsedAt` may get before a request writes it again: one write a minute, not one per request. */
export const LAST_USED_PRECISION_MS = 60_000;

/** The facts of a stored API key a request needs. */
export interface KeyRow {
  id: string;
  user_id: string;
  permissions: string;
  scopes: string;
  expires_at: number | null;
  last_used_at: number | null;
}

/** The stored row of the key whose SHA-256 is `hash`, or null. */
export const selectKeyRow = (d1: D1Database, hash: string): Promise<KeyRow | null> =>
  d1
    .prepare(
      "SELECT id, user_id, permissions, scopes, expires_at, last_used_at FROM api_keys WHERE key_hash = ?1",
    )
    .bind(hash)
    .first<KeyRow>();

/** `row` when it exists and has not expired at `at`; null otherwise (such a key authenticates nothing). */
export const liveKey = (row: KeyRow | null, at: number): KeyRow | null =>
  row && (row.expires_at === null || row.expires_at > at) ? row : null;

export interface Admission {
  /** The key's row, or null for a key that does not exist or has expired (then nothing was counted). */
  key: KeyRow | null;
  outcomes: Outcome[];
}

/** RPC arguments are validated like any other input: the names of the limits a request counts against. */
const LimitNames = v.array(v.picklist(Object.keys(RATE_LIMITS) as [string, ...string[]]));
const KeyHash = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/));
const UserId = v.pipe(v.string(), v.minLength(1), v.maxLength(100));

/** Storage key of a limit's count in one window. */
export const counterKey = (limit: Limit, start: number): string => `count:${limit.name}:${start}`;

interface CachedKey {
  row: KeyRow | null;
  loadedAt: number;
}

export class CredentialGate extends DurableObject<Env> {
  /** Counts not yet written to storage, by storage key (see flush). */
  private readonly counts = new Map<string, number>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private cached: CachedKey | null = null;
  private loading: Promise<KeyRow | null> | null = null;
  /** Bumped by forget(): a lookup that started before it must not be cached after it. */
  private generation = 0;
  /** The account's refusals this object has seen, by account limit name, until their windows end. */
  private readonly accountRefusals = new Map<string, Outcome>();

  /** Looks the API key up (cached) and, if it exists and has not expired, counts the request against `limits`. */
  async admitKey(keyHash: unknown, limits: unknown): Promise<Admission> {
    const hash = v.parse(KeyHash, keyHash);
    const names = v.parse(LimitNames, limits);
    const at = Date.now();
    const row = liveKey(await this.keyRow(hash), at);
    if (!row) return { key: null, outcomes: [] };
    if (row.last_used_at === null || at - row.last_used_at >= LAST_USED_PRECISION_MS) {
      row.last_used_at = at;
      this.ctx.waitUntil(
        this.env.DB.prepare("UPDATE api_keys SET last_used_at = ?1 WHERE id = ?2")
          .bind(at, row.id)
          .run()
          .catch(() => undefined),
      );
    }
    return { key: row, outcomes: await this.withAccount(row.user_id, names, this.count(names, at), at) };
  }

  /**
   * Counts a request of an already authenticated credential (a session, with its account's `userId`) against
   * `limits`, and against the account's. An account's own object is asked without `userId`.
   */
  async admit(limits: unknown, userId?: unknown): Promise<Outcome[]> {
    const names = v.parse(LimitNames, limits);
    const at = Date.now();
    const own = this.count(names, at);
    return userId === undefined ? own : this.withAccount(v.parse(UserId, userId), names, own, at);
  }

  /** Drops the cached key row (the key was deleted or changed): the next request reads D1 again. */
  async forget(): Promise<void> {
    this.generation++;
    this.cached = null;
    this.loading = null;
  }

  /**
   * Writes the counts held in memory to storage and drops them from memory (the next count reads storage again),
   * deleting the counts of windows that ended. Runs COUNTS_FLUSH_MS after the first count it has not written.
   */
  flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const kv = this.ctx.storage.kv;
    for (const [key, count] of this.counts) kv.put(key, count);
    this.counts.clear();
    const now = Date.now();
    for (const [key] of kv.list({ prefix: "count:" })) {
      const limit = RATE_LIMITS[key.split(":")[1]!];
      const start = Number(key.slice(key.lastIndexOf(":") + 1));
      if (!limit || start + limit.windowMs <= windowStart(now, limit.windowMs)) kv.delete(key);
    }
  }

  /**
   * `own` plus the account's outcomes for the same request: asked of the account's object unless this request is
   * refused already (by `own`, or by a refusal of the account's seen earlier in the same window). If the account's
   * object cannot be reached, the credential's own limits decide (logged).
   */
  private async withAccount(userId: string, names: string[], own: Outcome[], at: number): Promise<Outcome[]> {
    if (own.some(isOver)) return own;
    const accountNames = names.map((n) => ACCOUNT_LIMIT_OF[n]!.name);
    const known: Outcome[] = [];
    for (const name of accountNames) {
      const refusal = this.accountRefusals.get(name);
      if (refusal && refusal.resetAt > at) known.push(refusal);
      else if (refusal) this.accountRefusals.delete(name);
    }
    if (known.length) return [...own, ...known];
    try {
      const outcomes = await accountGate(this.env, userId).admit(accountNames);
      for (const outcome of outcomes)
        if (isOver(outcome)) this.accountRefusals.set(outcome.limit.name, outcome);
      return [...own, ...outcomes];
    } catch (e) {
      limiterUnavailable(e);
      return own;
    }
  }

  private count(names: string[], at: number): Outcome[] {
    const outcomes = names.map((name) => {
      const limit = RATE_LIMITS[name]!;
      const start = windowStart(at, limit.windowMs);
      const key = counterKey(limit, start);
      const count = (this.counts.get(key) ?? this.ctx.storage.kv.get<number>(key) ?? 0) + 1;
      this.counts.set(key, count);
      return { limit, count, resetAt: start + limit.windowMs };
    });
    this.flushTimer ??= setTimeout(() => this.flush(), COUNTS_FLUSH_MS);
    return outcomes;
  }

  private async keyRow(hash: string): Promise<KeyRow | null> {
    const now = Date.now();
    if (this.cached && now - this.cached.loadedAt < KEY_ROW_TTL_MS) return this.cached.row;
    if (!this.loading) {
      const generation = this.generation;
      const loading = selectKeyRow(this.env.DB, hash)
        .then((row) => {
          if (generation === this.generation) this.cached = { row, loadedAt: now };
          return row;
        })
        .finally(() => {
          if (this.loading === loading) this.loading = null;
        });
      this.loading = loading;
    }
    return this.loading;
  }
}

/** The gate of a credential: `kind` keeps keys' and sessions' objects apart. */
export const credentialGate = (env: Env, kind: "key" | "session", hash: string) =>
  (env.CREDENTIAL_GATES as DurableObjectNamespace<CredentialGate>).getByName(`${kind}:${hash}`);

/** The object counting an account's requests across its credentials. */
export const accountGate = (env: Env, userId: string) =>
  (env.CREDENTIAL_GATES as DurableObjectNamespace<CredentialGate>).getByName(`account:${userId}`);
