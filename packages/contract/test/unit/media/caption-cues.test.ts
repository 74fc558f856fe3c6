import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countCueTimings, CueCounter } from "../../../src/media/caption-cues.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** A SubRip file of `n` cues with texts `texts` (cycled). */
const srt = (n: number, texts: readonly string[]) =>
  Array.from(
    { length: n },
    (_, i) =>
      `${i + 1}\r\n00:00:${String(i % 60).padStart(2, "0")},000 --> 00:00:59,999\r\n${texts[i % texts.length]}\r\n`,
  ).join("\r\n");

describe("cue timings counted without parsing", () => {
  it("counts one per cue of SubRip and WebVTT, nothing in prose", () => {
    expect(countCueTimings(bytes(srt(3, ["a", "b - c", "d--e"])))).toBe(3);
    expect(
      countCueTimings(bytes("WEBVTT\n\nNOTE a note\n\n00:01.000 --> 00:02.000 align:start\n<b>hi</b>\n")),
    ).toBe(1);
    expect(countCueTimings(bytes("WEBVTT\n\n"))).toBe(0);
    expect(countCueTimings(bytes("---> -- > ->> --->>"))).toBe(2);
  });

  it("counts the same however the bytes are cut into chunks (an upload's stream)", () => {
    const cue = fc.string({ unit: fc.constantFrom("a", " ", "-", ">", "\n", "é", "<b>") });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.array(cue, { minLength: 1, maxLength: 5 }),
        fc.array(fc.integer({ min: 0, max: 4000 }), { maxLength: 12 }),
        (n, texts, cuts) => {
          const whole = bytes(srt(n, texts));
          const expected = whole.length === 0 ? 0 : new TextDecoder().decode(whole).split("-->").length - 1;
          expect(countCueTimings(whole)).toBe(expected);
          expect(expected).toBeGreaterThanOrEqual(n);
          const counter = new CueCounter();
          let at = 0;
          for (const cut of [...cuts].sort((a, b) => a - b).map((c) => Math.min(c, whole.length))) {
            counter.push(whole.subarray(at, Math.max(at, cut)));
            at = Math.max(at, cut);
          }
          expect(counter.push(whole.subarray(at))).toBe(expected);
        },
      ),
    );
  });
});
