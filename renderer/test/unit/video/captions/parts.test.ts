/**
 * autoSubtitles' parts (captions/parts.ts), the pure half: how much of the mix a render makes, which parts it
 * transcribes, which chunk stores each, and the join's merge. Generated splits check that every part is stored by
 * exactly one chunk, which also transcribes it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { captionGrid } from "@media-render/contract/caption-parts";
import { Defect } from "@media-render/contract/faults";
import {
  mergeParts,
  mixNeeded,
  ownedParts,
  partsReached,
  type PartWords,
} from "../../../../src/video/captions/parts.ts";

/** Parts of a `duration` s mix cut at `cuts` (seconds). */
const partsAt = (cuts: number[], duration: number): PartWords[] => {
  const bounds = [0, ...cuts, duration];
  return cuts.concat(duration).map((_, index) => ({
    index,
    start: bounds[index]!,
    end: bounds[index + 1]!,
    language: "en",
    words: [],
  }));
};

describe("the mix a render makes", () => {
  it("is all of it for the whole timeline, and up to the first cut past a chunk's frames otherwise", () => {
    expect(mixNeeded(125, 25)).toEqual({ grid: [30, 60, 90] });
    // Frames 0-749 (0-30 s): the cut near 60 s (58-62 s) is certainly past them; the mix is made to 62.25 s.
    expect(mixNeeded(125, 25, { from: 0, to: 750 })).toEqual({ grid: [30, 60], seconds: 62.25 });
    // The last chunk needs the end: the whole mix.
    expect(mixNeeded(125, 25, { from: 2250, to: 3125 })).toEqual({ grid: [30, 60, 90] });
    // A short video is one part: all of it, whatever the frames.
    expect(mixNeeded(40, 25, { from: 0, to: 10 })).toEqual({ grid: [] });
  });
});

describe("the parts a render transcribes", () => {
  const parts = partsAt([29.2, 61, 88.5], 125);

  it("are every part for the whole timeline, and those a chunk's frames reach (two frames either side)", () => {
    expect(partsReached(parts, 25).map((p) => p.index)).toEqual([0, 1, 2, 3]);
    expect(partsReached(parts, 25, { from: 0, to: 750 }).map((p) => p.index)).toEqual([0, 1]);
    expect(partsReached(parts, 25, { from: 750, to: 1500 }).map((p) => p.index)).toEqual([1]);
    // A frame range ending two frames before a part still reaches it (a cue fades in over the frame before).
    expect(partsReached(parts, 25, { from: 750, to: 1524 }).map((p) => p.index)).toEqual([1, 2]);
    expect(partsReached(parts, 25, { from: 750, to: 1523 }).map((p) => p.index)).toEqual([1]);
  });

  it("are stored by exactly one chunk each, which transcribes them too, however the job is split", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10, max: 400 }),
        fc.constantFrom(10, 24, 25, 30),
        fc.integer({ min: 2, max: 12 }),
        fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: 20, maxLength: 20 }),
        (seconds, fps, count, jitter) => {
          const frames = seconds * fps;
          const duration = frames / fps;
          const cuts = captionGrid(duration).map((g, i) => g + jitter[i % jitter.length]!);
          const all = partsAt(cuts, duration);
          const owners = all.map(() => 0);
          for (let index = 0; index < count; index++) {
            // Any contiguous split (the chunks' balance decides where; ownership must not depend on it).
            const window = {
              start: Math.floor((frames * index) / count),
              end: Math.floor((frames * (index + 1)) / count),
            };
            const reached = partsReached(all, fps, { from: window.start, to: window.end });
            for (const p of ownedParts(reached, window, fps)) owners[p.index]!++;
            // What it owns it reached: the owned parts of all equal those of what it transcribed.
            expect(ownedParts(all, window, fps)).toEqual(ownedParts(reached, window, fps));
          }
          expect(owners).toEqual(all.map(() => 1));
        },
      ),
    );
  });
});

describe("the join's merge of the chunks' parts", () => {
  const parts = partsAt([29.2, 61], 80);

  it("puts them in order, whatever chunk stored them", () => {
    expect(mergeParts([[parts[2]!], [], [parts[0]!, parts[1]!]], 80)).toEqual(parts);
  });

  it("refuses parts that do not cover the timeline exactly once", () => {
    expect(() => mergeParts([[parts[0]!, parts[2]!]], 80)).toThrow(Defect);
    expect(() =>
      mergeParts(
        [
          [parts[0]!, parts[1]!],
          [parts[1]!, parts[2]!],
        ],
        80,
      ),
    ).toThrow(Defect);
    expect(() => mergeParts([[parts[0]!, parts[1]!]], 80)).toThrow(/do not reach the end/);
    expect(() => mergeParts([[parts[0]!, { ...parts[1]!, start: 30 }, parts[2]!]], 80)).toThrow(
      /do not fit together at part 1/,
    );
    expect(() => mergeParts([], 80)).toThrow(Defect);
  });
});
