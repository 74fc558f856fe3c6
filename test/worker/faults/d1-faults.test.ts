/**
 * D1 failing at each step of the job lifecycle and of billing: the failed operation reports an error, and what is
 * stored stays whole (batches are transactions; a movement is never half done). After every failure the ledger
 * still equals the balances (the global afterEach) and no job is left in a state that holds or loses tokens.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createContext, withCaller, type CallerCtx } from "../../../src/context.ts";
import { createJob } from "../../../src/jobs/create-job.ts";
import { cancelJob } from "../../../src/jobs/cancel-job.ts";
import { finishJob, markProcessing } from "../../../src/jobs/lifecycle.ts";
import { getJobById } from "../../../src/jobs/lookup.ts";
import { renewAllowances } from "../../../src/billing/monthly-allowance.ts";
import { FULL, newAccount } from "../helpers.ts";
import { figure } from "./scale.ts";

/** The D1 binding failing at its `failAt`-th call (prepare().run/first/all, batch, exec), working otherwise. */
const failingD1 = (failAt: number) => {
  let calls = 0;
  const tick = () => {
    calls++;
    if (calls === failAt) throw new Error(`injected D1 failure at call ${failAt}`);
  };
  const wrapStatement = (stmt: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(stmt, {
      get(target, prop, receiver) {
        if (prop === "bind") return (...args: unknown[]) => wrapStatement(target.bind(...args));
        if (prop === "run" || prop === "first" || prop === "all" || prop === "raw")
          return (...args: unknown[]) => {
            tick();
            return (target[prop] as (...a: unknown[]) => unknown).apply(target, args);
          };
        return Reflect.get(target, prop, receiver);
      },
    });
  const db = new Proxy(env.DB, {
    get(target, prop, receiver) {
      if (prop === "prepare") return (sql: string) => wrapStatement(target.prepare(sql));
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) => {
          tick();
          return target.batch(statements);
        };
      return Reflect.get(target, prop, receiver);
    },
  });
  return { db, calls: () => calls };
};

const ctxWith = (db: D1Database, userId: string): CallerCtx =>
  withCaller(createContext({ ...env, DB: db }), { userId, keyId: null, permissions: FULL, scopes: [] });

const image = {
  type: "image",
  config: { width: 8, height: 8, layers: [{ type: "rectangle", fill: "#f00" }] },
};

/** No finished job holds a reserve; no open job lacks its reserve row. */
const jobsAreWhole = async (userId: string) => {
  const bad = await env.DB.prepare(
    `SELECT j.id, j.status, j.tokens_reserved FROM jobs j WHERE j.user_id = ?1 AND (
       (j.status IN ('COMPLETED','FAILED','CANCELLED') AND j.tokens_reserved != 0) OR
       (j.status IN ('PENDING','PROCESSING') AND NOT EXISTS (
          SELECT 1 FROM token_ledger l WHERE l.job_id = j.id AND l.kind = 'reserve')))`,
  )
    .bind(userId)
    .all();
  expect(bad.results).toEqual([]);
};

/** Runs `operation` with D1 failing at each call in turn until it succeeds, checking what is stored each time. */
const atEveryStep = async (userId: string, operation: (ctx: CallerCtx) => Promise<unknown>) => {
  let failures = 0;
  for (let failAt = 1; failAt < 40; failAt++) {
    const d1 = failingD1(failAt);
    try {
      await operation(ctxWith(d1.db, userId));
      if (d1.calls() < failAt) return failures; // it needed fewer calls: every step has been failed once
    } catch (e) {
      expect(String(e)).toMatch(/injected D1 failure|Failed query|Insufficient|concurrent|Only PENDING/);
      failures++;
    }
    await jobsAreWhole(userId);
  }
  throw new Error("the operation kept calling D1");
};

describe("D1 failing at each lifecycle step", () => {
  it("job creation leaves no half-created job, reserve or ledger row", async () => {
    const { userId } = await newAccount({ tokens: 1000 });
    const failures = await atEveryStep(userId, (ctx) => createJob(ctx, image));
    figure("D1 failures injected into job creation", failures);
    expect(failures).toBeGreaterThan(0);
  });

  it("settlement (complete, fail, cancel) moves a job and its tokens together or not at all", async () => {
    const { userId } = await newAccount({ tokens: 1000 });
    let failures = 0;
    const jobIds: string[] = [];
    for (const outcome of [
      { status: "COMPLETED" as const, outputFileId: "file_x", cost: 2 },
      { status: "FAILED" as const, error: "x" },
    ]) {
      const { jobId } = await createJob(ctxWith(env.DB, userId), image);
      jobIds.push(jobId);
      await markProcessing(createContext(env), jobId);
      failures += await atEveryStep(userId, async (ctx) => {
        const job = await getJobById(createContext(env), jobId);
        if (!(await finishJob(ctx, job, outcome)) && job.status === "PROCESSING")
          throw new Error("not settled");
      });
    }
    const { jobId } = await createJob(ctxWith(env.DB, userId), image);
    jobIds.push(jobId);
    failures += await atEveryStep(userId, (ctx) =>
      cancelJob(ctx, jobId).catch((e) => {
        if (/Only PENDING/.test(String(e))) return; // cancelled by an earlier step already
        throw e;
      }),
    );
    const statuses = await Promise.all(
      jobIds.map(async (id) => (await getJobById(createContext(env), id)).status),
    );
    expect(statuses).toEqual(["COMPLETED", "FAILED", "CANCELLED"]);
    expect(failures).toBeGreaterThan(0);
    figure("D1 failures injected into settlements", failures);
  });

  it("the monthly renewal renews once, whole", async () => {
    const { userId } = await newAccount({ tokens: 10 });
    await env.DB.prepare("UPDATE users SET current_period_end = 0 WHERE id = ?").bind(userId).run();
    const failures = await atEveryStep(userId, (ctx) => renewAllowances(ctx));
    const row = await env.DB.prepare("SELECT token_balance AS b FROM users WHERE id = ?")
      .bind(userId)
      .first<{ b: number }>();
    expect(row!.b).toBe(500);
    figure("D1 failures injected into renewals", failures);
  });
});
