import { describe, expect, it } from "vitest";
import { validateJobConfig } from "../../../src/config/index.ts";

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

  it("caps a job's speech at 10,000 characters in all, naming the text that goes over and the total", () => {
    // Issue 42: 100 clips of 20 speech layers of 5,000 characters each were one valid job (ten million characters).
    const say = (n: number) => ({ type: "speech", text: "a".repeat(n) });
    const clips = Array.from({ length: 100 }, () => ({
      duration: 1,
      layers: Array.from({ length: 20 }, () => say(5000)),
    }));
    expect(pairs({ clips })).toEqual([
      [
        "config.clips[0].layers[2].text",
        "the job's speech would say 10000000 characters (its 2000 speech layers and tracks together); at most " +
          "10000 are allowed per job",
      ],
    ]);
    // Layers and tracks count together: 4,000 + 4,000 + 2,000 fit, one more character does not.
    const fits = video({ audioTracks: [say(2000)] }, [say(4000), say(4000)]);
    expect(validateJobConfig("video", fits).valid).toBe(true);
    expect(pairs(video({ audioTracks: [say(2001)] }, [say(4000), say(4000)]))).toEqual([
      [
        "config.audioTracks[0].text",
        "the job's speech would say 10001 characters (its 3 speech layers and tracks together); at most 10000 " +
          "are allowed per job",
      ],
    ]);
  });

  it("prices speech at 1 token per started 100 characters of each text, on top of the video", () => {
    const estimate = (config: unknown) => {
      const r = validateJobConfig("video", config);
      if (!r.valid) throw new Error(JSON.stringify(r.errors));
      return r.estimatedTokens;
    };
    // A 2 s video: 10 + 2 x 2 = 14 tokens without speech.
    expect(estimate(video({}))).toBe(14);
    expect(estimate(video({}, [{ type: "speech", text: "Hi" }]))).toBe(14 + 1);
    expect(estimate(video({}, [{ type: "speech", text: "a".repeat(100) }]))).toBe(14 + 1);
    expect(estimate(video({}, [{ type: "speech", text: "a".repeat(101) }]))).toBe(14 + 2);
    // Each text is a synthesis of its own: two of 50 characters cost 2, a track as much as a layer.
    const two = video({ audioTracks: [{ type: "speech", text: "a".repeat(50) }] }, [
      { type: "speech", text: "a".repeat(50) },
    ]);
    expect(estimate(two)).toBe(14 + 2);
    // The whole of each text is said for a still or a preview too.
    expect(estimate(video({ still: { time: 1 } }, [{ type: "speech", text: "a".repeat(5000) }]))).toBe(
      2 + 50,
    );
    expect(estimate(video({ preview: { to: 1 } }, [{ type: "speech", text: "a".repeat(5000) }]))).toBe(
      10 + 2 + 50,
    );
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
