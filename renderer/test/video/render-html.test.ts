/**
 * Html layers in video jobs, through real Chromium and ffmpeg: a static page composited with its
 * transparent areas showing the clip beneath, animations (CSS, requestAnimationFrame + timers, GSAP
 * and Motion from the local library copies) sampled at known virtual times, the hold of the last frame
 * when the layer window outlasts `duration`, and a page that tries every way out to a real local
 * server without one request arriving.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createHash } from "node:crypto";
import { copyFile, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RENDER_TOOLS } from "../../src/settings.ts";
import { videoSpec } from "../../src/video/spec.ts";
import { rasterizeHtmlLayer } from "../../src/video/html/rasterize-html.ts";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { renderVideo } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { colorAt, near, probeOut } from "./media-helpers.ts";

const BLUE = [0, 0, 255];
const RED = [255, 0, 0];
const GREEN = [0, 255, 0];
const LEFT = { x: 0.02, y: 0.42, w: 0.1, h: 0.16 };
const MID = { x: 0.45, y: 0.42, w: 0.1, h: 0.16 };
const RIGHT = { x: 0.88, y: 0.42, w: 0.1, h: 0.16 };

/** A 60x60 red box vertically centred in a 320x180 page; `style` animates it. */
const box = (extra: string) =>
  `<style>html,body{margin:0}#b{position:absolute;left:0;top:60px;width:60px;height:60px;background:#f00}${extra}</style><div id="b"></div>`;

let dir: string;
let out: string;
let server: Server;
let hits = 0;

beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++;
    res.end("x");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const escape = [
    `<img src="${origin}/img.png"><link rel="stylesheet" href="${origin}/a.css"><script src="${origin}/a.js"></script>`,
    `<iframe src="${origin}/frame"></iframe><video src="${origin}/v.mp4" autoplay></video>`,
    `<script>fetch("${origin}/fetch").catch(()=>{});try{const x=new XMLHttpRequest();x.open("GET","${origin}/xhr");x.send()}catch{}`,
    `try{new WebSocket("ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws")}catch{}`,
    `try{navigator.sendBeacon("${origin}/beacon","x")}catch{};new Image().src="${origin}/img2.png";`,
    `try{new Worker("data:text/javascript,fetch('${origin}/worker')")}catch{}</script>`,
  ].join("");
  dir = await mkdtemp(join(tmpdir(), "video-html-"));
  out = join(dir, "html.mp4");
  const clip = (layer: Record<string, unknown>) => ({
    duration: 2,
    layers: [
      { type: "fill-color", color: "#0000ff" },
      { type: "html", ...layer },
    ],
  });
  await renderVideo({
    jobId: "job_html",
    workDir: dir,
    outPath: out,
    allowLocalFiles: true,
    config: videoConfig({
      width: 320,
      height: 180,
      fps: 10,
      defaults: { transition: null },
      clips: [
        // 0-2 s: static; the left half is painted, the right half is transparent; it also tries the network.
        clip({ html: `<div style="position:absolute;inset:0 50% 0 0;background:#0f0"></div>${escape}` }),
        // 2-4 s: a CSS animation, left → right over 1 s.
        clip({
          animated: true,
          html: box("#b{animation:mv 1s linear forwards}@keyframes mv{to{left:260px}}"),
        }),
        // 4-6 s: requestAnimationFrame (a deliberately slow callback: real time must not matter),
        // and a timer that shows a green bar after 0.5 s. The page's own scripts run only with enableLibraries.
        clip({
          animated: true,
          enableLibraries: true,
          html:
            box(
              "#g{position:absolute;left:130px;top:0;width:60px;height:30px;background:#0f0;display:none}",
            ) +
            `<div id="g"></div><script>let t0;const b=document.getElementById("b");let x=0;
function f(t){t0??=t;for(let i=0;i<4e6;i++)x+=i;b.style.left=Math.min(1,(t-t0)/1000)*260+"px";requestAnimationFrame(f)}
requestAnimationFrame(f);setTimeout(()=>{document.getElementById("g").style.display="block"},500);</script>`,
        }),
        // 6-8 s: GSAP from the local library copy.
        clip({
          animated: true,
          enableLibraries: true,
          html: `${box("")}<script src="https://cdn.jsdelivr.net/npm/gsap@3/dist/gsap.min.js"></script><script>gsap.to("#b",{x:260,duration:1,ease:"none"})</script>`,
        }),
        // 8-10 s: an endless 2 s animation recorded for only 1 s: the window's second half holds frame 9.
        clip({
          animated: true,
          duration: 1,
          html: box("#b{animation:mv 2s linear infinite}@keyframes mv{to{left:260px}}"),
        }),
      ],
    }),
  });
}, 120_000);

afterAll(async () => {
  if (process.env.KEEP_VIDEO) await copyFile(out, process.env.KEEP_VIDEO);
  await closeBrowser();
  await new Promise((r) => server.close(r));
  await rm(dir, { recursive: true, force: true });
});

describe("html layers in video", () => {
  it("renders the whole timeline", async () => {
    const p = await probeOut(out);
    expect(Math.abs(p.duration - 10)).toBeLessThanOrEqual(0.1);
    expect(p.video).toMatchObject({ width: 320, height: 180, fps: 10 });
  });

  it("static: painted areas cover the clip, transparent areas show it", async () => {
    expect(near(await colorAt(out, 1, LEFT), GREEN, 40)).toBe(true);
    expect(near(await colorAt(out, 1, RIGHT), BLUE, 40)).toBe(true);
  });

  it("CSS animation: the box is left at t=0, halfway at 0.5 s, right at 1 s", async () => {
    expect(near(await colorAt(out, 2.0, LEFT), RED, 60)).toBe(true);
    expect(near(await colorAt(out, 2.0, RIGHT), BLUE, 60)).toBe(true);
    expect(near(await colorAt(out, 2.5, MID), RED, 60)).toBe(true);
    expect(near(await colorAt(out, 3.0, RIGHT), RED, 60)).toBe(true);
    expect(near(await colorAt(out, 3.0, LEFT), BLUE, 60)).toBe(true);
  });

  it("requestAnimationFrame and timers follow the virtual clock", async () => {
    expect(near(await colorAt(out, 4.0, LEFT), RED, 60)).toBe(true);
    expect(near(await colorAt(out, 4.5, MID), RED, 60)).toBe(true);
    expect(near(await colorAt(out, 5.0, RIGHT), RED, 60)).toBe(true);
    const bar = { x: 0.43, y: 0.02, w: 0.14, h: 0.1 };
    expect(near(await colorAt(out, 4.3, bar), BLUE, 60)).toBe(true);
    expect(near(await colorAt(out, 4.6, bar), GREEN, 60)).toBe(true);
  });

  it("GSAP (local copy, CDN tag stripped) runs on the virtual clock", async () => {
    expect(near(await colorAt(out, 6.0, LEFT), RED, 60)).toBe(true);
    expect(near(await colorAt(out, 6.5, MID), RED, 60)).toBe(true);
    expect(near(await colorAt(out, 7.0, RIGHT), RED, 60)).toBe(true);
  });

  it("holds the last recorded frame when the window is longer than duration", async () => {
    // Frame 9 (0.9 s of a 2 s sweep) is at ~117 px: the middle region, and it stays there.
    expect(near(await colorAt(out, 8.95, MID), RED, 60)).toBe(true);
    expect(near(await colorAt(out, 9.9, MID), RED, 60)).toBe(true);
    expect(near(await colorAt(out, 9.9, RIGHT), BLUE, 60)).toBe(true);
  });

  it("static with wait: captured at virtual time `wait`", async () => {
    // A job of its own: the grammar allows at most 5 html layers per job.
    const waited = join(dir, "wait.mp4");
    await renderVideo({
      jobId: "job_html_wait",
      workDir: dir,
      outPath: waited,
      config: videoConfig({
        width: 320,
        height: 180,
        fps: 10,
        clips: [
          {
            duration: 1,
            layers: [
              { type: "fill-color", color: "#0000ff" },
              // Captured after 1 s of virtual time: the 1 s slide has finished.
              {
                type: "html",
                wait: 1,
                html: box("#b{animation:mv 1s linear forwards}@keyframes mv{to{left:260px}}"),
              },
            ],
          },
        ],
      }),
    });
    expect(near(await colorAt(waited, 0.1, RIGHT), RED, 60)).toBe(true);
    expect(near(await colorAt(waited, 0.1, LEFT), BLUE, 60)).toBe(true);
  });

  it("gives the page no network: the local server never sees a request", () => {
    expect(hits).toBe(0);
  });
});

describe("html layers in a transparent webm", () => {
  it("keeps the page's transparency in the alpha channel", async () => {
    const webm = join(dir, "alpha.webm");
    await renderVideo({
      jobId: "job_html_alpha",
      workDir: dir,
      outPath: webm,
      allowLocalFiles: true,
      config: videoConfig({
        width: 320,
        height: 180,
        fps: 10,
        format: "webm",
        clips: [
          {
            duration: 1,
            layers: [
              { type: "html", html: `<div style="position:absolute;inset:0 50% 0 0;background:#0f0"></div>` },
            ],
          },
        ],
      }),
    });
    const left = await colorAt(webm, 0.5, LEFT, true);
    const right = await colorAt(webm, 0.5, RIGHT, true);
    expect(near(left, [0, 255, 0, 255], 40)).toBe(true);
    expect(right[3]).toBeLessThan(20);
  });
});

describe("html capture determinism", () => {
  it("draws byte-identical frames with one or two capture processes (seeded Math.random, virtual clock)", async () => {
    const spec = videoSpec(
      videoConfig({ width: 160, height: 90, fps: 10, clips: [{ layers: [{ type: "pause" }] }] }),
    );
    const layer = {
      type: "html" as const,
      animated: true,
      duration: 1,
      enableLibraries: true,
      html: `<div id="d" style="position:absolute;width:20px;height:20px;background:#fff"></div><script>
const d=document.getElementById("d");(function f(){d.style.left=Math.random()*140+"px";d.style.top=(Date.now()%1000)/12+"px";requestAnimationFrame(f)})()</script>`,
    };
    const digests: string[][] = [];
    for (const workers of [1, 2]) {
      const tools = { ...DEFAULT_RENDER_TOOLS, htmlCaptureWorkers: workers };
      const work = await mkdtemp(join(dir, `det${workers}-`));
      await rasterizeHtmlLayer(
        spec,
        { key: "g0", path: "globalLayers[0]", clip: -1, layer, window: 1 },
        work,
        tools,
      );
      const files = (await readdir(work)).filter((f) => f.endsWith(".png")).sort();
      digests.push(
        await Promise.all(
          files.map(async (f) =>
            createHash("sha256")
              .update(await readFile(join(work, f)))
              .digest("hex"),
          ),
        ),
      );
    }
    expect(digests[0]).toHaveLength(10);
    expect(new Set(digests[0]).size).toBeGreaterThan(5);
    expect(digests[1]).toEqual(digests[0]);
  });
});

describe("one animated html layer is streamed into ffmpeg", () => {
  it("draws the same animation without writing frames to disk, also in a later clip", async () => {
    const work = await mkdtemp(join(tmpdir(), "video-html-stream-"));
    const streamed = join(work, "streamed.mp4");
    try {
      await renderVideo({
        jobId: "job_stream",
        workDir: work,
        outPath: streamed,
        config: videoConfig({
          width: 320,
          height: 180,
          fps: 10,
          defaults: { transition: null },
          clips: [
            { duration: 1, layers: [{ type: "fill-color", color: "#00ff00" }] },
            {
              duration: 2,
              layers: [
                { type: "fill-color", color: "#0000ff" },
                {
                  type: "html",
                  animated: true,
                  duration: 1.5,
                  html: box("#b{animation:mv 1s linear forwards}@keyframes mv{to{left:260px}}"),
                },
              ],
            },
          ],
        }),
      });
      expect((await probeOut(streamed)).duration).toBeCloseTo(3, 1);
      expect(near(await colorAt(streamed, 0.5, MID), GREEN, 40)).toBe(true);
      expect(near(await colorAt(streamed, 1.0, LEFT), RED, 60)).toBe(true);
      expect(near(await colorAt(streamed, 1.5, MID), RED, 60)).toBe(true);
      expect(near(await colorAt(streamed, 2.0, RIGHT), RED, 60)).toBe(true);
      // Held after the 1.5 s recording ends.
      expect(near(await colorAt(streamed, 2.8, RIGHT), RED, 60)).toBe(true);
      expect((await readdir(work)).filter((f) => f.endsWith(".png"))).toEqual([]);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});

describe("an html layer's page has the layer's size", () => {
  it("gives html and body the canvas's height, so a root block of height 100% fills it", async () => {
    const sized = join(dir, "sized.mp4");
    const root = (colour: string, extra = "") =>
      `<div style="height:100%;${extra}background:${colour}"></div>`;
    await renderVideo({
      jobId: "job_html_sized",
      workDir: dir,
      outPath: sized,
      config: videoConfig({
        width: 160,
        height: 90,
        fps: 10,
        defaults: { transition: null },
        clips: [
          {
            duration: 0.5,
            layers: [
              { type: "fill-color", color: "#0000ff" },
              // The whole canvas; the left half painted from top to bottom.
              { type: "html", css: "body{margin:0}", html: root("#0f0", "width:50%;") },
            ],
          },
          {
            duration: 0.5,
            layers: [
              { type: "fill-color", color: "#0000ff" },
              // A layer of its own size, the page as JsonCut's docs write it (the browser's body margin kept).
              { type: "html", width: 80, height: 46, position: "top-left", html: root("#f00") },
            ],
          },
        ],
      }),
    });
    const bottomLeft = { x: 0.05, y: 0.85, w: 0.3, h: 0.1 };
    const bottomRight = { x: 0.65, y: 0.85, w: 0.3, h: 0.1 };
    expect(near(await colorAt(sized, 0.2, bottomLeft), GREEN, 40)).toBe(true);
    expect(near(await colorAt(sized, 0.2, bottomRight), BLUE, 40)).toBe(true);
    // Inside the 80x46 layer, below its 8 px margin down to its bottom edge: red; under the layer: blue.
    expect(near(await colorAt(sized, 0.7, { x: 0.15, y: 0.25, w: 0.3, h: 0.2 }), RED, 60)).toBe(true);
    expect(near(await colorAt(sized, 0.7, { x: 0.15, y: 0.6, w: 0.3, h: 0.2 }), BLUE, 40)).toBe(true);
  });
});
