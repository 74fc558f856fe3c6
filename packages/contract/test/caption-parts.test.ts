/**
 * autoSubtitles' transcription parts (packages/contract/src/caption-parts.ts): the grid the mix is cut near, the
 * seconds a render's frames draw captions of, and the bound on what a chunk transcribes (its deadline counts it).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CAPTION_CUT_SEARCH_SECONDS,
  captionGrid,
  captionSpan,
  transcribedSeconds,
} from "../src/caption-parts.ts";

describe("the grid a mix is cut near", () => {
  it("is every 30 s of output, none within 15 s of the end", () => {
    expect(captionGrid(0)).toEqual([]);
    expect(captionGrid(44.9)).toEqual([]);
    expect(captionGrid(45)).toEqual([30]);
    expect(captionGrid(125)).toEqual([30, 60, 90]);
    expect(captionGrid(3600)).toHaveLength(119);
  });

  it("leaves every part between 26 and 47 s long, the last at least 13 s, wherever the cuts fall", () => {
    fc.assert(
      fc.property(fc.double({ min: 45, max: 3600, noNaN: true }), (duration) => {
        const grid = captionGrid(duration);
        const bounds = [0, ...grid, duration];
        for (let k = 0; k + 1 < bounds.length; k++) {
          // Each end but the video's own moves by the search at most.
          const moving = (k === 0 ? 0 : 1) + (k + 2 === bounds.length ? 0 : 1);
          const shortest = bounds[k + 1]! - bounds[k]! - moving * CAPTION_CUT_SEARCH_SECONDS;
          const longest = bounds[k + 1]! - bounds[k]! + moving * CAPTION_CUT_SEARCH_SECONDS;
          expect(shortest).toBeGreaterThanOrEqual(13 - 1e-9);
          expect(longest).toBeLessThanOrEqual(47 + 1e-9);
        }
      }),
    );
  });
});

describe("what a render transcribes", () => {
  it("is the whole mix without frames, and the parts a chunk's caption span may reach with them", () => {
    expect(transcribedSeconds(125, 25)).toBe(125);
    expect(captionSpan({ from: 750, to: 1500 }, 25)).toEqual({ start: 29.92, end: 60.08 });
    // Frames 0-29.96 s of 125 s: the parts from 0 to at most 32 s and from at least 28 s to at most 62 s.
    expect(transcribedSeconds(125, 25, { from: 0, to: 750 })).toBe(32 + 34);
    // The last quarter (from 93.76 s): only the last part, from at least 88 s to the end.
    expect(transcribedSeconds(125, 25, { from: 2344, to: 3125 })).toBe(37);
    // Never more than the whole.
    expect(transcribedSeconds(40, 25, { from: 0, to: 500 })).toBe(40);
  });
});
