import { createScheduledController, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index.ts";
import { createApp } from "../../src/app.ts";
import { declaredRoutes } from "../../src/lib/declared-routes.ts";
import { describe, expect, it, vi } from "vitest";
import {
  accountGate,
  COUNTS_FLUSH_MS,
  counterKey,
  credentialGate,
  LAST_USED_PRECISION_MS,
} from "../../src/auth/credential-gate.ts";
import { createApiKey } from "../../src/keys/create-api-key.ts";
import { sha256Hex } from "@media-render/contract/crypto";
import {
  ACCOUNT_API_LIMIT,
  ACCOUNT_JOB_CREATE_LIMIT,
  API_LIMIT,
  decisive,
  JOB_CREATE_LIMIT,
  JOB_EVENTS_LIMIT,
  limitsFor,
  ROUTE_RATE_LIMITS,
  windowStart,
  type Limit,
} from "../../src/lib/rate-limit.ts";
import { bearer, freshEmail, latestCode, register, signUp } from "./accounts/sign-up.ts";
import { BASE, body, call, FULL, json, newAccount, testCtx, updateKey } from "./helpers.ts";

const gateOf = async (key: string) => credentialGate(env, "key", await sha256Hex(key));

/** Sets the counter of `limit` for `key` (an API key, or a gate) to `count` in the current and the next window (so a test never straddles). */
const preload = async (key: string | ReturnType<typeof credentialGate>, limit: Limit, count: number) => {
  const start = windowStart(Date.now(), limit.windowMs);
  await runInDurableObject(typeof key === "string" ? await gateOf(key) : key, (gate, state) => {
    gate.flush();
    for (const ws of [start, start + limit.windowMs]) state.storage.kv.put(counterKey(limit, ws), count);
  });
};

/** Everything a key's gate has stored (its counters), once it has written what it holds in memory. */
const stored = async (key: string) =>
  runInDurableObject(await gateOf(key), (gate, state) => {
    gate.flush();
    return [...state.storage.kv.list<number>()];
  });

const list = (key: string) => call("/api/v1/jobs", { headers: { "x-api-key": key } });

describe("rate limiting: pure rules", () => {
  it("aligns windows to the epoch", () => {
    expect(windowStart(15 * 60_000 * 7 + 1234, 15 * 60_000)).toBe(15 * 60_000 * 7);
    expect(windowStart(59_999, 60_000)).toBe(0);
  });

  it("counts job creation against both limits, everything else against the general one", () => {
    expect(limitsFor("job creation")).toEqual([API_LIMIT, JOB_CREATE_LIMIT]);
    expect(limitsFor("event stream")).toEqual([API_LIMIT, JOB_EVENTS_LIMIT]);
    expect(limitsFor("general")).toEqual([API_LIMIT]);
    // A request no described route answers (a 404, the MCP endpoint itself).
    expect(limitsFor(undefined)).toEqual([API_LIMIT]);
  });

  it("takes each route's limits from its own description: job creations and event streams, the rest general", () => {
    const declared = declaredRoutes(createApp());
    const special = declared
      .filter((r) => r.doc.rateLimit !== "general" && !r.doc.public)
      .map((r) => `${r.method} ${r.path}: ${r.doc.rateLimit}`);
    expect(special).toEqual([
      "POST /api/v1/jobs: job creation",
      "GET /api/v1/jobs/{jobId}/events: event stream",
      "POST /api/v2/templates/{id}/renders: job creation",
    ]);
    // Every route says it: public (no credential, nothing counted) or its limits.
    for (const r of declared)
      expect(r.doc.public === true || r.doc.rateLimit in ROUTE_RATE_LIMITS, `${r.method} ${r.path}`).toBe(
        true,
      );
    expect(declared.length).toBeGreaterThan(70);
  });

  it("reports the exceeded limit, else the one closest to exhaustion", () => {
    const a = { limit: API_LIMIT, count: 10, resetAt: 0 };
    const b = { limit: JOB_CREATE_LIMIT, count: 55, resetAt: 0 };
    expect(decisive([a, b])).toBe(b);
    const over = { limit: API_LIMIT, count: 1001, resetAt: 0 };
    expect(decisive([over, b])).toBe(over);
  });
});

describe("rate limiting: happy path", () => {
  it("sends X-RateLimit headers that count down", async () => {
    const { key } = await newAccount();
    const first = await list(key);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit")).toBe("1000");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("999");
    const reset = Number(first.headers.get("x-ratelimit-reset"));
    expect(reset * 1000).toBe(windowStart(Date.now(), API_LIMIT.windowMs) + API_LIMIT.windowMs);
    const second = await list(key);
    expect(second.headers.get("x-ratelimit-remaining")).toBe("998");
  });

  it("counts error responses too (the key made the request)", async () => {
    const { key } = await newAccount();
    await call("/api/v1/jobs/job_missing", { headers: { "x-api-key": key } });
    const res = await list(key);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("998");
  });
});

describe("rate limiting: errors", () => {
  it("allows the 1000th request of a window and refuses the 1001st with 429 and the spec's text", async () => {
    const { key } = await newAccount();
    await preload(key, API_LIMIT, 999);
    const last = await list(key);
    expect(last.status).toBe(200);
    expect(last.headers.get("x-ratelimit-remaining")).toBe("0");
    const refused = await list(key);
    expect(refused.status).toBe(429);
    const b = await body(refused);
    expect(b).toMatchObject({ success: false, error: "Too many requests, please try again later" });
    expect(refused.headers.get("x-ratelimit-limit")).toBe("1000");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
  });

  it("limits job creation separately: creation refused while reads still pass", async () => {
    const { key, userId } = await newAccount();
    await preload(key, JOB_CREATE_LIMIT, JOB_CREATE_LIMIT.limit);
    const res = await call(
      "/api/v1/jobs",
      json(
        "POST",
        { type: "image", config: { width: 10, height: 10, layers: [{ type: "text", text: "x" }] } },
        key,
      ),
    );
    expect(res.status).toBe(429);
    expect(res.headers.get("x-ratelimit-limit")).toBe(String(JOB_CREATE_LIMIT.limit));
    expect((await body(res)).error).toBe("Too many requests, please try again later");
    const n = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ?")
      .bind(userId)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
    expect((await list(key)).status).toBe(200);
  });
});

describe("rate limiting: event streams", () => {
  it("counts each stream opened and refuses the 21st in a minute while other reads pass", async () => {
    const { key } = await newAccount();
    const events = () => call("/api/v1/jobs/no-such-job/events", { headers: { "x-api-key": key } });
    const first = await events();
    expect(first.status).toBe(404);
    expect(first.headers.get("x-ratelimit-limit")).toBe(String(JOB_EVENTS_LIMIT.limit));
    expect(first.headers.get("x-ratelimit-remaining")).toBe(String(JOB_EVENTS_LIMIT.limit - 1));
    await preload(key, JOB_EVENTS_LIMIT, JOB_EVENTS_LIMIT.limit);
    const refused = await events();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await body(refused)).error).toBe("Too many requests, please try again later");
    expect((await list(key)).status).toBe(200);
  });
});

describe("rate limiting: security", () => {
  it("keeps each key's allowance separate", async () => {
    const a = await newAccount();
    const b = await newAccount();
    await preload(a.key, API_LIMIT, 1000);
    expect((await list(a.key)).status).toBe(429);
    const other = await list(b.key);
    expect(other.status).toBe(200);
    expect(other.headers.get("x-ratelimit-remaining")).toBe("999");
  });

  it("writes nothing for a made-up key: 401, no counter, no rate-limit headers", async () => {
    const bogus = `mk_bogus_${Math.random().toString(36).slice(2)}`;
    for (let i = 0; i < 5; i++) {
      const res = await list(bogus);
      expect(res.status).toBe(401);
      expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    }
    expect(await stored(bogus)).toEqual([]);
  });

  it("writes nothing for an expired key: 401, no counter", async () => {
    const { key, keyId } = await newAccount();
    await updateKey(keyId, "expires_at", Date.now() - 1000);
    const res = await list(key);
    expect(res.status).toBe(401);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    expect(await stored(key)).toEqual([]);
  });

  it("refuses a key that expires while its gate holds its row", async () => {
    const { key, keyId } = await newAccount();
    const t0 = Date.now();
    expect((await list(key)).status).toBe(200);
    // The gate read the row above and keeps it; the expiry it holds is checked on every request. It falls after the
    // next two requests on this machine under its load now (a request measured just above), then is waited out.
    const expiresAt = Date.now() + 300 + 10 * (Date.now() - t0);
    await updateKey(keyId, "expires_at", expiresAt);
    expect((await list(key)).status).toBe(200);
    await new Promise((r) => setTimeout(r, expiresAt - Date.now() + 100));
    const res = await list(key);
    expect(res.status).toBe(401);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    expect((await stored(key)).map(([, n]) => n)).toEqual([2]);
  });

  it("writes a key's lastUsedAt at most once a minute, not on every request", async () => {
    const { key, keyId } = await newAccount();
    const lastUsed = () =>
      env.DB.prepare("SELECT last_used_at AS at FROM api_keys WHERE id = ?")
        .bind(keyId)
        .first<{ at: number | null }>()
        .then((r) => r!.at);
    expect((await list(key)).status).toBe(200);
    const first = await vi.waitFor(async () => {
      const at = await lastUsed();
      expect(at).not.toBeNull();
      return at!;
    });
    // Within the minute: requests leave it alone, even when the gate reads the row again.
    const recent = first - 1000;
    await env.DB.prepare("UPDATE api_keys SET last_used_at = ? WHERE id = ?").bind(recent, keyId).run();
    expect((await list(key)).status).toBe(200);
    await updateKey(keyId, "last_used_at", recent);
    expect((await list(key)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(await lastUsed()).toBe(recent);
    // Older than LAST_USED_PRECISION_MS: the next request writes it.
    const stale = Date.now() - LAST_USED_PRECISION_MS - 1000;
    await updateKey(keyId, "last_used_at", stale);
    expect((await list(key)).status).toBe(200);
    await vi.waitFor(async () => expect(await lastUsed()).toBeGreaterThan(stale + LAST_USED_PRECISION_MS));
  });

  it("never counts requests without a credential", async () => {
    const res = await call("/api/v1/jobs");
    expect(res.status).toBe(401);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    expect(await stored("")).toEqual([]);
  });

  it("counts concurrent requests exactly (no lost updates)", async () => {
    const { key } = await newAccount();
    const answers = await Promise.all(Array.from({ length: 25 }, () => list(key)));
    const counts = new Map(await stored(key));
    expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(25);
    // Each request saw its own count: in each window (25 requests rarely straddle two), 999, 998, ... each once.
    const byWindow = new Map<string | null, Response[]>();
    for (const r of answers) {
      const reset = r.headers.get("x-ratelimit-reset");
      byWindow.set(reset, [...(byWindow.get(reset) ?? []), r]);
    }
    for (const group of byWindow.values())
      expect(group.map((r) => Number(r.headers.get("x-ratelimit-remaining"))).sort((a, b) => b - a)).toEqual(
        Array.from({ length: group.length }, (_, i) => 999 - i),
      );
  });

  it("writes its counts to storage within COUNTS_FLUSH_MS, so an evicted gate resumes them", async () => {
    const { key } = await newAccount();
    for (let i = 0; i < 3; i++) expect((await list(key)).status).toBe(200);
    const start = windowStart(Date.now(), API_LIMIT.windowMs);
    await new Promise((r) => setTimeout(r, COUNTS_FLUSH_MS));
    // The flush is due now; a loaded machine runs it a little later, so it is polled for rather than slept for.
    await vi.waitFor(
      async () => {
        const onDisk = await runInDurableObject(await gateOf(key), (_gate, state) => [
          ...state.storage.kv.list<number>(),
        ]);
        expect(onDisk).toEqual([[counterKey(API_LIMIT, start), 3]]);
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it("starts each window from zero and drops the counts of ended ones", async () => {
    const { key } = await newAccount();
    const start = windowStart(Date.now(), JOB_EVENTS_LIMIT.windowMs);
    const ended = counterKey(JOB_EVENTS_LIMIT, start - JOB_EVENTS_LIMIT.windowMs);
    await runInDurableObject(await gateOf(key), (gate, state) => {
      gate.flush();
      state.storage.kv.put(ended, 20);
    });
    const res = await call("/api/v1/jobs/no-such-job/events", { headers: { "x-api-key": key } });
    expect(res.status).toBe(404);
    expect(res.headers.get("x-ratelimit-remaining")).toBe(String(JOB_EVENTS_LIMIT.limit - 1));
    const keys = (await stored(key)).map(([k]) => k);
    expect(keys).not.toContain(ended);
    expect(keys.filter((k) => k.startsWith(`count:${JOB_EVENTS_LIMIT.name}:`))).toHaveLength(1);
  });

  it("counts a session's requests in the session's own gate", async () => {
    const { token } = await signUp();
    const read = () => call("/api/v1/jobs", bearer(token));
    const first = await read();
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-remaining")).toBe("999");
    expect((await read()).headers.get("x-ratelimit-remaining")).toBe("998");
    await preload(credentialGate(env, "session", await sha256Hex(`Bearer ${token}`)), API_LIMIT, 1000);
    expect((await read()).status).toBe(429);
  });
});

describe("rate limiting: per account, across its keys and sessions", () => {
  /** Another key of the account (an account may hold 50). */
  const anotherKey = async (userId: string) =>
    (await createApiKey(testCtx(), { userId, name: "another key", permissions: FULL })).key;

  /** The account's own count of `limit` in the current window (what its gate holds, flushed). */
  const accountCount = (userId: string, limit: Limit) =>
    runInDurableObject(accountGate(env, userId), (gate, state) => {
      gate.flush();
      return state.storage.kv.get<number>(counterKey(limit, windowStart(Date.now(), limit.windowMs))) ?? 0;
    });

  it("counts every key's requests against the account: a fresh key of an account at its limit gets 429", async () => {
    const { key, userId } = await newAccount();
    expect((await list(key)).status).toBe(200);
    expect(await accountCount(userId, ACCOUNT_API_LIMIT)).toBe(1);
    await preload(accountGate(env, userId), ACCOUNT_API_LIMIT, ACCOUNT_API_LIMIT.limit);
    const fresh = await anotherKey(userId);
    const refused = await list(fresh);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("x-ratelimit-limit")).toBe(String(ACCOUNT_API_LIMIT.limit));
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await body(refused)).toMatchObject({ error: "Too many requests, please try again later" });
  });

  it("counts a session and a key of one account together, and keeps accounts apart", async () => {
    const { token, userId } = await signUp();
    const { key } = await createApiKey(testCtx(), { userId, name: "k", permissions: FULL });
    expect((await call("/api/v1/jobs", bearer(token))).status).toBe(200);
    expect((await list(key)).status).toBe(200);
    expect(await accountCount(userId, ACCOUNT_API_LIMIT)).toBe(2);
    await preload(accountGate(env, userId), ACCOUNT_JOB_CREATE_LIMIT, ACCOUNT_JOB_CREATE_LIMIT.limit);
    const create = await call(
      "/api/v1/jobs",
      json("POST", { type: "image", config: { width: 10, height: 10, layers: [] } }, key),
    );
    expect(create.status).toBe(429);
    expect(create.headers.get("x-ratelimit-limit")).toBe(String(ACCOUNT_JOB_CREATE_LIMIT.limit));
    // Reads of the same account still pass; another account's creations are not touched.
    expect((await list(key)).status).toBe(200);
    const other = await newAccount();
    expect(
      (
        await call("/api/v1/jobs", json("POST", { type: "image", config: { width: 0 } }, other.key))
      ).headers.get("x-ratelimit-limit"),
    ).not.toBe(String(ACCOUNT_JOB_CREATE_LIMIT.limit));
  });

  it("counts the console's session cookie against the account like its keys and bearer sessions", async () => {
    const email = freshEmail("cookie-limit");
    expect((await register(email)).status).toBe(202);
    const signedIn = await call("/api/v1/auth/session", {
      ...json("POST", { email, token: (await latestCode(email))! }),
      headers: { "content-type": "application/json", origin: BASE },
    });
    const cookie = /(__Host-mrs_session=[^;]+)/.exec(signedIn.headers.get("set-cookie") ?? "")![1]!;
    const userId = (await body<{ user: { id: string } }>(signedIn)).data!.user.id;
    const read = () => call("/api/v1/jobs", { headers: { cookie } });
    expect((await read()).status).toBe(200);
    expect(await accountCount(userId, ACCOUNT_API_LIMIT)).toBe(1);
    await preload(accountGate(env, userId), ACCOUNT_API_LIMIT, ACCOUNT_API_LIMIT.limit);
    const refused = await read();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("x-ratelimit-limit")).toBe(String(ACCOUNT_API_LIMIT.limit));
  });

  it("shows the key's own limit while it is the closer one", async () => {
    const { key } = await newAccount();
    const res = await list(key);
    expect(res.headers.get("x-ratelimit-limit")).toBe(String(API_LIMIT.limit));
    expect(res.headers.get("x-ratelimit-remaining")).toBe(String(API_LIMIT.limit - 1));
  });

  it("spares the account's gate once the account is over: each key's gate refuses on its own until the window ends", async () => {
    const { key, userId } = await newAccount();
    await preload(accountGate(env, userId), ACCOUNT_API_LIMIT, ACCOUNT_API_LIMIT.limit);
    for (let i = 0; i < 10; i++) expect((await list(key)).status).toBe(429);
    // Only the first refusal reached the account's gate.
    expect(await accountCount(userId, ACCOUNT_API_LIMIT)).toBe(ACCOUNT_API_LIMIT.limit + 1);
  });

  it("does not charge the account for requests a key's own limit refused", async () => {
    const { key, userId } = await newAccount();
    await preload(key, API_LIMIT, API_LIMIT.limit);
    for (let i = 0; i < 5; i++) expect((await list(key)).status).toBe(429);
    expect(await accountCount(userId, ACCOUNT_API_LIMIT)).toBe(0);
  });
});

describe("rate limiting: cron", () => {
  it("prunes sign-in counters of ended windows and keeps the current ones", async () => {
    const hash = await sha256Hex(`prune-${Math.random()}`);
    const hour = 3600_000;
    const now = windowStart(Date.now(), hour);
    for (const ws of [now, now - 3 * hour])
      await env.DB.prepare("INSERT INTO rate_limits (bucket, window_start, count) VALUES (?, ?, 5)")
        .bind(`auth-ip:${hash}`, ws)
        .run();
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), env);
    const rows = await env.DB.prepare("SELECT window_start AS ws FROM rate_limits WHERE bucket = ?")
      .bind(`auth-ip:${hash}`)
      .all<{ ws: number }>();
    expect(rows.results.map((r) => r.ws)).toEqual([now]);
  });
});
