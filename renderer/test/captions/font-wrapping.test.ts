/**
 * Caption lines measured with the real font (fonts/measure.ts over fontkit): a wide face fills fewer words a line
 * than a narrow one, Chinese and Japanese break between characters, `wordsPerLine` and `allCaps` count, and SRT /
 * WebVTT text parses as players read it.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FALLBACK_FONT_FILES, textMeasurer } from "../../src/fonts/measure.ts";
import { parseCaptionsText, plainCueText } from "../../src/video/captions/caption-parse.ts";
import { captionLayer, captionLayoutOptions } from "../../src/video/captions/caption-layers.ts";
import { breakUnits, cueText, joinText, layoutCaptions, wrapWords } from "../../src/video/captions/layout.ts";
import type { TranscriptWord } from "../../src/transcribe/types.ts";
import type { AutoSubtitlesStyle, VideoSpec } from "../../src/video/types.ts";
import { videoSpec } from "../../src/video/spec.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { FIXTURES } from "../video/media-helpers.ts";

const PATUA = join(FIXTURES, "PatuaOne-Regular.ttf");
const said = (text: string, at = 1, dur = 0.3, gap = 0.05): TranscriptWord[] =>
  text.split(" ").map((t, i) => ({ text: t, start: at + i * (dur + gap), end: at + i * (dur + gap) + dur }));
const spec = (style: AutoSubtitlesStyle = {}): VideoSpec =>
  videoSpec(
    videoConfig({
      width: 640,
      height: 360,
      clips: [{ duration: 5, layers: [{ type: "pause" }] }],
      autoSubtitles: true,
      autoSubtitlesStyle: style,
    }),
  );

describe("measuring text in the caption's font", () => {
  it("reads advances from the font file: DejaVu Sans is wider than the 0.6 em guess for 'i', narrower for 'W'", () => {
    const dejavu = textMeasurer([], 100);
    expect(dejavu("iiiiiiiiii")).toBeLessThan(600 * 0.6);
    expect(dejavu("WWWWWWWWWW")).toBeGreaterThan(600);
    expect(dejavu("Hello world")).toBeCloseTo(560.6, 0);
    expect(textMeasurer([PATUA], 100)("Hello world")).toBeCloseTo(502.8, 0);
  });

  it("measures CJK in the fallback face (1 em a character in Droid Sans Fallback)", () => {
    expect(FALLBACK_FONT_FILES[1]).toMatch(/DroidSansFallbackFull/);
    const m = textMeasurer([], 50);
    expect(m("你好世界")).toBeCloseTo(200, 0);
    expect(m("ab你好")).toBeCloseTo(m("ab") + 100, 0);
  });

  it("wraps by the measured width: a wide face gets fewer words a line", () => {
    const words = said("WIDE WORDS MAKE WIDE LINES ON EVERY SCREEN WE OWN TODAY");
    const narrow = layoutCaptions(words, captionLayoutOptions({ fontSize: 40 }, spec()));
    const wide = captionLayoutOptions({ fontSize: 40, allCaps: true }, spec());
    const wideFace = { ...wide, measure: (t: string) => textMeasurer([], 40)(t) * 1.6 };
    const wideCues = layoutCaptions(words, wideFace);
    const perLine = (cues: typeof narrow) => Math.max(...cues.flatMap((c) => c.lines.map((l) => l.length)));
    expect(perLine(wideCues)).toBeLessThan(perLine(narrow));
    for (const line of wideCues.flatMap((c) => c.lines))
      expect(wideFace.measure(joinText(line))).toBeLessThanOrEqual(wideFace.maxWidth!);
  });

  it("breaks Chinese between characters and joins them without spaces", () => {
    const units = breakUnits([{ text: "今天天气很好，我们去公园散步吧。", start: 0, end: 1.6 }]);
    // Punctuation stays with the character before it: a line never starts with "，".
    expect(units).toHaveLength(14);
    expect(units[5]).toMatchObject({ text: "好，" });
    expect(units.at(-1)).toMatchObject({ text: "吧。", end: 1.6 });
    const o = captionLayoutOptions({ fontSize: 40 }, spec());
    const lines = wrapWords(
      [{ text: "今天天气很好我们去公园散步吧今天天气很好我们去公园散步吧", start: 0, end: 3 }],
      o,
    );
    // 28 characters of 1 em (40 px) in 640 x 0.8 - 2 x 10 px = 492 px: 12 a line.
    expect(o.maxWidth).toBe(492);
    expect(lines.map((l) => l.length)).toEqual([12, 12, 4]);
    for (const line of lines) expect(o.measure!(joinText(line))).toBeLessThanOrEqual(o.maxWidth!);
    expect(joinText(lines[0]!)).not.toContain(" ");
    expect(joinText([{ text: "Hello" }, { text: "世界" }, { text: "again" }])).toBe("Hello 世界 again");
  });

  it("caps words a line with wordsPerLine and lines a cue with maxLines", () => {
    const cues = layoutCaptions(
      said("one two three four five six seven"),
      captionLayoutOptions({ wordsPerLine: 2, maxLines: 1 }, spec()),
    );
    expect(cues.map(cueText)).toEqual(["one two", "three four", "five six", "seven"]);
  });

  it("draws allCaps in capitals, a file's cues whole, and marks the highlight and box for the rasteriser", () => {
    const s = spec({ allCaps: true, highlightColor: "#00ff00", backgroundColor: "#000000b3" });
    const cue = layoutCaptions(said("hello there"), captionLayoutOptions({}, s))[0]!;
    const layer = captionLayer(cue, s.subtitles!.style, s) as unknown as Record<string, unknown>;
    expect(layer).toMatchObject({
      text: "HELLO THERE",
      style: "word-by-word",
      caption: { highlightColor: "#00ff00", backgroundColor: "#000000b3", showAll: false },
    });
    const file = { ...s, subtitles: { style: {}, file: "/x.srt" } };
    const whole = captionLayer(cue, {}, file) as unknown as Record<string, unknown>;
    expect(whole).toMatchObject({ style: "fade-in", zoomDirection: null, stop: cue.end });
    expect(whole.start).toBeCloseTo(cue.start - 1 / s.fps, 9);
  });
});

describe("captions files", () => {
  it("parses SubRip with CRLF and markup, keeping the file's lines", async () => {
    const cues = await parseCaptionsText(
      "\uFEFF1\r\n00:00:01,000 --> 00:00:02,500\r\nHello <b>world</b>\r\n<i>second</i> line\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\n你好 &amp; 世界\r\n",
    );
    expect(cues).toEqual([
      { start: 1, end: 2.5, lines: ["Hello world", "second line"] },
      { start: 3, end: 4, lines: ["你好 & 世界"] },
    ]);
  });

  it("parses WebVTT with cue settings, voices, notes and a malformed cue skipped", async () => {
    const cues = await parseCaptionsText(
      "WEBVTT\n\nNOTE made by hand\n\nintro\n00:01.000 --> 00:02.000 line:0 align:start\n<v Bob>Hi</v> &lt;there&gt;\n\nbad --> cue\nnever\n\n00:03.000 --> 00:04.500\n<c.yellow>Two</c> <00:03.500>words\n",
    );
    expect(cues).toEqual([
      { start: 1, end: 2, lines: ["Hi <there>"] },
      { start: 3, end: 4.5, lines: ["Two words"] },
    ]);
  });

  it("drops ASS-style overrides and decodes numeric entities", () => {
    expect(plainCueText("{\\an8}Top &#233;t&#xE9;")).toBe("Top été");
  });
});
