/**
 * Image benchmark (`node bench/image.ts` on Node 24, or `npm run bench image`). One design - a 1080x1080
 * canvas with a cover-scaled 4000x3000 photo (img2.jpg) and five text layers, PNG - rendered:
 *   1. through the service: create job -> COMPLETED on a warm local service (`scripts/start.mjs`), median;
 *   2. our compiler + one warm Chromium page screenshot (puppeteer-core, chromium-headless-shell);
 *   (a) a bare Chromium screenshot of an equivalent hand-written static page (same browser, warm page);
 *   (b) satori + resvg rendering the same design.
 * Prints medians and ratios. Targets: service <= 1.3x (a)... see the issue; all measured in this run.
 * The service is timed two ways: as a client sees it (create request, then a status poll every
 * BENCH_POLL_MS, default 20: a 5 ms poll loop was itself ~200 requests/s of load on the same local Worker
 * and slowed the render it waited for), and by the job's own createdAt/completedAt. The service's stage
 * timings (its "image rendered" log lines) are summarised too.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { build } from "esbuild";
import puppeteer, { type Page } from "puppeteer-core";
import { OFFLINE_CHROMIUM_FLAGS } from "../container/src/video/raster/browser.ts";
import { startLocalService } from "../scripts/lib/processes.mjs";

const root = join(import.meta.dirname, "..");
const photo = readFileSync(join(root, "..", "shared", "fixtures", "img2.jpg"));
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
/** Status polls of a service job; each one is a request the same local Worker serves while it renders. */
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 20);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
interface BenchText {
  text: string;
  x: number;
  y: number;
  fontSize: number;
  color: string;
  align?: "center" | "right";
}
const TEXTS: readonly BenchText[] = [
  { text: "Summer Sale", x: 540, y: 80, fontSize: 96, color: "#ffffff", align: "center" },
  { text: "Up to 50% off everything", x: 540, y: 220, fontSize: 48, color: "#ffffff", align: "center" },
  { text: "Only this weekend", x: 60, y: 860, fontSize: 40, color: "#ffe066" },
  { text: "shop.example.com", x: 60, y: 930, fontSize: 32, color: "#ffffff" },
  { text: "#1080", x: 1020, y: 990, fontSize: 28, color: "#ffffff", align: "right" },
];

const timed = async (runs: number, fn: () => Promise<unknown>) => {
  for (let i = 0; i < 3; i++) await fn(); // warm-up
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return median(out);
};

/** 1. The service, started the way the e2e tests start it. */
/** Median client-observed create -> COMPLETED, and the median of the job's own createdAt -> completedAt. */
const serviceRun = async (): Promise<{ observed: number; server: number }> => {
  const local = await startLocalService(root);
  const base = local.base;
  // The render path logs one JSON line per job with its stage timings: collect them for the summary.
  const logged: Record<string, unknown>[] = [];
  let partial = "";
  local.service.stdout!.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      const at = line.indexOf('{"level":"info","msg":"image rendered"');
      if (at >= 0) logged.push(JSON.parse(line.slice(at)) as Record<string, unknown>);
    }
  });
  try {
    const key = local.key({ email: "bench@example.com" });
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${base}${path}`, { ...init, headers: { "x-api-key": key, ...init.headers } });
    const form = new FormData();
    form.set("file", new File([photo], "img2.jpg"));
    const file = (
      (await (await api("/api/v1/files/upload", { method: "POST", body: form })).json()) as {
        data: { storageUrl: string };
      }
    ).data;
    const config = {
      width: 1080,
      height: 1080,
      layers: [
        { type: "image", path: file.storageUrl, x: 0, y: 0, width: 1080, height: 1080, fit: "cover" },
        ...TEXTS.map((t) => ({ type: "text", ...t })),
      ],
    };
    const createTimes: number[] = [];
    const polls: number[] = [];
    const serverTimes: number[] = [];
    const once = async () => {
      const t = performance.now();
      const res = await api("/api/v1/jobs", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ type: "image", config }),
      });
      const { jobId } = ((await res.json()) as { data: { jobId: string } }).data;
      createTimes.push(performance.now() - t);
      for (let n = 1; ; n++) {
        const job = (
          (await (await api(`/api/v1/jobs/${jobId}`)).json()) as {
            data: { status: string; errorMessage: string; createdAt: string; completedAt: string };
          }
        ).data;
        if (job.status === "COMPLETED") {
          polls.push(n);
          serverTimes.push(Date.parse(job.completedAt) - Date.parse(job.createdAt));
          return;
        }
        if (job.status === "FAILED") throw new Error(job.errorMessage);
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    };
    const observed = await timed(RUNS, once);
    console.log(
      `service stages (median ms): create request ${median(createTimes).toFixed(1)}, polls per job ${median(polls)} (every ${POLL_MS} ms), ` +
        `server-side createdAt -> completedAt ${median(serverTimes.slice(-RUNS))}`,
    );
    const stages = (rows: Record<string, unknown>[]) => {
      const keys = Object.keys(rows[0] ?? {}).filter((k) => k.endsWith("Ms"));
      return keys.map((k) => `${k.replace(/Ms$/, "")} ${median(rows.map((r) => Number(r[k])))}`).join(", ");
    };
    const recent = logged.slice(-RUNS);
    console.log(`  consumer: ${stages(recent)}`);
    console.log(`  browser object: ${stages(recent.map((r) => r.browser as Record<string, unknown>))}`);
    return { observed, server: median(serverTimes.slice(-RUNS)) };
  } finally {
    await local.stop();
  }
};

/** A warm page that answers https://assets.local/* from memory, like the image browser does. */
const warmPage = async () => {
  const browser = await puppeteer.launch({
    executablePath: "/usr/bin/chromium-headless-shell",
    args: OFFLINE_CHROMIUM_FLAGS,
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1080, height: 1080 });
  const files = new Map<string, Uint8Array>([["https://assets.local/photo.jpg", photo]]);
  await page.setRequestInterception(true);
  page.on("request", (req) => {
    const url = req.url();
    const fontPath = /^https:\/\/static\.local(\/render\/.*)$/.exec(url)?.[1];
    const body = files.get(url) ?? (fontPath ? readFileSync(join(root, "static", fontPath)) : undefined);
    if (body)
      void req.respond({ status: 200, body: Buffer.from(body), contentType: "application/octet-stream" });
    else void req.abort("blockedbyclient");
  });
  return { browser, page };
};

const shoot = async (page: Page, html: string, evaluate?: string) => {
  await page.setContent(html, { waitUntil: "load" });
  if (evaluate) await page.evaluate(evaluate);
  return page.screenshot({
    type: "png",
    omitBackground: true,
    optimizeForSpeed: true,
    clip: { x: 0, y: 0, width: 1080, height: 1080 },
  });
};

const BARE = `<!doctype html><html><body style="margin:0;width:1080px;height:1080px;position:relative;overflow:hidden">
<img src="https://assets.local/photo.jpg" style="position:absolute;left:0;top:0;width:1080px;height:1080px;object-fit:cover">
${TEXTS.map((t) => `<div style="position:absolute;left:${t.x}px;top:${t.y}px;font:${t.fontSize}px Arial,sans-serif;color:${t.color};white-space:pre;transform:translateX(${t.align === "center" ? -50 : t.align === "right" ? -100 : 0}%)">${t.text}</div>`).join("")}
</body></html>`;

/** 2. Our compiler (bundled on the fly) and the same warm page. */
const compilerModule = async () => {
  const out = await build({
    entryPoints: [join(root, "src/image-renderer/compile-html.ts")],
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    logLevel: "silent",
    // The compiler's imports read the Worker's env for the font-catalogue switch; off here.
    plugins: [
      {
        name: "workers-env",
        setup(b) {
          b.onResolve({ filter: /^cloudflare:workers$/ }, () => ({ path: "env", namespace: "stub" }));
          b.onLoad({ filter: /.*/, namespace: "stub" }, () => ({ contents: "export const env = {};" }));
        },
      },
    ],
  });
  return (await import(
    `data:text/javascript;base64,${Buffer.from(out.outputFiles[0]!.contents).toString("base64")}`
  )) as typeof import("../src/image-renderer/compile-html.ts");
};

/** (b) satori + resvg. */
const satoriRun = async () => {
  const { default: satori } = await import("satori");
  const { Resvg } = await import("@resvg/resvg-js");
  const font = readFileSync(join(root, "node_modules/@fontsource/arimo/files/arimo-latin-400-normal.woff"));
  const src = `data:image/jpeg;base64,${photo.toString("base64")}`;
  const el = (
    type: string,
    style: Record<string, unknown>,
    children?: unknown,
    props: Record<string, unknown> = {},
  ) => ({ type, props: { style, children, ...props } });
  const tree = el("div", { display: "flex", position: "relative", width: 1080, height: 1080 }, [
    el(
      "img",
      { position: "absolute", left: 0, top: 0, width: 1080, height: 1080, objectFit: "cover" },
      undefined,
      { src, width: 1080, height: 1080 },
    ),
    ...TEXTS.map((t) =>
      el(
        "div",
        {
          position: "absolute",
          left: t.x,
          top: t.y,
          fontSize: t.fontSize,
          color: t.color,
          fontFamily: "Arimo",
          transform: `translateX(${t.align === "center" ? -50 : t.align === "right" ? -100 : 0}%)`,
        },
        t.text,
      ),
    ),
  ]);
  return timed(RUNS, async () => {
    const svg = await satori(tree as never, {
      width: 1080,
      height: 1080,
      fonts: [{ name: "Arimo", data: font, weight: 400, style: "normal" }],
    });
    new Resvg(svg).render().asPng();
  });
};

const main = async () => {
  console.log(
    `image bench: 1080x1080 PNG, cover photo 4000x3000 + 5 text layers, median of ${RUNS} warm runs`,
  );
  const { browser, page } = await warmPage();
  const { compileImage } = await compilerModule();
  const compiled = compileImage(
    {
      width: 1080,
      height: 1080,
      layers: [
        { type: "image", path: "/image/photo.jpg", x: 0, y: 0, width: 1080, height: 1080, fit: "cover" },
        ...TEXTS.map((t) => ({ type: "text" as const, ...t })),
      ],
    } as never,
    new Map([["/image/photo.jpg", { width: 4000, height: 3000 }]]),
  );
  const html = compiled.html.replaceAll(
    "https://assets.local/image/photo.jpg",
    "https://assets.local/photo.jpg",
  );
  // Interleaved, so both see the same machine load and the same warm browser.
  const bareTimes: number[] = [];
  const ourTimes: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    let t = performance.now();
    await shoot(page, BARE);
    if (i >= 3) bareTimes.push(performance.now() - t);
    t = performance.now();
    await shoot(page, html, "document.fonts.ready.then(() => undefined)");
    if (i >= 3) ourTimes.push(performance.now() - t);
  }
  const bare = median(bareTimes);
  const ours = median(ourTimes);
  await browser.close();
  const satori = await satoriRun();
  const { observed: service, server } = process.env.BENCH_SKIP_SERVICE
    ? { observed: NaN, server: NaN }
    : await serviceRun();
  const row = (name: string, ms: number) =>
    console.log(
      `${name.padEnd(52)} ${ms.toFixed(1).padStart(8)} ms  ${(ms / bare).toFixed(2)}x bare  ${(ms / satori).toFixed(2)}x satori`,
    );
  row("(a) bare Chromium screenshot, static page", bare);
  row("(b) satori + resvg", satori);
  row("our compiler + warm Chromium page", ours);
  if (Number.isNaN(service)) {
    console.log("service: skipped (BENCH_SKIP_SERVICE); targets not judged");
    return;
  }
  row("service: create -> COMPLETED seen by polling", service);
  row("service: job createdAt -> completedAt (server clock)", server);
  console.log(
    `targets: service <= 1.3x bare: ${service <= 1.3 * bare ? "met" : "NOT met"}; not slower than satori: ${service <= satori ? "met" : "NOT met"}; < 400 ms: ${service < 400 ? "met" : "NOT met"}`,
  );
};

await main();
