/**
 * Throughput benchmark (`npm run bench throughput`): the service started as `npm start` starts it, driven over HTTP
 * on loopback, every figure against a baseline measured in the same run:
 *   1. API overhead: an authenticated read (`GET /api/v1/jobs?limit=1` with a key) against `/health` on the same
 *      workerd, 32 concurrent clients, requests per second, interleaved rounds until the share's spread is known;
 *   2. image jobs per second at client concurrency 1, 4 and 16 (each client creates a job and polls it to
 *      COMPLETED, again and again), p50/p99 create -> COMPLETED, against concurrency 1;
 *   3. video jobs per minute for a mix of short jobs submitted at once, with 1 and then 2 local renderer processes
 *      (`RENDERERS=N npm start`, the local stand-in for container instances), against 1 renderer.
 * Every phase uses a fresh account (the per-key rate limits would otherwise count the benchmark's own polls).
 * BENCH_SECONDS (default 4) sets the length of each API round; BENCH_IMAGE_JOBS (default 12) the image jobs per
 * concurrency level (at least 2 per client).
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startLocalService } from "../scripts/lib/processes.mjs";
import { conditions, interleave, loadNow, spread } from "./_lib.ts";

const root = join(import.meta.dirname, "..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const IMAGE_JOBS = Number(process.env.BENCH_IMAGE_JOBS ?? 12);
const POLL_MS = 50;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const r2 = (x: number) => x.toFixed(2);

interface Service {
  base: string;
  /** Renders each renderer process has finished so far (its /health capacity report). */
  rendered: () => Promise<number[]>;
  newKey: () => Promise<string>;
  stop: () => Promise<void>;
}

let accounts = 0;

const startService = async (renderers: number): Promise<Service> => {
  const local = await startLocalService(root, { renderers, quiet: !process.env.BENCH_VERBOSE });
  const base = local.base;
  const rendererPort = Number(local.env.RENDERER_PORT);
  const newKey = () => local.key({ email: `bench-${++accounts}@example.com`, plan: "business" });
  return {
    base,
    rendered: () =>
      Promise.all(
        Array.from({ length: renderers }, async (_, i) => {
          const h = (await (await fetch(`http://127.0.0.1:${rendererPort + i}/health`)).json()) as {
            capacity?: { finished?: number };
          };
          return h.capacity?.finished ?? NaN;
        }),
      ),
    newKey,
    stop: local.stop,
  };
};

/** Requests per second `clients` concurrent loops of `request` sustain for SECONDS. */
const rate = async (clients: number, request: () => Promise<Response>) => {
  const end = performance.now() + SECONDS * 1000;
  let done = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const res = await request();
        await res.arrayBuffer();
        if (res.ok) done++;
        else failed++;
      }
    }),
  );
  if (failed) console.log(`  (${failed} requests answered non-2xx)`);
  return done / SECONDS;
};

/**
 * The authenticated read's rate as a share of /health's, over interleaved rounds (each round: both routes, in
 * rotating order, SECONDS each; a fresh key per read round so the per-key limit of 1,000 per 15 minutes never
 * answers 429) until the share's spread is known.
 */
const apiOverhead = async (s: Service) => {
  const health = () => fetch(`${s.base}/health`);
  const msPerRequest = async (request: () => Promise<Response>) => 1000 / (await rate(32, request));
  const { times, ratios } = await interleave(
    "read",
    {
      read: async () => {
        const key = await s.newKey();
        return msPerRequest(() => fetch(`${s.base}/api/v1/jobs?limit=1`, { headers: { "x-api-key": key } }));
      },
      health: () => msPerRequest(health),
    },
    { warmup: 1, minRounds: 4, maxRounds: 8, targetIqr: 0.08 },
  );
  const perSecond = (ms: number[]) => ms.map((m) => 1000 / m);
  console.log("\n1. API overhead, 32 concurrent clients, interleaved rounds of %d s", SECONDS);
  console.log(`   /health:                          ${spread(perSecond(times.health), " req/s", 0)}`);
  console.log(`   GET /api/v1/jobs?limit=1 (key):   ${spread(perSecond(times.read), " req/s", 0)}`);
  // ratios.health = health ms / read ms = read rate / health rate: the authenticated read's share.
  console.log(`   read / health (goal >= 0.50):     ${spread(ratios.health)}`);
};

type Api = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * The API with a key. Under 16 polling clients workerd now and then closes a keep-alive socket ("other side
 * closed"): such a request is sent again (job creates carry an Idempotency-Key, so a resend never makes a second job).
 */
const apiFor =
  (s: Service, key: string): Api =>
  async (path, init = {}) => {
    const headers = {
      "x-api-key": key,
      "content-type": "application/json",
      ...(init.method === "POST" ? { "idempotency-key": crypto.randomUUID() } : {}),
      ...init.headers,
    };
    for (let attempt = 1; ; attempt++) {
      try {
        return await fetch(`${s.base}${path}`, { ...init, headers });
      } catch (e) {
        if (attempt >= 4) throw e;
        resent++;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  };

let resent = 0;

/** Creates a job and polls it to COMPLETED; its create -> COMPLETED time in ms. */
const runJob = async (api: Api, type: "image" | "video", config: unknown) => {
  const t = performance.now();
  const res = await api("/api/v1/jobs", { method: "POST", body: JSON.stringify({ type, config }) });
  const created = (await res.json()) as { data?: { jobId: string }; error?: string };
  if (!created.data) throw new Error(`create failed (${res.status}): ${JSON.stringify(created)}`);
  for (;;) {
    const job = (
      (await (await api(`/api/v1/jobs/${created.data.jobId}`)).json()) as {
        data: { status: string; errorMessage: string | null };
      }
    ).data;
    if (job.status === "COMPLETED") return performance.now() - t;
    if (job.status === "FAILED" || job.status === "CANCELLED")
      throw new Error(`${job.status}: ${job.errorMessage}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
};

const IMAGE = {
  width: 1080,
  height: 1080,
  backgroundColor: "#1d3557",
  layers: [
    { type: "text", text: "Summer Sale", x: 540, y: 80, fontSize: 96, color: "#ffffff", align: "center" },
    {
      type: "text",
      text: "Up to 50% off everything",
      x: 540,
      y: 220,
      fontSize: 48,
      color: "#ffffff",
      align: "center",
    },
    { type: "text", text: "Only this weekend", x: 60, y: 860, fontSize: 40, color: "#ffe066" },
    { type: "text", text: "shop.example.com", x: 60, y: 930, fontSize: 32, color: "#ffffff" },
  ],
};

const images = async (s: Service) => {
  const rows: { c: number; perSecond: number; p50: number; p99: number }[] = [];
  for (const c of [1, 4, 16]) {
    const api = apiFor(s, await s.newKey());
    await runJob(api, "image", IMAGE); // warm the browser objects' sessions
    const total = Math.max(IMAGE_JOBS, 2 * c);
    let next = 0;
    const times: number[] = [];
    const t = performance.now();
    await Promise.all(
      Array.from({ length: c }, async () => {
        while (next < total) {
          next++;
          times.push(await runJob(api, "image", IMAGE));
        }
      }),
    );
    rows.push({
      c,
      perSecond: total / ((performance.now() - t) / 1000),
      p50: pct(times, 50),
      p99: pct(times, 99),
    });
  }
  console.log(
    `\n2. Image jobs (1080x1080, four text layers, PNG), create -> COMPLETED, polled every ${POLL_MS} ms`,
  );
  console.log("   clients  jobs/s  vs 1 client   p50 ms  p99 ms");
  for (const r of rows)
    console.log(
      `   ${String(r.c).padStart(7)}  ${r2(r.perSecond).padStart(6)}  ${r2(r.perSecond / rows[0]!.perSecond).padStart(11)}  ${r.p50.toFixed(0).padStart(7)}  ${r.p99.toFixed(0).padStart(6)}`,
    );
};

/** The video mix: short jobs of the kinds users send (colour + title, a gradient with a fade, a longer 480p clip). */
const VIDEOS = [
  {
    width: 640,
    height: 360,
    fps: 25,
    clips: [
      {
        duration: 3,
        layers: [
          { type: "fill-color", color: "#e63946" },
          { type: "title", text: "Hello" },
        ],
      },
    ],
  },
  {
    width: 640,
    height: 360,
    fps: 25,
    defaults: { transition: { name: "fade", duration: 0.5 } },
    clips: [
      { duration: 2, layers: [{ type: "linear-gradient", colors: ["#ff0000", "#0000ff"] }] },
      { duration: 2, layers: [{ type: "radial-gradient", colors: ["#00ff00", "#000000"] }] },
    ],
  },
  {
    width: 854,
    height: 480,
    fps: 30,
    clips: [{ duration: 5, layers: [{ type: "linear-gradient", colors: ["#222222", "#dddddd"] }] }],
  },
];
const VIDEO_JOBS = Number(process.env.BENCH_VIDEO_JOBS ?? 9);

const videos = async (s: Service) => {
  const api = apiFor(s, await s.newKey());
  await runJob(api, "video", VIDEOS[0]); // warm: the first render launches the text page's Chromium
  const t = performance.now();
  const times = await Promise.all(
    Array.from({ length: VIDEO_JOBS }, (_, i) => runJob(api, "video", VIDEOS[i % VIDEOS.length])),
  );
  const minutes = (performance.now() - t) / 60_000;
  const spread = (await s.rendered()).join(" + ");
  return { perMinute: VIDEO_JOBS / minutes, p50: pct(times, 50), p99: pct(times, 99), spread };
};

console.log(conditions("throughput"));
/** BENCH_PARTS=api,image,video (default all) runs only some parts; video always runs with 1 and 2 renderers. */
const parts = new Set((process.env.BENCH_PARTS ?? "api,image,video").split(","));
const one = await startService(1);
let video1!: Awaited<ReturnType<typeof videos>>;
try {
  if (parts.has("api")) await apiOverhead(one);
  if (parts.has("image")) await images(one);
  if (parts.has("video")) video1 = await videos(one);
} finally {
  await one.stop();
}
if (!parts.has("video")) {
  console.log(`\nload average at the end ${loadNow()}`);
  process.exit(0);
}
const two = await startService(2);
let video2: Awaited<ReturnType<typeof videos>>;
try {
  video2 = await videos(two);
} finally {
  await two.stop();
}
console.log(
  `\n3. Video jobs: ${VIDEO_JOBS} short jobs (${VIDEOS.length} kinds) submitted at once, create -> COMPLETED`,
);
console.log("   renderers  jobs/min  vs 1 renderer  p50 ms  p99 ms  renders per renderer (warm-up included)");
for (const [n, v] of [
  [1, video1],
  [2, video2],
] as const)
  console.log(
    `   ${String(n).padStart(9)}  ${r2(v.perMinute).padStart(8)}  ${r2(v.perMinute / video1.perMinute).padStart(13)}  ${v.p50.toFixed(0).padStart(6)}  ${v.p99.toFixed(0).padStart(6)}  ${v.spread}`,
  );
console.log(`\nload average at the end ${loadNow()}; requests resent after a closed socket: ${resent}`);
