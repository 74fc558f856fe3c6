/**
 * Template batch benchmark (`node bench/templates.ts` on Node 24, or `npm run bench templates`), on a warm local
 * service (`scripts/start.mjs`): ROWS personalised images (a 320x180 card: row colour + two text layers, PNG)
 *   1. as one CSV batch: submit -> every job COMPLETED (rows/s), then the streamed ZIP (submit -> ZIP in hand);
 *   (a) baseline: the same ROWS as single v1 jobs, created by a client that keeps the plan's 10 jobs in flight
 *       (what an automation does without batches), create -> all COMPLETED.
 * Each measured RUNS times (after one warm-up of each); prints min / median / max and the ratio of medians.
 * Also the workerd processes' resident memory while the ZIP streams.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startLocalService } from "../scripts/lib/processes.mjs";

const root = join(import.meta.dirname, "..");
const ROWS = Number(process.env.BENCH_ROWS ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const POLL_MS = 100;
/** The batch is polled less often: one key polls it for the whole run. */
const BATCH_POLL_MS = 250;
const WINDOW = 10; // the pro plan's concurrent jobs

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
const spread = (xs: number[], unit: string, digits = 0) =>
  `${median(xs).toFixed(digits)} ${unit} (min ${sorted(xs)[0]!.toFixed(digits)}, max ${sorted(xs).at(-1)!.toFixed(digits)}, n=${xs.length})`;

const TEMPLATE = {
  name: "bench card",
  type: "image",
  config: {
    width: 320,
    height: 180,
    backgroundColor: "{{bg}}",
    layers: [
      { type: "text", text: "{{title}}", x: 160, y: 40, fontSize: 32, color: "#ffffff", align: "center" },
      { type: "text", text: "Row {{n}}", x: 160, y: 110, fontSize: 20, color: "#ffffff", align: "center" },
    ],
  },
};
const rowOf = (i: number) => ({
  title: `Hello, guest ${i}`,
  bg: `#${((i * 2654435761) >>> 8).toString(16).padStart(6, "0").slice(0, 6)}`,
  n: String(i),
  file: `card-${i}`,
});
const configOf = (r: ReturnType<typeof rowOf>) =>
  JSON.parse(
    JSON.stringify(TEMPLATE.config)
      .replace("{{bg}}", r.bg)
      .replace("{{title}}", r.title)
      .replace("{{n}}", r.n),
  );

/** Summed VmRSS (MiB) of workerd processes descended from `pid`. */
const workerdRss = (pid: number): number => {
  const ppid = new Map<string, { name: string; ppid: string }>();
  for (const p of readdirSync("/proc").filter((x) => /^\d+$/.test(x))) {
    try {
      const text = readFileSync(`/proc/${p}/stat`, "utf8");
      const close = text.lastIndexOf(")");
      ppid.set(p, {
        name: text.slice(text.indexOf("(") + 1, close),
        ppid: text.slice(close + 2).split(" ")[1]!,
      });
    } catch {
      // gone
    }
  }
  let kb = 0;
  for (const [p, s] of ppid) {
    if (!s.name.startsWith("workerd")) continue;
    let q: string | undefined = p;
    for (let i = 0; q && i < 20 && q !== String(pid); i++) q = ppid.get(q)?.ppid;
    if (q !== String(pid)) continue;
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kb / 1024;
};

const main = async () => {
  const local = await startLocalService(root);
  const base = local.base;
  try {
    // One key per client worker: the per-key rate limits (60 job creations a minute, 1,000 requests in 15 minutes)
    // would otherwise measure the limiter, not the renders.
    const newKey = () => local.key({ email: "bench-templates@example.com" });
    const key = await newKey();
    const workerKeys: string[] = [];
    for (let i = 0; i < WINDOW; i++) workerKeys.push(await newKey());
    const api = (path: string, init: RequestInit = {}, as = key) =>
      fetch(`${base}${path}`, { ...init, headers: { "x-api-key": as, ...init.headers } });
    const data = async <T>(res: Response) => {
      const b = (await res.json()) as { success: boolean; data: T; error?: string };
      if (!b.success) throw new Error(`${res.status} ${b.error}`);
      return b.data;
    };
    const template = await data<{ id: string }>(
      await api("/api/v2/templates", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(TEMPLATE),
      }),
    );
    const rows = Array.from({ length: ROWS }, (_, i) => rowOf(i + 1));
    const csv = `title,bg,n,file\r\n${rows.map((r) => `"${r.title}",${r.bg},${r.n},${r.file}`).join("\r\n")}\r\n`;

    const batchRun = async () => {
      const t0 = performance.now();
      const created = await data<{ batchId: string }>(
        await api(`/api/v2/templates/${template.id}/batches?nameColumn=file`, {
          method: "POST",
          headers: { "content-type": "text/csv" },
          body: csv,
        }),
      );
      for (;;) {
        const b = await data<{ status: string; counts: Record<string, number> }>(
          await api(`/api/v2/batches/${created.batchId}`),
        );
        if (b.status !== "RUNNING") {
          if (b.counts.COMPLETED !== ROWS) throw new Error(`batch ended ${JSON.stringify(b.counts)}`);
          break;
        }
        await new Promise((r) => setTimeout(r, BATCH_POLL_MS));
      }
      const rendered = performance.now() - t0;
      const before = workerdRss(local.service.pid!);
      let peak = before;
      const timer = setInterval(() => (peak = Math.max(peak, workerdRss(local.service.pid!))), 20);
      const zip = await api(`/api/v2/batches/${created.batchId}/output`);
      const bytes = (await zip.arrayBuffer()).byteLength;
      clearInterval(timer);
      return { rendered, zipped: performance.now() - t0, bytes, rssGrowth: peak - before };
    };

    const singleRun = async () => {
      const t0 = performance.now();
      let next = 0;
      const worker = async (as: string) => {
        while (next < rows.length) {
          const r = rows[next++]!;
          let jobId: string | undefined;
          while (!jobId) {
            const res = await api(
              "/api/v1/jobs",
              {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify({ type: "image", config: configOf(r) }),
              },
              as,
            );
            if (res.status === 429) {
              await new Promise((s) => setTimeout(s, POLL_MS));
              continue;
            }
            jobId = (await data<{ jobId: string }>(res)).jobId;
          }
          for (;;) {
            const job = await data<{ status: string; errorMessage: string }>(
              await api(`/api/v1/jobs/${jobId}`, {}, as),
            );
            if (job.status === "COMPLETED") break;
            if (job.status === "FAILED") throw new Error(job.errorMessage);
            await new Promise((s) => setTimeout(s, POLL_MS));
          }
        }
      };
      await Promise.all(workerKeys.map(worker));
      return performance.now() - t0;
    };

    await batchRun();
    await singleRun();
    const batch: Awaited<ReturnType<typeof batchRun>>[] = [];
    const single: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      batch.push(await batchRun());
      single.push(await singleRun());
    }
    const batchRate = batch.map((b) => (ROWS / b.rendered) * 1000);
    const singleRate = single.map((ms) => (ROWS / ms) * 1000);
    console.log(`${ROWS} images of 320x180, pro plan (window ${WINDOW}), ${RUNS} runs each after a warm-up:`);
    console.log(`  1. batch (CSV), submit -> all COMPLETED: ${spread(batchRate, "rows/s", 1)}`);
    console.log(
      `     submit -> ZIP downloaded:            ${spread(
        batch.map((b) => b.zipped),
        "ms",
      )}`,
    );
    console.log(
      `     ZIP alone:                           ${spread(
        batch.map((b) => b.zipped - b.rendered),
        "ms",
      )}, ${(batch[0]!.bytes / 1024).toFixed(0)} KiB`,
    );
    console.log(
      `     workerd RSS growth while zipping:    ${spread(
        batch.map((b) => b.rssGrowth),
        "MiB",
        1,
      )}`,
    );
    console.log(`  a. single v1 jobs, ${WINDOW} in flight:     ${spread(singleRate, "rows/s", 1)}`);
    console.log(
      `  ratio batch / single (rows/s, medians): ${(median(batchRate) / median(singleRate)).toFixed(2)}x`,
    );
  } finally {
    await local.stop();
  }
};

await main();
