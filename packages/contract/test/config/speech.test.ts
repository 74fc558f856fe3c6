import { describe, expect, it } from "vitest";
import { validateJobConfig } from "../../src/config/index.ts";

const video = (extra: Record<string, unknown>, layers: unknown[] = [{ type: "pause" }]) => ({
  clips: [{ duration: 2, layers }],
  ...extra,
});
const pairs = (config: unknown) => {
  const result = validateJobConfig("video", config);
  if (result.valid) throw new Error("expected the config to be rejected");
  return result.errors.map((e) => [e.field, e.message]);
};

describe("video config: speech", () => {
  it("accepts a speech layer in a clip and a speech entry of audioTracks beside a file track", () => {
    const config = video(
      {
        audioTracks: [
          { path: "https://example.com/music.mp3" },
          { type: "speech", text: "Welcome", voice: "en+f3", language: "en-GB", rate: 1.2, start: 1 },
        ],
        autoSubtitles: true,
      },
      [
        { type: "pause" },
        { type: "speech", text: "Hello there", rate: 0.5, start: 0.5, stop: 2, mixVolume: 2 },
      ],
    );
    expect(validateJobConfig("video", config).valid).toBe(true);
  });

  it("refuses nothing to say, a rate out of range, a bad voice or language, and unknown fields", () => {
    expect(
      pairs(
        video({}, [
          { type: "speech", text: "  " },
          { type: "speech", text: "x", rate: 3, voice: "en us", language: "english" },
        ]),
      ),
    ).toEqual([
      ["config.clips[0].layers[0].text", "must contain something to say"],
      [
        "config.clips[0].layers[1].voice",
        "must be a voice name: letters, digits, +, _ and -, at most 40 characters",
      ],
      ["config.clips[0].layers[1].language", "must be a language code such as en, de or en-GB"],
      ["config.clips[0].layers[1].rate", "must be at most 2"],
    ]);
    expect(pairs(video({ audioTracks: [{ type: "speech", text: "x", cutFrom: 1 }] }))[0]![0]).toBe(
      "config.audioTracks[0].cutFrom",
    );
  });

  it("refuses a speech layer in globalLayers, pointing at audioTracks", () => {
    expect(pairs(video({ globalLayers: [{ type: "speech", text: "x" }] }))).toEqual([
      [
        "config.globalLayers[0].type",
        '"speech" layers are not allowed in globalLayers: use audioTracks (an entry with "type": "speech")',
      ],
    ]);
  });

  it("refuses text longer than 5000 characters", () => {
    expect(pairs(video({}, [{ type: "speech", text: "a".repeat(5001) }]))).toEqual([
      ["config.clips[0].layers[0].text", "must be at most 5000 characters"],
    ]);
  });

  it("accepts ducking and the caption styles, and refuses values out of range", () => {
    const ok = video({
      ducking: { amount: 12, attack: 0.1, release: 0.5 },
      autoSubtitles: true,
      autoSubtitlesStyle: {
        animation: "none",
        highlightColor: "#ffd700",
        wordsPerLine: 3,
        maxLines: 1,
        allCaps: true,
        backgroundColor: "#000000b3",
      },
    });
    expect(validateJobConfig("video", ok).valid).toBe(true);
    expect(
      pairs(
        video({
          ducking: { amount: 61, attack: -1, extra: 1 },
          autoSubtitlesStyle: { wordsPerLine: 0, maxLines: 5, allCaps: "yes" },
        }),
      ).map(([field]) => field),
    ).toEqual([
      "config.autoSubtitlesStyle.wordsPerLine",
      "config.autoSubtitlesStyle.maxLines",
      "config.autoSubtitlesStyle.allCaps",
      "config.ducking.amount",
      "config.ducking.attack",
      "config.ducking.extra",
    ]);
  });
});
