/**
 * Load benchmark (`npm run bench load`): the service as `npm start` runs it, on loopback, under a mix of requests
 * from many accounts at rising rates, until it saturates; it stops by itself after the first step it does not hold
 * (or the last step), then waits for every image job it created to finish.
 *
 * - LOAD_ACCOUNTS accounts (default 50, business plan), each with its own key from `npm run key` (one run for all):
 *   no one key's or account's rate limit bounds the figure (docs/api-guide.md#rate-limits).
 * - Open-loop arrivals at each rate of LOAD_RATES (requests per second, default 10,20,40,80,120,160) for
 *   LOAD_STEP_SECONDS (default 15) each: a request is sent when it is due whether or not earlier ones were answered,
 *   spread over the accounts in turn, at most LOAD_MAX_IN_FLIGHT (default 256) open at once (beyond it a due request
 *   is not sent: counted as shed, a sign of saturation).
 * - The mix, in every 20 requests: 9 authenticated reads (the account's job list, or one of its jobs), 4 validations
 *   of an image config, 3 image jobs (640x360 PNG: a gradient and two texts, rendered by the local browser objects),
 *   3 uploads (a 7 KB PNG) and 1 `/health` (no key, no D1: the Worker alone, against which the reads' latency tells
 *   whether D1 is what slows).
 * - A step is held when no answer is a 5xx, no request failed on the wire or was shed, the answers kept up with the
 *   offered rate (at least 95 %), and the image jobs it created finished with p99 create -> COMPLETED under
 *   LOAD_IMAGE_P99_SECONDS (default 10). After the steps every created job is followed until it ends
 *   (LOAD_DRAIN_SECONDS, default 120): a job that did not end, or cannot be found, is lost.
 * - Where the time goes: CPU of workerd (the Worker with its D1, R2, queues and Durable Objects; its busiest thread
 *   too), the local Browser Rendering's Chromium, the renderer, wrangler's Node, this load generator, and the rest of
 *   the machine (other work), each as cores kept busy, per step (bench/_processes.ts).
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startLocalService } from "../scripts/lib/processes.mjs";
import { conditions, loadNow, quantile } from "./_lib.ts";
import { cpuBetween, PARTS, sampleCpu, type CpuUse } from "./_processes.ts";

const root = join(import.meta.dirname, "..");
const env = (name: string, fallback: string) => process.env[name] ?? fallback;
const ACCOUNTS = Number(env("LOAD_ACCOUNTS", "50"));
const RATES = env("LOAD_RATES", "10,20,40,80,120,160").split(",").map(Number);
const STEP_SECONDS = Number(env("LOAD_STEP_SECONDS", "15"));
const MAX_IN_FLIGHT = Number(env("LOAD_MAX_IN_FLIGHT", "256"));
const IMAGE_P99_SECONDS = Number(env("LOAD_IMAGE_P99_SECONDS", "10"));
const DRAIN_SECONDS = Number(env("LOAD_DRAIN_SECONDS", "120"));
const REQUEST_TIMEOUT_MS = 30_000;

type Route = "health" | "read" | "validate" | "image" | "upload";
const ROUTES: Route[] = ["health", "read", "validate", "image", "upload"];
/** Every 20 requests: 9 reads, 4 validations, 3 image jobs, 3 uploads, 1 health, interleaved. */
const MIX: Route[] = [
  "read",
  "validate",
  "read",
  "image",
  "read",
  "upload",
  "read",
  "validate",
  "read",
  "health",
  "read",
  "image",
  "validate",
  "read",
  "upload",
  "read",
  "validate",
  "image",
  "read",
  "upload",
];

const IMAGE = {
  width: 640,
  height: 360,
  format: "png",
  layers: [
    { type: "gradient", gradient: { colors: ["#1d3557", "#457b9d"] }, width: 640, height: 360 },
    { type: "text", text: "Load test", x: 320, y: 120, fontSize: 64, color: "#ffffff", align: "center" },
    {
      type: "text",
      text: "50 accounts, one service",
      x: 320,
      y: 220,
      fontSize: 28,
      color: "#f1faee",
      align: "center",
    },
  ],
};
const PNG = readFileSync(join(root, "test", "fixtures", "reference", "defaults.png"));

interface Answer {
  route: Route;
  step: number;
  status: number;
  ms: number;
  /** The request failed on the wire (no answer), or waited past REQUEST_TIMEOUT_MS. */
  error?: string;
}

interface CreatedJob {
  id: string;
  key: string;
  step: number;
}

const answers: Answer[] = [];
const jobs: CreatedJob[] = [];
/** Job creations whose answer was lost: replayed with the same Idempotency-Key at the end to find the job. */
const unanswered: { key: string; idempotencyKey: string; step: number }[] = [];
const shed: number[] = [];
let inFlight = 0;

const send = async (
  base: string,
  route: Route,
  step: number,
  key: string,
  path: string,
  init: RequestInit = {},
): Promise<Response | null> => {
  inFlight++;
  const t0 = performance.now();
  try {
    const res = await fetch(`${base}${path}`, {
      ...init,
      headers: { ...(route === "health" ? {} : { "x-api-key": key }), ...init.headers },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const body = await res.arrayBuffer();
    answers.push({ route, step, status: res.status, ms: performance.now() - t0 });
    return new Response(body, { status: res.status, headers: res.headers });
  } catch (e) {
    const error = (e as Error).name === "TimeoutError" ? "timeout" : (e as Error).message;
    answers.push({ route, step, status: 0, ms: performance.now() - t0, error });
    return null;
  } finally {
    inFlight--;
  }
};

const json = (body: unknown, extra: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...extra },
  body: JSON.stringify(body),
});

/** One request of `route` for the account of `key`. */
const request = async (base: string, route: Route, step: number, key: string, n: number) => {
  switch (route) {
    case "health":
      await send(base, route, step, key, "/health");
      return;
    case "read": {
      // Half the reads list the account's jobs, half read one of them (its newest job created so far).
      const own = n % 2 ? jobs.findLast((j) => j.key === key) : undefined;
      await send(base, route, step, key, own ? `/api/v1/jobs/${own.id}` : "/api/v1/jobs?limit=5");
      return;
    }
    case "validate":
      await send(base, route, step, key, "/api/v1/jobs/validate", json({ type: "image", config: IMAGE }));
      return;
    case "image": {
      const idempotencyKey = crypto.randomUUID();
      const res = await send(
        base,
        route,
        step,
        key,
        "/api/v1/jobs",
        json({ type: "image", config: IMAGE }, { "idempotency-key": idempotencyKey }),
      );
      if (res?.status === 201) {
        const { data } = (await res.json()) as { data: { jobId: string } };
        jobs.push({ id: data.jobId, key, step });
      } else if (!res || res.status >= 500) unanswered.push({ key, idempotencyKey, step });
      return;
    }
    case "upload": {
      const form = new FormData();
      form.set("file", new File([PNG], "load.png", { type: "image/png" }));
      form.set("ttlHours", "1");
      await send(base, route, step, key, "/api/v1/files/upload", { method: "POST", body: form });
      return;
    }
  }
};

/** Offers `rate` requests per second for STEP_SECONDS, then waits for the step's requests to be answered. */
const runStep = async (base: string, keys: string[], step: number, rate: number, counter: { n: number }) => {
  const open = new Set<Promise<void>>();
  const start = performance.now();
  let due = 0;
  shed[step] = 0;
  for (;;) {
    const elapsed = performance.now() - start;
    if (elapsed >= STEP_SECONDS * 1000) break;
    const target = Math.floor((rate * elapsed) / 1000);
    for (; due < target; due++) {
      const n = counter.n++;
      if (inFlight >= MAX_IN_FLIGHT) {
        shed[step]!++;
        continue;
      }
      const p = request(
        base,
        MIX[n % MIX.length]!,
        step,
        keys[n % keys.length]!,
        Math.floor(n / keys.length),
      );
      open.add(p);
      void p.finally(() => open.delete(p));
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  await Promise.all([...open]);
  return { offered: due, seconds: (performance.now() - start) / 1000 };
};

interface JobEnd {
  status: string;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

/** Follows every created job until it ends or DRAIN_SECONDS pass; the last state read of each. */
const drain = async (base: string) => {
  // A creation whose answer was lost: the same key and body answer the first result (or it was never made).
  for (const u of unanswered) {
    const res = await fetch(`${base}/api/v1/jobs`, {
      ...json({ type: "image", config: IMAGE }, { "idempotency-key": u.idempotencyKey }),
      headers: {
        "content-type": "application/json",
        "x-api-key": u.key,
        "idempotency-key": u.idempotencyKey,
      },
    });
    if (res.status === 200 || res.status === 201) {
      const { data } = (await res.json()) as { data: { jobId: string } };
      if (!jobs.some((j) => j.id === data.jobId)) jobs.push({ id: data.jobId, key: u.key, step: u.step });
    }
  }
  const ends = new Map<string, JobEnd | null>();
  const deadline = performance.now() + DRAIN_SECONDS * 1000;
  let open = jobs;
  while (open.length && performance.now() < deadline) {
    const next: CreatedJob[] = [];
    for (let i = 0; i < open.length; i += 8) {
      await Promise.all(
        open.slice(i, i + 8).map(async (job) => {
          const res = await fetch(`${base}/api/v1/jobs/${job.id}`, { headers: { "x-api-key": job.key } });
          const end = res.ok ? ((await res.json()) as { data: JobEnd }).data : null;
          ends.set(job.id, end);
          if (end && (end.status === "PENDING" || end.status === "PROCESSING")) next.push(job);
        }),
      );
    }
    open = next;
    if (open.length) await new Promise((r) => setTimeout(r, 1000));
  }
  return ends;
};

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : "-");
const s1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : "-");
const cores = (x: number) => x.toFixed(2);

console.log(conditions("load"));
console.log(
  `  ${ACCOUNTS} accounts, rates ${RATES.join(", ")} req/s for ${STEP_SECONDS} s each, at most ${MAX_IN_FLIGHT} in flight`,
);
const local = await startLocalService(root, { renderers: 1, quiet: !process.env.BENCH_VERBOSE });
const rows: {
  rate: number;
  offered: number;
  seconds: number;
  cpu: CpuUse;
  load: number;
}[] = [];
let ends = new Map<string, JobEnd | null>();
try {
  const emails = Array.from({ length: ACCOUNTS }, (_, i) => `load-${i}-${Date.now()}@example.com`);
  const t = performance.now();
  const keys = await local.keys({ emails, plan: "business" });
  console.log(
    `  ${keys.length} keys made by one npm run key in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  // Warm: every account once, and the image browsers' first launch, before anything is measured.
  await Promise.all(
    keys.map((key) => fetch(`${local.base}/api/v1/jobs?limit=1`, { headers: { "x-api-key": key } })),
  );
  await request(local.base, "image", -1, keys[0]!, 0);
  const counter = { n: 0 };
  for (const [step, rate] of RATES.entries()) {
    const before = sampleCpu(local.service.pid!);
    const { offered, seconds } = await runStep(local.base, keys, step, rate, counter);
    const cpu = cpuBetween(before, sampleCpu(local.service.pid!));
    rows.push({ rate, offered, seconds, cpu, load: loadavg()[0]! });
    const mine = answers.filter((a) => a.step === step);
    const bad = mine.filter((a) => a.status >= 500 || a.error).length + shed[step]!;
    console.log(
      `  step ${step + 1}: ${rate} req/s offered, ${mine.length} answered in ${seconds.toFixed(1)} s, ${bad} failed or shed, ` +
        `load average ${loadavg()[0]!.toFixed(1)}`,
    );
    const kept = mine.length / Math.max(1, offered);
    if (bad > 0 || kept < 0.95) break;
  }
  console.log(`  following ${jobs.length} image jobs to their end (at most ${DRAIN_SECONDS} s)`);
  ends = await drain(local.base);
} finally {
  await local.stop();
}

// Per step: answers by route, image job times from the jobs' own timestamps.
const at = (iso: string | null) => (iso ? Date.parse(iso) : NaN);
console.log(
  "\nPer step (latency in ms, p50/p99; images: create -> COMPLETED and its wait for a browser, in s)",
);
console.log(
  "  req/s  answered/s  5xx  wire  shed  429  other 4xx | health    read      validate  image     upload    | " +
    "images done  p50/p99 s  queue p50 s | held",
);
let held = -1;
/** What the step shows of where the time went: the evidence the saturation line prints. */
const evidence: string[] = [];
for (const [step, row] of rows.entries()) {
  const mine = answers.filter((a) => a.step === step);
  const count = (f: (a: Answer) => boolean) => mine.filter(f).length;
  const fivexx = count((a) => a.status >= 500);
  const wire = count((a) => !!a.error);
  const limited = count((a) => a.status === 429);
  const other4xx = count((a) => a.status >= 400 && a.status < 500 && a.status !== 429);
  const lat = ROUTES.map((r) => {
    const xs = mine.filter((a) => a.route === r && !a.error).map((a) => a.ms);
    return `${ms(quantile(xs, 0.5))}/${ms(quantile(xs, 0.99))}`.padEnd(9);
  }).join(" ");
  const stepJobs = jobs.filter((j) => j.step === step).map((j) => ends.get(j.id));
  const done = stepJobs.filter((e) => e?.status === "COMPLETED") as JobEnd[];
  const total = done.map((e) => (at(e.completedAt) - at(e.createdAt)) / 1000);
  const queue = done.map((e) => (at(e.startedAt) - at(e.createdAt)) / 1000);
  const render = done.map((e) => (at(e.completedAt) - at(e.startedAt)) / 1000);
  const p99 = quantile(total, 0.99);
  const p99Of = (r: Route) =>
    quantile(
      mine.filter((a) => a.route === r && !a.error).map((a) => a.ms),
      0.99,
    );
  evidence[step] =
    `at ${row.rate} req/s the machine was ${cores(row.cpu.busy)} of 2 cores busy (other work ${cores(row.cpu.others)}, ` +
    `load average ${row.load.toFixed(1)}); workerd ran ${cores(row.cpu.parts.workerd)} cores (busiest thread ` +
    `${cores(row.cpu.workerdThread)}) and waited ${cores(row.cpu.waited.workerd)} s/s for a core, the image browsers ` +
    `ran ${cores(row.cpu.parts.browsers)} and waited ${cores(row.cpu.waited.browsers)} s/s; an image job waited ` +
    `${s1(quantile(queue, 0.5))} s (p50) for a browser object and rendered in ${s1(quantile(render, 0.5))} s; reads p99 ` +
    `${ms(p99Of("read"))} ms against /health p99 ${ms(p99Of("health"))} ms (no D1)`;
  const ok =
    fivexx === 0 &&
    wire === 0 &&
    shed[step] === 0 &&
    mine.length >= 0.95 * row.offered &&
    done.length === stepJobs.length &&
    !(p99 > IMAGE_P99_SECONDS);
  if (ok && held === step - 1) held = step;
  console.log(
    `  ${String(row.rate).padStart(5)}  ${(mine.length / row.seconds).toFixed(1).padStart(10)}  ${String(fivexx).padStart(3)}  ` +
      `${String(wire).padStart(4)}  ${String(shed[step]).padStart(4)}  ${String(limited).padStart(3)}  ${String(other4xx).padStart(9)} | ` +
      `${lat} | ${`${done.length}/${stepJobs.length}`.padStart(11)}  ${`${s1(quantile(total, 0.5))}/${s1(p99)}`.padStart(9)}  ` +
      `${s1(quantile(queue, 0.5)).padStart(11)} | ${ok ? "yes" : "no"}`,
  );
}
console.log(
  "\nCPU per step, in cores kept busy (the machine has 2), with the seconds per second each part's threads waited " +
    "for a core: workerd (its busiest thread), browsers, renderer, wrangler; this load generator, other work on the " +
    "machine; the machine's busy cores; load average",
);
for (const row of rows)
  console.log(
    `  ${String(row.rate).padStart(5)} req/s: workerd ${cores(row.cpu.parts.workerd)} (thread ${cores(row.cpu.workerdThread)}, ` +
      `waited ${cores(row.cpu.waited.workerd)}), ` +
      PARTS.filter((p) => p !== "workerd")
        .map((p) => `${p} ${cores(row.cpu.parts[p])} (waited ${cores(row.cpu.waited[p])})`)
        .join(", ") +
      `; generator ${cores(row.cpu.self)}, others ${cores(row.cpu.others)}; busy ${cores(row.cpu.busy)}; load ${row.load.toFixed(1)}`,
  );

const lost = jobs.filter((j) => {
  const e = ends.get(j.id);
  return !e || e.status === "PENDING" || e.status === "PROCESSING";
});
const failed = jobs.filter((j) => ends.get(j.id)?.status === "FAILED");
const byStatus = new Map<number, number>();
for (const a of answers) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
console.log(
  `\nAnswers by status: ${[...byStatus].map(([s, n]) => `${s || "none"} ${n}`).join(", ")}; ` +
    `image jobs ${jobs.length}: ${jobs.length - lost.length - failed.length} COMPLETED, ${failed.length} FAILED, ${lost.length} lost ` +
    `(${unanswered.length} creations answered 5xx or not at all, looked up again by their Idempotency-Key)`,
);
console.log(
  held >= 0
    ? `Held: ${rows[held]!.rate} req/s (${ACCOUNTS} accounts) with 0 x 5xx and ${lost.length} lost jobs` +
        (held < rows.length - 1 ? `; not held at ${rows[held + 1]!.rate} req/s` : "; every step held")
    : "Held: no step",
);
const limit = held < rows.length - 1 ? held + 1 : rows.length - 1;
if (rows.length)
  console.log(
    `Where it ${held < rows.length - 1 ? "saturated" : "stood at the last step"}: ${evidence[limit]}`,
  );
console.log(`load average at the end ${loadNow()}`);
process.exit(lost.length ? 1 : 0);
