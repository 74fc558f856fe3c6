/**
 * The moving words of the karaoke and pop presets (word-motion.ts): one overlay per word from the frame it is said,
 * driven by an expression of the frame's time, so a window starting inside a word draws the same value there.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { popScale, POP_FROM, wipeWidth } from "../../../../src/video/captions/word-motion.ts";
import type { RasterAsset, RasterFrame, WordMotion } from "../../../../src/video/types.ts";
import { compileOne } from "../../../helpers/graph-spec.ts";

/** ffmpeg's expression functions used here, in JavaScript, to evaluate the expressions at chosen times. */
const evaluate = (expr: string, t: number): number =>
  new Function("t", "clip", "pow", "floor", `return ${expr};`)(
    t,
    (v: number, a: number, b: number) => Math.min(b, Math.max(a, v)),
    Math.pow,
    Math.floor,
  ) as number;

const word = (x: number, start: number, end: number): { frame: RasterFrame; start: number; end: number } => ({
  frame: { path: "pipe:0", crop: { x, y: 40 }, x: 10 + x, y: 20, width: 30, height: 20 },
  start,
  end,
});
const asset = (motion: WordMotion["motion"]): RasterAsset => ({
  frames: [{ path: "pipe:0", crop: { x: 0, y: 0 }, x: 10, y: 20, width: 100, height: 40 }],
  times: [0],
  words: { motion, words: [word(0, 0, 0.4), word(40, 0.5, 0.9)] },
});
const caption = { type: "title", text: "one two", style: "word-by-word", start: 0.2, stop: 1.2 };

describe("wipeWidth and popScale", () => {
  it("fills a word's width over the time it is said, on even pixels, clamped before and after", () => {
    const w = wipeWidth(1, 2, 50);
    expect([0.5, 1, 1.25, 1.5, 2, 3].map((t) => evaluate(w, t))).toEqual([0, 0, 12, 24, 50, 50]);
  });

  it("scales a word from POP_FROM to its size over 0.15 s, growing on every frame, then holds", () => {
    const s = popScale(1);
    const at = [0.9, 1, 1.04, 1.08, 1.12, 1.15, 2].map((t) => evaluate(s, t));
    expect(at[0]).toBeCloseTo(POP_FROM);
    expect(at[1]).toBeCloseTo(POP_FROM);
    for (let i = 2; i < 6; i++) expect(at[i]!).toBeGreaterThan(at[i - 1]!);
    expect(at[5]).toBeCloseTo(1);
    expect(at[6]).toBeCloseTo(1);
  });
});

describe("a caption's moving words in the graph", () => {
  it("karaoke: each word from its first frame to the caption's end, wiped by its own times on the output clock", () => {
    const { ctx, out } = compileOne(caption, { duration: 2, rasters: { c0l0: asset("wipe") } });
    expect(out!.more).toHaveLength(2);
    // The second word is said 0.5 s into the layer (output 0.7 s): from frame 0.5 x 25 = 12.5 -> 13 of the layer,
    // output frame 5 + 13 = 18, for the layer's 25 - 13 = 12 frames left.
    const second = ctx.filters.find((f) => f.includes("crop=30:20:40:40"))!;
    expect(second).toContain(
      "loop=loop=11:size=1,settb=1/25,setpts=N+18,pad=w=60:h=20:x=30:y=0:color=black@0",
    );
    expect(second).toContain(`crop=w=30:h=20:x='${wipeWidth(0.7, 1.1, 30)}':y=0`);
    expect(out!.more![1]).toMatchObject({ x: `20+${wipeWidth(0.7, 1.1, 30)}`, y: 20 });
  });

  it("pop: scales each word about its centre", () => {
    const { ctx, out } = compileOne(caption, { duration: 2, rasters: { c0l0: asset("pop") } });
    const first = ctx.filters.find((f) => f.includes("crop=30:20:0:40"))!;
    expect(first).toContain(`scale=w='max(2,2*trunc(iw*${popScale(0.2)}/2))'`);
    expect(first).toContain(":eval=frame");
    expect(out!.more![0]).toMatchObject({ x: "25-overlay_w/2", y: "30-overlay_h/2" });
  });

  it("a window starting inside a word draws it from there with the same expression; a word after it is left out", () => {
    const whole = compileOne(caption, { duration: 2, rasters: { c0l0: asset("wipe") } });
    const part = compileOne(caption, {
      duration: 2,
      rasters: { c0l0: asset("wipe") },
      range: { from: 20, to: 21 },
    });
    const early = compileOne(caption, {
      duration: 2,
      rasters: { c0l0: asset("wipe") },
      range: { from: 6, to: 8 },
    });
    const pick = (c: typeof whole) => c.ctx.filters.find((f) => f.includes("crop=30:20:40:40"))!;
    expect(pick(part)).toContain("loop=loop=0:size=1,settb=1/25,setpts=N+20,");
    expect(pick(part).split("setpts=N+20")[1]).toBe(pick(whole).split("setpts=N+18")[1]);
    expect(part.out!.more![1]!.x).toBe(whole.out!.more![1]!.x);
    expect(early.out!.more).toHaveLength(1);
  });

  it("any window draws each word on the frames the whole render draws it, with the same motion (generated)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<WordMotion["motion"]>("wipe", "pop"),
        fc.array(
          fc.tuple(
            fc.double({ min: 0, max: 0.95, noNaN: true }),
            fc.double({ min: 0, max: 0.5, noNaN: true }),
          ),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        // The caption is on output frames 5-29 (0.2-1.2 s at 25 fps).
        fc.integer({ min: 5, max: 29 }),
        fc.integer({ min: 1, max: 25 }),
        (motion, said, from, length) => {
          const words = said.map(([start, d], i) => word(40 * i, start, start + d));
          const rasters = { c0l0: { ...asset(motion), words: { motion, words } } };
          const to = Math.min(30, from + length);
          const whole = compileOne(caption, { duration: 2, rasters });
          const part = compileOne(caption, { duration: 2, rasters, range: { from, to } });
          /** Each word's chain: the output frames it covers and the filters after its timestamps. */
          const chains = (c: typeof whole) =>
            new Map(
              c.ctx.filters
                .filter((f) => /crop=30:20:\d+:40/.test(f))
                .map((f) => {
                  const [, x, loop, first, rest] = f.match(
                    /crop=30:20:(\d+):40.*loop=loop=(\d+).*setpts=N\+(\d+)(.*)$/,
                  )!;
                  // Labels are numbered in compile order: the motion is the text before the chain's label.
                  const motionOf = rest!.replace(/\[\w+\]$/, "");
                  return [
                    x,
                    { from: Number(first), to: Number(first) + Number(loop) + 1, rest: motionOf },
                  ] as const;
                }),
            );
          const all = chains(whole);
          for (const [x, chain] of chains(part)) {
            const w = all.get(x)!;
            expect(chain.rest).toBe(w.rest);
            expect(chain.from).toBe(Math.max(w.from, from));
            expect(chain.to).toBe(Math.min(w.to, to));
          }
          // The window draws exactly the words the whole render draws on its frames.
          const inWindow = [...all].filter(([, w]) => w.from < to && w.to > from).map(([x]) => x);
          expect([...chains(part).keys()].sort()).toEqual(inWindow.sort());
        },
      ),
    );
  });
});
