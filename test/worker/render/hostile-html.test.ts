/**
 * Hostile html layers in image jobs, on the real local Browser Rendering (the sealed launcher of
 * scripts/lib/local-chrome.mjs) with scripts enabled: pages that try every way out, loop forever, allocate without end,
 * draw huge canvases, nest frames deeply, read file:// or aim at private addresses. Each is contained (an image or
 * a clean failure within the deadline), the next ordinary render is not held, and the loopback canary counts no
 * request and no packet.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, inject, it, vi } from "vitest";
import { imageDeadlineSeconds } from "@media-render/contract/deadline";
import { browserFor } from "../../../src/image-renderer/image-browser.ts";
import { escapeAttempts } from "../../escape-attempts.ts";
import { RENDER_BROWSER, render } from "./harness.ts";
import { decode } from "./pixels.ts";
import { body, call, json, newAccount } from "../helpers.ts";
import { FULL, figure } from "../faults/scale.ts";

const canary = inject("canary");
const hits = async () =>
  (await (await fetch(`http://127.0.0.1:${canary.httpPort}/__hits`)).json()) as {
    http: number;
    udp: number;
    seen: string[];
  };

const page = (html: string) => ({
  width: 64,
  height: 64,
  backgroundColor: "#0000ff",
  layers: [{ type: "html", html, width: 64, height: 64, enableLibraries: true }],
});
const GREEN = `<body style="margin:0;background:rgb(0,255,0)"></body>`;
const PAINT_RED = "document.body.style.background='rgb(255,0,0)'";

/** The capture deadline these tests run under (IMAGE_CAPTURE_SECONDS of vitest.config.ts; production: 20 s). */
const DEADLINE_MS = imageDeadlineSeconds(0, Number(env.IMAGE_CAPTURE_SECONDS)) * 1000;

/** Renders the ordinary green page; resolves to the milliseconds it took. */
const renderGreen = async () => {
  const started = Date.now();
  expect((await decode(await render(page(GREEN)))).at(32, 32)).toEqual([0, 255, 0, 255]);
  return Date.now() - started;
};

/**
 * An ordinary render on a browser launched for it, as the render after a page that was stopped is (its browser is
 * closed with it): the render object's browser is closed first. Measured in the test itself, on this machine under
 * its load now, it is what the render after a hostile page is held to.
 */
const coldRender = async () => {
  await runInDurableObject(browserFor(env, RENDER_BROWSER), async (object) => {
    const held = object as unknown as { browser?: { close(): Promise<void> }; page?: unknown };
    await held.browser?.close().catch(() => undefined);
    held.browser = undefined;
    held.page = undefined;
  });
  return renderGreen();
};

/** Renders a hostile page: its outcome, how long it took, and how long the next ordinary render took. */
const contain = async (html: string) => {
  const started = Date.now();
  const outcome = await render(page(html)).then(
    async (png) => ({ image: await decode(png) }),
    (e: unknown) => ({ error: String(e) }),
  );
  const tookMs = Date.now() - started;
  return { outcome, tookMs, nextMs: await renderGreen() };
};

/**
 * How much slower than a cold render the render after a hostile page may be: after a page stopped at its deadline it
 * launches a browser too, while the machine takes back what the page held (a few GB after "memory without end"):
 * 1.1-1.2x here (a cold render 2.3 s, the machine loaded by other work); after a page that ended it reuses the
 * browser, 0.4-0.7x. A render held behind the page would wait for the page's deadline and fail, or take it and more.
 * (An absolute bound of 10 s failed at 12.5 s on a machine 2.7 times slower than this one.)
 */
const NEXT_RENDER_RATIO = 4;

const HOSTILE: Record<string, string> = {
  "every way out": escapeAttempts(canary),
  "every way out, in a frame nested five deep": Array.from({ length: 5 }).reduce<string>(
    (inner) => `<iframe srcdoc="${inner.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}"></iframe>`,
    escapeAttempts(canary),
  ),
  "a huge canvas": `<canvas id=c width=32767 height=32767></canvas><script>
    const x = document.getElementById('c').getContext('2d'); x.fillStyle = 'red'; x.fillRect(0, 0, 32767, 32767);
    document.getElementById('c').toDataURL()</script>`,
  "memory without end": `<script>const a = []; for (;;) a.push(new Float64Array(1 << 20))</script>`,
  "file:// reads": `<body style="margin:0;background:rgb(0,255,0)"><iframe id=f src="file:///etc/hostname"></iframe><script>
    fetch('file:///etc/passwd').then(r => r.text()).then(() => { ${PAINT_RED} }, () => {});
    const x = new XMLHttpRequest(); try { x.open('GET', 'file:///etc/passwd', false); x.send(); if (x.responseText) ${PAINT_RED} } catch (e) {}
    document.getElementById('f').onload = () => { try { if (document.getElementById('f').contentDocument.body.innerText) ${PAINT_RED} } catch (e) {} };
  </script></body>`,
  "private addresses": `<img src="http://169.254.169.254/latest/meta-data/"><img src="http://10.0.0.1/x.png">
    <img src="http://[::1]:${canary.httpPort}/v6"><img src="http://localhost:${canary.httpPort}/name">
    <iframe src="http://127.0.0.1:${canary.httpPort}/frame"></iframe>`,
  "an endless loop after load": `<script>addEventListener('load', () => setTimeout(() => { for (;;) {} }, 10))</script>`,
  // (short form: the job below loops before load)
  ...(FULL ? { "an endless loop before load": `<script>for (;;) {}</script>` } : {}),
};

describe("hostile html pages in image jobs", () => {
  it("are contained within the deadline, do not hold the next render, and reach nothing", async () => {
    const before = await hits();
    await renderGreen(); // the fixtures stored and the object's session up: what a cold render need not pay again
    const coldMs = await coldRender();
    let longest = 0;
    let slowestNext = 0;
    const outcomes: Record<string, string> = {};
    for (const [name, html] of Object.entries(HOSTILE)) {
      const { outcome, tookMs, nextMs } = await contain(html);
      longest = Math.max(longest, tookMs);
      slowestNext = Math.max(slowestNext, nextMs);
      // A failure is the deadline's or a crash's, said plainly; an image never shows what a page must not read.
      const verdict =
        "image" in outcome
          ? outcome.image.at(32, 32).join() === "255,0,0,255"
            ? "an image showing what the page read"
            : "image"
          : (outcome.error.match(/deadline|crash|closed|memory|Target/i)?.[0] ?? outcome.error);
      outcomes[name] = verdict;
      expect(verdict, name).toMatch(/^(image|deadline|crash|closed|memory|target)$/i);
      // A browser launched when the last page closed one, the deadline, then closing the browser (2 s at most,
      // image-browser.ts): the launch held to the cold render as the next render is.
      expect(tookMs, name).toBeLessThan(NEXT_RENDER_RATIO * coldMs + DEADLINE_MS + 2000);
      expect(nextMs, `render after ${name} (a cold render: ${coldMs} ms)`).toBeLessThan(
        NEXT_RENDER_RATIO * coldMs,
      );
    }
    await new Promise((r) => setTimeout(r, 2000)); // late packets and requests
    const after = await hits();
    const leaked = after.seen.slice(before.seen.length);
    expect(leaked).toEqual([]);
    figure(
      "hostile image pages contained",
      `${Object.keys(HOSTILE).length} of ${Object.keys(HOSTILE).length}`,
    );
    figure("hostile image page outcomes", JSON.stringify(outcomes));
    figure("hostile image pages: longest to contain (ms)", longest);
    figure("hostile image pages: slowest next render (ms)", slowestNext);
    figure("hostile image pages: a cold render (ms)", coldMs);
    figure("hostile image pages: requests and packets reaching the canary", leaked.length);
  }, 300_000);
});

describe("an image job whose page never settles", () => {
  it("fails at its deadline on the first delivery (no retry), free, with the deadline in its message", async () => {
    const { key, userId } = await newAccount({ tokens: 100 });
    const created = await call(
      "/api/v1/jobs",
      json("POST", { type: "image", config: page(`<script>for (;;) {}</script>`) }, key),
    );
    expect(created.status).toBe(201);
    const { jobId } = (await body<{ jobId: string }>(created)).data!;
    const started = Date.now();
    const job = await vi.waitFor(
      async () => {
        const j = (
          await body<Record<string, unknown>>(
            await call(`/api/v1/jobs/${jobId}`, { headers: { "x-api-key": key } }),
          )
        ).data!;
        if (j.status !== "FAILED" && j.status !== "COMPLETED") throw new Error(`still ${String(j.status)}`);
        return j;
      },
      { timeout: DEADLINE_MS + 20_000, interval: 250 },
    );
    const failedAfter = Date.now() - started;
    expect(job).toMatchObject({ status: "FAILED", tokensUsed: 0 });
    expect(String(job.errorMessage)).toContain(`longer than its deadline of ${DEADLINE_MS / 1000} s`);
    expect(String(job.errorMessage)).not.toMatch(/attempts/);
    const balance = await env.DB.prepare("SELECT token_balance AS b FROM users WHERE id = ?")
      .bind(userId)
      .first<{ b: number }>();
    expect(balance!.b).toBe(100);
    figure("looping image job failed after (ms)", failedAfter);
  }, 120_000);
});
