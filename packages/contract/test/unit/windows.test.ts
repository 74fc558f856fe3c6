/**
 * Windows of the timeline (src/windows.ts): a split job's chunks cover every frame once, in order, each at least a
 * frame, and share the estimated work evenly (a chunk of photos is shorter than a chunk of titles).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildTimeline } from "../../src/timeline.ts";
import { chunkWindow, chunkWindows, type BalanceInput } from "../../src/windows.ts";

const LAYER_TYPES = ["image", "video", "title", "fill-color", "gl", "html"] as const;

const config = fc.record({
  fps: fc.integer({ min: 1, max: 60 }),
  clips: fc.array(
    fc.record({
      duration: fc.integer({ min: 1, max: 200 }).map((d) => d / 10),
      layers: fc.array(fc.record({ type: fc.constantFrom(...LAYER_TYPES), animated: fc.boolean() }), {
        maxLength: 4,
      }),
      transition: fc.option(fc.record({ name: fc.constant("fade"), duration: fc.constantFrom(0.2, 0.5) }), {
        nil: undefined,
      }),
    }),
    { minLength: 1, maxLength: 12 },
  ),
});

/** The estimated work of frames [start, end): 1 a frame plus what chunkWindows counts of each layer shown. */
const costOf = (windows: { start: number; end: number }[], at: (f: number) => number) =>
  windows.map((w) => {
    let sum = 0;
    for (let f = w.start; f < w.end; f++) sum += at(f);
    return sum;
  });

describe("chunkWindows", () => {
  it("puts every frame in exactly one chunk, in order, each at least one frame", () => {
    fc.assert(
      fc.property(config, fc.integer({ min: 1, max: 64 }), (c, count) => {
        const timeline = buildTimeline(c as never);
        fc.pre(timeline.totalFrames >= count);
        const windows = chunkWindows(c as BalanceInput, timeline, count);
        expect(windows).toHaveLength(count);
        expect(windows[0]!.start).toBe(0);
        expect(windows.at(-1)!.end).toBe(timeline.totalFrames);
        for (let i = 0; i < count; i++) {
          expect(windows[i]!.end).toBeGreaterThan(windows[i]!.start);
          expect(windows[i]!.start).toBe(i === 0 ? 0 : windows[i - 1]!.end);
          expect(chunkWindow(c as BalanceInput, timeline, { index: i, count })).toEqual(windows[i]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("shares the estimated work evenly: no chunk more than a frame's work over its share", () => {
    fc.assert(
      fc.property(config, fc.integer({ min: 2, max: 16 }), (c, count) => {
        const timeline = buildTimeline(c as never);
        fc.pre(timeline.totalFrames >= count * 4);
        // The cost of frame f by the rule the module states, computed naively here.
        const at = (f: number) => {
          let cost = 1;
          c.clips.forEach((clip, i) => {
            const t = timeline.clips[i]!;
            if (f < t.startFrame || f >= t.startFrame + t.frames) return;
            for (const l of clip.layers)
              cost +=
                l.type === "image"
                  ? 2.3
                  : l.type === "video"
                    ? 2
                    : l.type === "gl"
                      ? 3
                      : l.type === "html" && l.animated
                        ? 5
                        : 0.25;
          });
          return cost;
        };
        const costs = costOf(chunkWindows(c as BalanceInput, timeline, count), at);
        const total = costs.reduce((a, b) => a + b, 0);
        const heaviestFrame = Math.max(...Array.from({ length: timeline.totalFrames }, (_, f) => at(f)));
        for (const cost of costs.slice(0, -1))
          expect(cost).toBeLessThanOrEqual(total / count + heaviestFrame + 1e-6);
      }),
      { numRuns: 200 },
    );
  });

  it("cuts a photo clip followed by a title clip of the same length before their boundary", () => {
    const c = {
      fps: 10,
      clips: [
        { duration: 10, layers: [{ type: "image" }, { type: "title" }] },
        { duration: 10, layers: [{ type: "fill-color" }, { type: "title" }] },
      ],
    };
    const [first, second] = chunkWindows(c, buildTimeline(c as never), 2);
    // Photo frames cost 1 + 2.3 + 0.25 (355 in all), title frames 1 + 0.25 + 0.25 (150): half the work, 252.5, is
    // reached after 72 photo frames.
    expect(first).toEqual({ start: 0, end: 72 });
    expect(second).toEqual({ start: 72, end: 200 });
  });
});
