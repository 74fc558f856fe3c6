/**
 * editly edit specs as editly's documentation and examples write them: the values editly accepts are accepted
 * (and normalised), options that change nothing here are accepted with a warning each, the JavaScript-only
 * features are refused naming the field and why. The served JSON Schema agrees (ajv on the same configs).
 */
import { describe, expect, it } from "vitest";
import { validateJobConfig } from "../../../src/config/index.ts";
import { editlyExamples, EXPECTED_WARNINGS } from "../../helpers/editly-examples.ts";

const pause = { type: "pause" };

const accepted = (config: Record<string, unknown>) => {
  const r = validateJobConfig("video", config);
  if (!r.valid) throw new Error(JSON.stringify(r.errors));
  return r.config as Record<string, unknown> & { clips: { layers: unknown[] }[] };
};

const refused = (config: Record<string, unknown>) => {
  const r = validateJobConfig("video", config);
  expect(r.valid).toBe(false);
  return r.valid ? [] : r.errors.map((e) => [e.field, e.message]);
};

describe("editly values", () => {
  it("volumes above 1, as number strings and in decibels, normalised to a factor", () => {
    const c = accepted({
      clipsAudioVolume: 50,
      backgroundAudioVolume: "50",
      outputVolume: "-10dB",
      audioTracks: [{ path: "/a.mp3", mixVolume: "6 dB" }],
      clips: [{ layers: [{ type: "audio", path: "/b.mp3", mixVolume: 1000 }] }],
    });
    expect(c.clipsAudioVolume).toBe(50);
    expect(c.backgroundAudioVolume).toBe(50);
    expect(c.outputVolume).toBeCloseTo(0.316228, 6);
    expect((c.audioTracks as { mixVolume: number }[])[0]!.mixVolume).toBeCloseTo(1.995262, 6);
  });

  it("refuses a volume above 1000 or +60 dB, or a word, naming the field", () => {
    expect(refused({ outputVolume: 1001, clips: [{ layers: [pause] }] })).toEqual([
      ["config.outputVolume", "must be at most 1000"],
    ]);
    expect(refused({ outputVolume: "61dB", clips: [{ layers: [pause] }] })[0]![1]).toContain("+60 dB");
    expect(refused({ mixVolume: 1, clips: [{ layers: [pause] }] })[0]![0]).toBe("config.mixVolume");
    const [[field, message]] = refused({ outputVolume: "loud", clips: [{ layers: [pause] }] }) as [string[]];
    expect(field).toBe("config.outputVolume");
    expect(message).toContain('"50"');
    expect(message).toContain('"-10dB"');
  });

  it("takes audioNorm as editly passes it to ffmpeg: maxGain up to 100, gaussSize up to 301", () => {
    expect(
      accepted({ audioNorm: { enable: true, gaussSize: 301, maxGain: 100 }, clips: [{ layers: [pause] }] })
        .audioNorm,
    ).toEqual({ enable: true, gaussSize: 301, maxGain: 100 });
    expect(refused({ audioNorm: { maxGain: 101 }, clips: [{ layers: [pause] }] })).toEqual([
      ["config.audioNorm.maxGain", "must be at most 100"],
    ]);
  });

  it("reads a clip's single layer object as a one-layer list", () => {
    const c = accepted({ clips: [{ duration: 2, layers: { type: "fill-color", color: "red" } }] });
    expect(c.clips[0]!.layers).toEqual([{ type: "fill-color", color: "red" }]);
  });

  it("reports a bad single layer object by its own fields", () => {
    expect(refused({ clips: [{ layers: { type: "title" } }] })).toEqual([
      ["config.clips[0].layers.text", "is required"],
    ]);
  });

  it("accepts transition easing and case-insensitive names", () => {
    const c = accepted({
      clips: [
        {
          layers: [pause],
          transition: { name: "directionalWarp", easing: "easeOutExpo", params: { direction: [1, -1] } },
        },
        { layers: [pause] },
      ],
    });
    expect((c.clips[0] as { transition?: { name?: string } }).transition?.name).toBe("directionalwarp");
  });
});

describe("editly's JavaScript-only features", () => {
  it.each(["canvas", "fabric"])("a %s layer is refused, saying why", (type) => {
    const errors = refused({ clips: [{ layers: [{ type, func: "() => {}" }] }] });
    expect(errors[0]![0]).toBe("config.clips[0].layers[0].type");
    expect(errors[0]![1]).toContain("JavaScript function");
  });

  it("a func key is refused, saying why", () => {
    const errors = refused({ clips: [{ layers: [{ type: "fill-color", func: "x" }] }] });
    expect(errors[0]![1]).toContain('"func" is an editly JavaScript function');
  });

  it.each([
    ["outPath", "./out.mp4", "stores the output"],
    ["verbose", true, "no effect here"],
    ["enableFfmpegLog", false, "no effect here"],
    ["customOutputArgs", ["-crf", "1"], "encoder settings are fixed"],
    ["ffmpegPath", "/usr/bin/ffmpeg", "encoder settings are fixed"],
    ["allowRemoteRequests", true, "always fetched"],
  ])("the CLI option %s is accepted with a warning saying why it changes nothing", (key, value, why) => {
    const r = validateJobConfig("video", { [key]: value, clips: [{ layers: [pause] }] });
    expect(r.valid).toBe(true);
    expect(r.warnings).toEqual([
      { field: `config.${key}`, message: expect.stringContaining(why), code: "IGNORED_PROPERTY" },
    ]);
  });

  it("checks an ignored option's type like any other property", () => {
    expect(refused({ outPath: 42, clips: [{ layers: [pause] }] })[0]![0]).toBe("config.outPath");
  });

  it("keeps refusing properties editly would not know either", () => {
    expect(refused({ outpath: "./x.mp4", clips: [{ layers: [pause] }] })).toEqual([
      ["config.outpath", 'Unknown property "outpath" in the video config'],
    ]);
    expect(refused({ clips: [{ layers: [{ type: "fill-color", duration: 2 }] }] })[0]![1]).toBe(
      'Unknown property "duration" in fill-color layer',
    );
  });

  it("editly's fast preview flag is accepted", () => {
    expect(accepted({ fast: true, clips: [{ layers: [pause] }] }).fast).toBe(true);
  });
});

describe("file references of editly's single-layer form", () => {
  it("are found and rewritten like those of a list", async () => {
    const { forEachFileReference } = await import("../../../src/config/resources.ts");
    const config = { clips: [{ layers: { type: "video", path: "https://example.com/v.mp4" } }] };
    const seen: string[] = [];
    forEachFileReference("video", config, (ref) => {
      seen.push(`${ref.field} ${ref.slot}`);
      return "/videos/u/v.mp4";
    });
    expect(seen).toEqual(["config.clips[0].layers.path video"]);
    expect(config.clips[0]!.layers.path).toBe("/videos/u/v.mp4");
  });
});

describe("editly's example specs", () => {
  const examples = editlyExamples({
    video: "/video/2024-01-15/u/clip.mp4",
    video2: "/video/2024-01-15/u/dancer.webm",
    photo: "/image/2024-01-15/u/photo.jpg",
    overlay: "/image/2024-01-15/u/emoji.svg",
    music: "/audio/2024-01-15/u/music.m4a",
    voice: "/audio/2024-01-15/u/voice.mp3",
    font: "/font/2024-01-15/u/PatuaOne-Regular.ttf",
    shader: "/shader/2024-01-15/u/rainbow.frag",
  });

  it("covers every function-free example of editly's repository", () => {
    expect(Object.keys(examples)).toHaveLength(34);
  });

  it.each(Object.entries(examples))(
    "%s validates as written, with a warning per ignored option",
    (name, config) => {
      const r = validateJobConfig("video", config);
      expect(r.valid ? [] : r.errors).toEqual([]);
      expect(r.warnings.map((w) => w.field)).toEqual(EXPECTED_WARNINGS[name] ?? ["config.outPath"]);
      expect(r.warnings.every((w) => w.code === "IGNORED_PROPERTY")).toBe(true);
    },
  );

  it("reads the image layer's duration as nothing: the clip keeps its own length", () => {
    const r = validateJobConfig("video", examples.ph!);
    if (!r.valid) throw new Error(JSON.stringify(r.errors));
    expect(r.warnings[1]!.message).toContain("has no effect");
    // 1 + 1.5 + 2 s, minus two 0.4 s transitions: the 2.5 s on the image changes nothing.
    expect(r.estimatedTokens).toBe(10 + 2 * Math.ceil(4.5 - 0.8));
  });
});
