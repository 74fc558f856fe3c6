import { describe, expect, it } from "vitest";
import { revealTimes } from "../../../../src/video/captions/caption-layers.ts";
import { audioOnlyGraph } from "../../../../src/video/captions/audio-pass.ts";
import {
  charsPerLine,
  cueText,
  DEFAULT_LAYOUT,
  layoutCaptions,
  oneWordCues,
  wordGroups,
} from "../../../../src/video/captions/layout.ts";
import type { TranscriptWord } from "../../../../src/transcribe/types.ts";

/** Words said one after another, `dur` s each with `gap` s between, from `at`. */
const said = (text: string, at = 1, dur = 0.3, gap = 0.05): TranscriptWord[] =>
  text.split(" ").map((t, i) => ({ text: t, start: at + i * (dur + gap), end: at + i * (dur + gap) + dur }));

const opts = { ...DEFAULT_LAYOUT, maxCharsPerLine: 20 };

describe("caption layout", () => {
  it("fills lines up to the width, two lines per cue, then starts a new cue", () => {
    const words = said("one two three four five six seven eight nine ten eleven twelve thirteen fourteen");
    const cues = layoutCaptions(words, opts);
    expect(cues.map(cueText)).toEqual([
      "one two three four\nfive six seven eight",
      "nine ten eleven\ntwelve thirteen",
      "fourteen",
    ]);
    for (const cue of cues)
      for (const line of cue.lines) expect(line.map((w) => w.text).join(" ").length).toBeLessThanOrEqual(20);
  });

  it("shows a cue from its first word to its last plus the hold, never into the next cue", () => {
    const cues = layoutCaptions(said("one two three four five six seven eight nine ten eleven twelve"), opts);
    expect(cues[0]!.start).toBe(1);
    // the last word of cue 0 ("eight") ends at 1 + 7 * 0.35 + 0.3 = 3.75; cue 1 starts at 3.80
    expect(cues[0]!.end).toBeCloseTo(3.8, 9);
    const last = cues.at(-1)!;
    expect(last.end).toBeCloseTo(1 + 11 * 0.35 + 0.3 + DEFAULT_LAYOUT.hold, 9);
  });

  it("holds no cue past `until` (its transcription part's end), and the last one its full hold without it", () => {
    const words = said("one two three");
    const lastEnd = words.at(-1)!.end;
    expect(layoutCaptions(words, opts).at(-1)!.end).toBeCloseTo(lastEnd + DEFAULT_LAYOUT.hold, 9);
    expect(layoutCaptions(words, opts, lastEnd + 0.1).at(-1)!.end).toBeCloseTo(lastEnd + 0.1, 9);
    // Never shorter than its words.
    expect(layoutCaptions(words, opts, lastEnd).at(-1)!.end).toBe(lastEnd);
  });

  it("gives silence no caption: a pause longer than maxGap closes the cue", () => {
    const words = [...said("hello there", 0.5), ...said("after the pause", 4)];
    const cues = layoutCaptions(words, opts);
    expect(cues.map(cueText)).toEqual(["hello there", "after the pause"]);
    expect(cues[0]!.end).toBeLessThan(1.5);
    expect(cues[1]!.start).toBe(4);
  });

  it("closes a cue at a sentence end and at maxDuration", () => {
    expect(layoutCaptions(said("Hi. Yes"), opts).map(cueText)).toEqual(["Hi.", "Yes"]);
    const slow = said("a1 b2 c3 d4 e5 f6", 0, 1.5, 0.1);
    const cues = layoutCaptions(slow, { ...opts, maxCharsPerLine: 80 });
    for (const c of cues) expect(c.lines.flat().at(-1)!.end - c.start).toBeLessThanOrEqual(5);
    expect(cues.length).toBe(2);
  });

  it("keeps a function word with the word after it (no line ends in 'the')", () => {
    expect(wordGroups(said("see the cat run"), 0.8).map((g) => g.map((w) => w.text).join(" "))).toEqual([
      "see",
      "the cat",
      "run",
    ]);
    const cues = layoutCaptions(said("welcome aboard to the media service"), {
      ...opts,
      maxCharsPerLine: 16,
    });
    for (const line of cues.flatMap((c) => c.lines)) expect(["to", "the"]).not.toContain(line.at(-1)!.text);
  });

  it("holds a line to maxCharsPerLine (spaces included) as well as to the width; a longer word gets a line of its own", () => {
    const words = said("one two three four five six extraordinarily");
    const cues = layoutCaptions(words, { ...opts, maxLines: 4, charLimit: 8 });
    expect(cues.map(cueText)).toEqual(["one two\nthree\nfour\nfive six", "extraordinarily"]);
  });

  it("one word per cue: each until the next word starts or its hold ends, never past `until`", () => {
    const cues = oneWordCues(said("alpha beta", 1, 0.3, 1), 0.2, 2.5);
    expect(cues.map((c) => [cueText(c), c.start, c.end])).toEqual([
      ["alpha", 1, 1.5],
      ["beta", 2.3, 2.5],
    ]);
    expect(oneWordCues(said("a b"), 5).map((c) => Math.round(c.end * 100) / 100)).toEqual([1.35, 6.65]);
  });

  it("estimates characters per line from the box width and font size", () => {
    expect(charsPerLine(1000, 50)).toBe(33);
    expect(charsPerLine(10, 50)).toBe(8);
  });
});

describe("reveal times", () => {
  const cue = layoutCaptions(said("hi you all", 2, 0.4, 0.1), opts)[0]!;
  it("word-by-word: each state starts when its word is said", () => {
    expect(revealTimes(cue, "word", 3)).toEqual([0, 0.5, 1]);
  });
  it("letter-by-letter: letters spread over their word, states grouped like the rasteriser's", () => {
    const t = revealTimes(cue, "letter", 10);
    expect(t[0]).toBe(0);
    for (let i = 1; i < t.length; i++) expect(t[i]!).toBeGreaterThanOrEqual(t[i - 1]!);
    expect(t.at(-1)!).toBeGreaterThan(1);
    expect(t.at(-1)!).toBeLessThan(1.4);
  });
});

describe("audioOnlyGraph", () => {
  it("keeps the chains that lead to [aout] and drops picture chains and piped inputs", () => {
    const graph = {
      inputs: [
        ["-i", "a.mp4"],
        ["-i", "b.mp3"],
        ["-f", "png_pipe", "-i", "pipe:0"],
      ],
      pipes: [],
      transitions: [],
      filterGraph: [
        "[0:v]scale=10:10[v0]",
        "[2:v]format=yuva420p[t0]",
        "[v0][t0]overlay[vv]",
        "[0:a]aresample=48000[a0]",
        "[1:a]volume=1[a1]",
        "[a0][a1]amix=inputs=2[mixall]",
        "[mixall]atrim=0:3[aout]",
        "[vv]format=yuv420p[vout]",
      ].join(";\n"),
    };
    const audio = audioOnlyGraph(graph)!;
    expect(audio.inputs).toEqual([
      ["-i", "a.mp4"],
      ["-i", "b.mp3"],
    ]);
    expect(audio.filterGraph.split(";\n")).toEqual([
      "[0:a]aresample=48000[a0]",
      "[1:a]volume=1[a1]",
      "[a0][a1]amix=inputs=2[mixall]",
      "[mixall]atrim=0:3[aout]",
      expect.stringMatching(/^\[aout\]highpass=f=100,aresample=16000.*\[speech\]$/),
    ]);
  });
  it("is null when the mix is generated silence (no audio source)", () => {
    const graph = {
      inputs: [],
      pipes: [],
      transitions: [],
      filterGraph: "color=c=black[vout];\nanullsrc=r=48000:cl=stereo,atrim=0:3[aout]",
    };
    expect(audioOnlyGraph(graph)).toBeNull();
  });
});
