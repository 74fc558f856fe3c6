/**
 * Parallel creates against a balance for few jobs, over both buckets (monthly allowance and prepaid tokens), then
 * parallel double cancels of everything accepted: exactly as many jobs as the balance covers are accepted, the
 * balance never goes below zero, a cancel gives a reserve back once (a job a renderer already took keeps its
 * reserve and is not cancelled), and the ledger equals the balances (the
 * global afterEach checks the sums; this test checks the buckets after each round).
 */
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { purchase } from "../../../src/ledger/ledger.ts";
import { call, newAccount } from "../helpers.ts";
import { createJobCall } from "../jobs-seed.ts";
import { figure, scaled } from "./scale.ts";

const SEED = 424242;
/** 1 s of video at 10 fps: 10 + 2 * 1 = 12 tokens reserved (the renderer never calls back in tests). */
const video = {
  type: "video",
  config: {
    width: 64,
    height: 64,
    fps: 10,
    clips: [{ duration: 1, layers: [{ type: "fill-color", color: "#0f0" }] }],
  },
};
const COST = 12;

const buckets = async (userId: string) =>
  (await env.DB.prepare("SELECT token_balance AS total, prepaid_balance AS prepaid FROM users WHERE id = ?")
    .bind(userId)
    .first<{ total: number; prepaid: number }>())!;

describe("parallel creates against a small balance", () => {
  it(
    "accept exactly what the balance covers, never overdraw, and give each reserve back once",
    async () => {
      let creates = 0;
      let accepted = 0;
      let lowest = Infinity;
      let overdrafts = 0;
      const parallel = scaled(12, 40);
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 4 * COST }),
          fc.integer({ min: 0, max: 4 * COST }),
          async (monthly, prepaid) => {
            // business: 25 jobs at once, so only the balance limits what is accepted
            const { userId, key } = await newAccount({ planId: "business", tokens: monthly });
            if (prepaid > 0)
              await env.DB.batch(purchase(env.DB, { userId, amount: prepaid, note: "test", at: Date.now() }));
            const responses = await Promise.all(
              Array.from({ length: parallel }, () => createJobCall(key, video)),
            );
            const statuses = responses.map((r) => r.status);
            const ok = responses.filter((r) => r.status === 201);
            creates += parallel;
            accepted += ok.length;
            // The statuses name what refused the others if this ever fails (it did once, in a full run under load).
            expect(ok, `statuses ${JSON.stringify(statuses)}`).toHaveLength(
              Math.floor((monthly + prepaid) / COST),
            );
            expect(statuses.every((s) => s === 201 || s === 402)).toBe(true);
            const after = await buckets(userId);
            lowest = Math.min(lowest, after.total, after.prepaid);
            if (after.total < 0 || after.prepaid < 0) overdrafts++;
            expect(after.total).toBe(monthly + prepaid - ok.length * COST);
            expect(after.prepaid).toBeGreaterThanOrEqual(0);

            // every accepted job cancelled twice, all at once: the reserve comes back exactly once, except for a
            // job the queue handed to a renderer before the cancels (PROCESSING: not cancellable, keeps its reserve)
            const ids = await Promise.all(
              ok.map(async (r) => ((await r.json()) as { data: { jobId: string } }).data.jobId),
            );
            const del = (id: string) =>
              call(`/api/v1/jobs/${id}`, { method: "DELETE", headers: { "x-api-key": key } });
            const cancels = await Promise.all(ids.map((id) => Promise.all([del(id), del(id)])));
            const outcomes = await Promise.all(
              cancels.map(async (pair, i) => {
                const row = await env.DB.prepare(
                  `SELECT status, (SELECT count(*) FROM token_ledger l WHERE l.job_id = jobs.id AND l.kind = 'release') AS releases
                   FROM jobs WHERE id = ?`,
                )
                  .bind(ids[i])
                  .first<{ status: string; releases: number }>();
                return { ...row!, wins: pair.filter((r) => r.status === 200).length };
              }),
            );
            const right = (o: (typeof outcomes)[number]) =>
              o.status === "CANCELLED"
                ? o.wins === 1 && o.releases === 1
                : o.status !== "PENDING" && o.wins === 0 && o.releases <= 1;
            expect(outcomes.every(right), JSON.stringify(outcomes)).toBe(true);
            // Reserves still held: jobs a renderer took and has not finished (none finish here: no callbacks).
            const held = outcomes.filter((o) => o.releases === 0).length;
            const end = await buckets(userId);
            expect(end.total).toBe(monthly + prepaid - held * COST);
            expect(end.prepaid).toBeGreaterThanOrEqual(0);
            expect(held > 0 || end.prepaid === prepaid).toBe(true);
          },
        ),
        { seed: SEED, numRuns: scaled(4, 20) },
      );
      figure("parallel creates sent", creates);
      figure("parallel creates accepted (exactly what balances covered)", accepted);
      figure("lowest balance seen", lowest);
      figure("overdrafts", overdrafts);
    },
    scaled(30_000, 300_000),
  );
});
