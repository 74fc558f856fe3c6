/** Caption presets (presets.ts): what each asks the rasteriser for, the one-word cues, and the words' times. */
import { describe, expect, it } from "vitest";
import {
  drawnCues,
  presetMarks,
  PRESET_DEFAULTS,
  wordTimes,
} from "../../../../src/video/captions/presets.ts";
import type { Cue } from "../../../../src/video/captions/layout.ts";

const cue: Cue = {
  start: 1,
  end: 3,
  lines: [
    [
      { text: "go", start: 1, end: 1.3 },
      { text: "all", start: 1.5, end: 1.9 },
    ],
    [{ text: "together", start: 2.2, end: 2.7 }],
  ],
};

describe("caption presets", () => {
  it("karaoke wipes words in highlightColor (default yellow); box boxes the word said; pop moves every word", () => {
    expect(presetMarks({ preset: "karaoke" })).toEqual({
      wordMotion: "wipe",
      fillColor: PRESET_DEFAULTS.karaokeColor,
      showAll: true,
    });
    expect(presetMarks({ preset: "karaoke", highlightColor: "#00ff00" }).fillColor).toBe("#00ff00");
    expect(presetMarks({ preset: "box" })).toEqual({ wordBox: PRESET_DEFAULTS.boxColor, showAll: true });
    expect(presetMarks({ preset: "pop" })).toEqual({ wordMotion: "pop" });
    expect(presetMarks({ preset: "one-word" })).toEqual({ showAll: true });
  });

  it("one-word: a cue per word, each until the next starts, the last until its cue ends; other presets keep cues", () => {
    const drawn = drawnCues([cue], { preset: "one-word" });
    expect(
      drawn.map((c) => [
        c.lines
          .flat()
          .map((w) => w.text)
          .join(" "),
        c.start,
        c.end,
      ]),
    ).toEqual([
      ["go", 1, 1.5],
      ["all", 1.5, 2.2],
      ["together", 2.2, 3],
    ]);
    expect(drawnCues([cue], { preset: "karaoke" })).toEqual([cue]);
    expect(drawnCues([cue], {})).toEqual([cue]);
  });

  it("gives each drawn unit its word's times from the cue's start; fewer units end with the last word", () => {
    const t = wordTimes(cue, 3);
    expect(t[0]!.start).toBeCloseTo(0);
    expect(t[1]!.start).toBeCloseTo(0.5);
    expect(t[2]!.end).toBeCloseTo(1.7);
    expect(wordTimes(cue, 2)[1]!.end).toBeCloseTo(1.7);
  });
});
