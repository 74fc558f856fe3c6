/**
 * Webhooks benchmark (`node bench/webhooks.ts` on Node 24, or `npm run bench webhooks`), against a local service
 * (`scripts/start.mjs`: wrangler dev with real local D1 and Durable Objects, throw-away state) and the loopback
 * receiver of the tests (test/webhook-receiver.ts) in this process:
 *   1. throughput of one endpoint object: N test events queued through POST /api/v2/webhooks/{id}/test (8 at a
 *      time); the receiver answers each first attempt 503 with a Retry-After naming one instant, so all N fall due
 *      together and the object drains a backlog of N (timed from the first to the last arrival of the second
 *      attempts); against (a) the same N bodies POSTed straight from this process to the receiver, one at a time
 *      (the bare HTTP cost of one sequential sender, which is what an endpoint object is);
 *   2. added latency from job completion to the first delivery attempt: image jobs rendered for real, each
 *      `render.completed` timed from the job's completedAt (stamped in the transition's D1 batch) to its arrival
 *      at the receiver; against (b) one bare POST to the receiver, and (c) the job's own render time.
 * Every delivery is verified with the `standardwebhooks` package. Prints rounds, medians and ratios.
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Webhook } from "standardwebhooks";
import { startLocalService } from "../scripts/lib/processes.mjs";
import { startReceiver, type Received } from "../test/webhook-receiver.ts";

const root = join(import.meta.dirname, "..");
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const JOBS = Number(process.env.BENCH_JOBS ?? 15);
/** Time allowed per event to queue the backlog (a loaded 2-core machine queues ~15-35 events/s). */
const QUEUE_MS_PER_EVENT = Number(process.env.BENCH_QUEUE_MS ?? 100);
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
const spread = (xs: number[], digits = 1) =>
  `median ${median(xs).toFixed(digits)}, min ${Math.min(...xs).toFixed(digits)}, max ${Math.max(...xs).toFixed(digits)}`;

const local = await startLocalService(root, { timeoutMs: 150_000 });
const receiver = await startReceiver();
const boxUrl = (box: string) => `http://127.0.0.1:${receiver.port}/hook/${box}`;
const inbox = async (box: string): Promise<Received[]> =>
  (await fetch(`http://127.0.0.1:${receiver.port}/__box/${box}`)).json() as Promise<Received[]>;
const waitForBox = async (box: string, n: number, timeoutMs = 120_000) => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    // Only the count while polling: serialising a growing box every few ms would load the receiver being measured.
    const { count } = (await (
      await fetch(`http://127.0.0.1:${receiver.port}/__box/${box}?count`)
    ).json()) as {
      count: number;
    };
    if (count >= n) return inbox(box);
    if (Date.now() > until) throw new Error(`${box}: ${count} of ${n} deliveries after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

let failed = false;
try {
  const base = local.base;
  const key = await local.key({ email: "hooks@example.com" });
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { data?: Record<string, unknown>; error?: string };
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json.error}`);
    return json.data!;
  };
  const endpoint = async (box: string, eventTypes: string[]) =>
    (await api("POST", "/api/v2/webhooks", { name: box, url: boxUrl(box), eventTypes })) as {
      id: string;
      secret: string;
    };
  const verifyAll = (secret: string, got: Received[]) => {
    const wh = new Webhook(secret);
    for (const r of got)
      wh.verify(r.body, {
        "webhook-id": r.id,
        "webhook-timestamp": r.timestamp,
        "webhook-signature": r.signature,
      });
  };

  // 1. Throughput of one endpoint object: every first attempt is answered 503 with a Retry-After naming one
  // instant, so all N deliveries fall due together and the object drains a backlog of N.
  const rates: number[] = [];
  const ingest: number[] = [];
  const bare: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const box = `throughput${round}`;
    // Room to queue every event (each first attempt must fail at least 6 s, the jittered 5 s retry, before `due`).
    const due = Math.ceil((Date.now() + 10_000 + EVENTS * QUEUE_MS_PER_EVENT) / 1000) * 1000;
    const hook = (await api("POST", "/api/v2/webhooks", {
      name: box,
      url: `${boxUrl(box)}?fail=${EVENTS}&status=503&retryAt=${due}`,
      eventTypes: ["render.completed"],
    })) as { id: string; secret: string };
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next++ < EVENTS) await api("POST", `/api/v2/webhooks/${hook.id}/test`);
      }),
    );
    ingest.push(EVENTS / ((performance.now() - started) / 1000));
    if (Date.now() > due - 7_000) {
      console.log(
        `round ${round}: queuing outran the shared retry instant (machine too busy?); round skipped`,
      );
      continue;
    }
    const got = (await waitForBox(box, 2 * EVENTS)).slice(EVENTS);
    verifyAll(hook.secret, got);
    const span = got.at(-1)!.at - got[0]!.at;
    rates.push((EVENTS - 1) / (span / 1000));
    const ids = new Set(got.map((r) => r.id));
    if (ids.size !== EVENTS || got.some((r) => r.answered !== 200)) {
      console.log(
        `round ${round}: ${got.length} second attempts for ${ids.size} events (expected ${EVENTS})`,
      );
      failed = true;
    }
    // (a) the same bodies straight to the receiver, one at a time.
    const bareBox = `bare${round}`;
    const t = performance.now();
    for (const r of got)
      await (
        await fetch(boxUrl(bareBox), {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "webhook-id": r.id,
            "webhook-timestamp": r.timestamp,
            "webhook-signature": r.signature,
          },
          body: r.body,
        })
      ).text();
    bare.push(EVENTS / ((performance.now() - t) / 1000));
  }
  if (rates.length === 0) throw new Error("every throughput round was skipped");
  console.log(
    `1. one endpoint object draining a backlog of ${EVENTS} due deliveries, ${rates.length} rounds:`,
  );
  console.log(`   delivered events/s: ${rates.map((r) => r.toFixed(0)).join(", ")} (${spread(rates, 0)})`);
  console.log(
    `   (a) bare sequential POSTs/s from Node: ${bare.map((r) => r.toFixed(0)).join(", ")} (${spread(bare, 0)})`,
  );
  console.log(`   ratio delivered / bare: ${(median(rates) / median(bare)).toFixed(2)}`);
  console.log(`   (queuing through POST .../test, 8 at a time: ${spread(ingest, 0)} events/s)`);

  // 2. Added latency from job completion to the first attempt.
  const hook = await endpoint("latency", ["render.completed"]);
  const latencies: number[] = [];
  const renders: number[] = [];
  for (let i = 0; i < JOBS; i++) {
    const job = await api("POST", "/api/v1/jobs", {
      type: "image",
      config: {
        width: 320,
        height: 180,
        backgroundColor: "#225588",
        layers: [{ type: "text", text: `job ${i}` }],
      },
    });
    const [got] = (await waitForBox("latency", i + 1)).slice(i);
    const arrived = got!.at;
    const data = (
      JSON.parse(got!.body) as { data: { jobId: string; completedAt: string; startedAt: string } }
    ).data;
    if (data.jobId !== job.jobId) throw new Error(`expected ${String(job.jobId)}, got ${data.jobId}`);
    latencies.push(arrived - Date.parse(data.completedAt));
    renders.push(Date.parse(data.completedAt) - Date.parse(data.startedAt));
  }
  verifyAll(hook.secret, await inbox("latency"));
  const hop: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    await (await fetch(boxUrl("hop"), { method: "POST", body: "{}" })).text();
    hop.push(performance.now() - t);
  }
  console.log(`2. job completion -> first attempt at the receiver, ${JOBS} image jobs rendered for real:`);
  console.log(`   added latency ms: ${latencies.join(", ")} (${spread(latencies, 0)})`);
  console.log(`   (b) one bare POST to the receiver, ms: ${spread(hop, 2)}`);
  console.log(`   (c) the jobs' render time (startedAt -> completedAt), ms: ${spread(renders, 0)}`);
  console.log(
    `   ratios: latency / bare POST ${(median(latencies) / median(hop)).toFixed(1)}x, latency / render time ${(median(latencies) / median(renders)).toFixed(2)}`,
  );
} catch (e) {
  console.error(e);
  failed = true;
} finally {
  await receiver.close();
  await local.stop();
}
process.exit(failed ? 1 : 0);
