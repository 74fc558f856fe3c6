/**
 * Text fitted into its box (minFontSize/maxFontSize): the contract's fitting function (packages/contract/src/fit-text.ts)
 * in the renderer's Chromium, held by fast-check to "the largest size that fits, one pixel more does not", fit judged
 * by the page's own layout independently of the function's measuring; and titles, subtitles and news titles of a
 * video job fitted through the real renderer, read off the frames' pixels.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { FIT_ATTRIBUTES, FIT_TEXT_FUNCTION } from "@media-render/contract/fit-text";
import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RENDER_TOOLS } from "../../src/settings.ts";
import { closeBrowser, openPage, servePageFiles } from "../../src/video/raster/browser.ts";
import { renderVideo } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { frameAt, type Frame } from "../captions/frame-pixels.ts";
import { FIXTURES } from "./media-helpers.ts";

const FONT = `${FIXTURES}/PatuaOne-Regular.ttf`;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "video-fit-text-"));
});
afterAll(async () => {
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

interface Case {
  words: string[];
  width: number;
  height: number | null;
  wrap: boolean;
  lineHeight: number;
  min: number;
  max: number;
}

/**
 * The case on a page in the uploaded font: the fitting function's size, and for that size and one pixel more whether
 * the text fits as the page lays it out (measured here, not by the function): no word wider than the box (each word
 * alone, in an element of its own; the whole line when not wrapping), and the block no taller than the height bound.
 */
const judge = (page: Page, c: Case) =>
  page.evaluate(
    (fitSource: string, attrs: typeof FIT_ATTRIBUTES, c: Case) => {
      const el = document.getElementById("t")!;
      const style = `position:absolute;left:7px;top:5px;padding:3px 5px;font-family:"fit";line-height:${c.lineHeight};white-space:${c.wrap ? "normal" : "pre"};`;
      el.setAttribute("style", `${style}width:${c.width}px;font-size:${c.max}px`);
      el.textContent = c.words.join(" ");
      el.setAttribute(attrs.min, String(c.min));
      el.setAttribute(attrs.max, String(c.max));
      if (c.height === null) el.removeAttribute(attrs.height);
      else el.setAttribute(attrs.height, String(c.height));
      const [size] = new Function(`return ${fitSource}`)()([el]) as number[];
      const probe = document.getElementById("probe")!;
      const fitsAt = (s: number) => {
        el.style.fontSize = `${s}px`;
        probe.setAttribute("style", `${style}white-space:pre;font-size:${s}px`);
        // Wrapping, each word must fit alone; on one line, the whole text.
        const widest = Math.max(
          ...(c.wrap ? c.words : [c.words.join(" ")]).map((w) => {
            probe.textContent = w;
            return probe.getBoundingClientRect().width - 10;
          }),
        );
        const h = el.getBoundingClientRect().height;
        return widest <= c.width + 0.02 && (c.height === null || h <= c.height + 0.02);
      };
      return { size: size!, fits: fitsAt(size!), fitsOneMore: fitsAt(Math.floor(size!) + 1) };
    },
    FIT_TEXT_FUNCTION,
    FIT_ATTRIBUTES,
    c,
  );

describe("the fitting function in Chromium", () => {
  it("answers the largest whole size in the range at which the text fits (max when it fits, min when nothing does)", async () => {
    const page = await openPage(DEFAULT_RENDER_TOOLS, 800, 600);
    try {
      servePageFiles(page, [FONT]);
      await page.evaluate(async (font: string) => {
        document.open();
        document.write(
          `<!doctype html><html><head><style>@font-face{font-family:"fit";src:url("${font}")}` +
            `html,body{margin:0}</style></head><body><div id="t"></div><div id="probe"></div></body></html>`,
        );
        document.close();
        await Promise.all([...document.fonts].map((f) => f.load()));
      }, pathToFileURL(FONT).href);
      const word = fc.stringMatching(/^[A-Za-z]{1,14}[,.-]?$/);
      const arbitrary = fc
        .record({
          words: fc.array(word, { minLength: 1, maxLength: 9 }),
          width: fc.integer({ min: 40, max: 420 }),
          height: fc.option(fc.integer({ min: 20, max: 300 }), { nil: null }),
          wrap: fc.boolean(),
          lineHeight: fc.constantFrom(1, 1.2, 1.5),
          min: fc.integer({ min: 4, max: 40 }),
          span: fc.integer({ min: 0, max: 120 }),
        })
        .map(({ span, ...c }): Case => ({ ...c, max: c.min + span }));
      await fc.assert(
        fc.asyncProperty(arbitrary, async (c) => {
          const { size, fits, fitsOneMore } = await judge(page, c);
          expect(size).toBeGreaterThanOrEqual(c.min);
          expect(size).toBeLessThanOrEqual(c.max);
          // The maximum only when the text fits at it (or it is the minimum too); below it, a whole size one pixel under
          // one that does not fit, and one that fits unless it is the minimum (nothing fits).
          const verdict =
            size === c.max
              ? c.min === c.max || fits
              : Number.isInteger(size) && !fitsOneMore && (size === c.min || fits);
          expect(verdict, JSON.stringify({ size, fits, fitsOneMore })).toBe(true);
        }),
        { numRuns: 150 },
      );
    } finally {
      await page.close();
    }
  });
});

/** The bounding box of the near-white pixels of `frame` inside rows [top, bottom). */
const inkBox = (frame: Frame, top = 0, bottom = frame.height) => {
  let box: { left: number; right: number; top: number; bottom: number } | null = null;
  for (let y = top; y < bottom; y++)
    for (let x = 0; x < frame.width; x++) {
      const i = (y * frame.width + x) * 3;
      if (frame.data[i]! < 200 || frame.data[i + 1]! < 200 || frame.data[i + 2]! < 200) continue;
      box = box
        ? {
            left: Math.min(box.left, x),
            right: Math.max(box.right, x),
            top: Math.min(box.top, y),
            bottom: Math.max(box.bottom, y),
          }
        : { left: x, right: x, top: y, bottom: y };
    }
  return box;
};

describe("fitted text in a video job", () => {
  const W = 320;
  const H = 180;
  const LONG = "Supercalifragilistic";
  const still = { zoomDirection: null, animationDuration: 0.1 } as const;
  const clip = (layer: Record<string, unknown>) => ({
    duration: 1,
    layers: [{ type: "fill-color", color: "#000000" }, layer],
  });
  let out: string;
  beforeAll(async () => {
    out = join(dir, "fit.mp4");
    await renderVideo({
      jobId: "job_fit_text",
      workDir: dir,
      outPath: out,
      allowLocalFiles: true,
      config: videoConfig({
        width: W,
        height: H,
        fps: 10,
        defaults: { transition: null, layer: { fontPath: FONT, textColor: "#ffffff" } },
        clips: [
          clip({ type: "title", text: "Hi", minFontSize: 8, maxFontSize: 90, ...still }),
          clip({ type: "title", text: LONG, minFontSize: 8, maxFontSize: 90, ...still }),
          clip({ type: "title", text: LONG, fontSize: 90, ...still }),
          clip({ type: "subtitle", text: LONG, minFontSize: 8, maxFontSize: 90, backgroundColor: "#000000" }),
          clip({ type: "news-title", text: LONG, minFontSize: 8, maxFontSize: 90 }),
        ],
      }),
    });
  }, 120_000);

  it("draws a short title at maxFontSize and a long one smaller, inside the title's box (80 % of the width)", async () => {
    type Box = NonNullable<ReturnType<typeof inkBox>>;
    const [short, long, fixed] = (await Promise.all(
      [0.5, 1.5, 2.5].map(async (t) => inkBox(await frameAt(out, t, W, H))!),
    )) as [Box, Box, Box];
    const h = (b: Box) => b.bottom - b.top + 1;
    const w = (b: Box) => b.right - b.left + 1;
    // The short title is as tall as a title at 90 px would draw it ("Hi" has no descender; cap height ~0.7 em).
    expect(h(short)).toBeGreaterThan(90 * 0.55);
    // The long word at 90 px does not fit the title's box (the title breaks it over lines); fitted, it is on one line
    // inside the box (80 % of the width) and nearly fills it.
    expect(h(fixed)).toBeGreaterThan(h(short) * 1.5);
    expect(w(long)).toBeLessThanOrEqual(W * 0.8);
    expect(w(long)).toBeGreaterThan(W * 0.8 * 0.85);
    expect(h(long)).toBeLessThan(h(short) * 0.5);
    // Whole and centred: a box drawn narrower than its text would lose its last letter to a second, clipped line.
    expect(Math.abs(long.left - (W - 1 - long.right))).toBeLessThanOrEqual(4);
  });

  it("fits a subtitle and a news title into the frame's width, padding included", async () => {
    for (const t of [3.9, 4.9]) {
      const band = inkBox(await frameAt(out, t, W, H))!;
      expect(band.left).toBeGreaterThan(0);
      expect(band.right).toBeLessThan(W - 1);
      expect(band.right - band.left + 1).toBeGreaterThan(W * 0.6);
    }
    const sub = inkBox(await frameAt(out, 3.9, W, H))!;
    expect(Math.abs(sub.left - (W - 1 - sub.right))).toBeLessThanOrEqual(4);
  });
});
