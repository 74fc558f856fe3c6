import { describe, expect, it } from "vitest";
import { AUDIO_CURVES, limits, TRANSITION_NAMES, validateJobConfig } from "../../../src/config/index.ts";
import { videoConfig, videoLayers } from "../../helpers/examples.ts";

const errorsOf = (config: unknown) => {
  const result = validateJobConfig("video", config);
  if (result.valid) throw new Error("expected the config to be rejected");
  return result.errors;
};
const pairs = (config: unknown) => errorsOf(config).map((e) => [e.field, e.message]);
const clip = (layers: unknown[], extra: Record<string, unknown> = {}) => ({ duration: 2, layers, ...extra });

describe("video config: autoSubtitles", () => {
  it("accepts autoSubtitles: true with a style and a language", () => {
    const config = videoConfig(undefined, {
      autoSubtitles: true,
      autoSubtitlesStyle: { animation: "letter-by-letter", position: "top", outlineStyle: "glow" },
      autoSubtitlesLanguage: "de",
    });
    expect(validateJobConfig("video", config).valid).toBe(true);
  });

  it("refuses a language that is not a two-letter ISO 639-1 code", () => {
    expect(pairs(videoConfig(undefined, { autoSubtitles: true, autoSubtitlesLanguage: "english" }))).toEqual([
      ["config.autoSubtitlesLanguage", "must be a two-letter ISO 639-1 language code such as en"],
    ]);
  });
});

describe("video config: caption presets", () => {
  it.each(limits.CAPTION_PRESETS)(
    "accepts preset %s with position, characters and lines per page",
    (preset) => {
      const style = { preset, position: { x: 0.5, y: 0.7 }, maxCharsPerLine: 16, maxLines: 1 };
      expect(
        validateJobConfig("video", videoConfig(undefined, { autoSubtitles: true, autoSubtitlesStyle: style }))
          .valid,
      ).toBe(true);
    },
  );

  it("refuses an unknown preset, characters per line out of bounds, a position off the frame and preset with animation", () => {
    const style = (s: Record<string, unknown>) =>
      videoConfig(undefined, { autoSubtitles: true, autoSubtitlesStyle: s });
    expect(pairs(style({ preset: "bounce" }))).toEqual([
      ["config.autoSubtitlesStyle.preset", 'must be one of "karaoke", "pop", "box", "one-word"'],
    ]);
    expect(pairs(style({ maxCharsPerLine: 3 }))[0]![0]).toBe("config.autoSubtitlesStyle.maxCharsPerLine");
    expect(pairs(style({ maxCharsPerLine: 81 }))[0]![0]).toBe("config.autoSubtitlesStyle.maxCharsPerLine");
    expect(pairs(style({ maxCharsPerLine: 10.5 }))[0]![0]).toBe("config.autoSubtitlesStyle.maxCharsPerLine");
    expect(pairs(style({ position: { x: 1.2, y: 0.5 } }))[0]![0]).toBe(
      "config.autoSubtitlesStyle.position.x",
    );
    expect(pairs(style({ preset: "pop", animation: "none" }))).toEqual([
      [
        "config.autoSubtitlesStyle.animation",
        "preset pop draws the words its own way: leave out animation, or the preset",
      ],
    ]);
  });
});

describe("video config: accepted", () => {
  it("accepts the smallest config: one clip, one layer, every top-level default left out", () => {
    expect(validateJobConfig("video", { clips: [{ layers: [{ type: "pause" }] }] })).toMatchObject({
      valid: true,
      type: "video",
      outputFormat: "mp4",
    });
  });

  it.each(Object.entries(videoLayers))("accepts a clip with a %s layer", (_, layer) => {
    expect(validateJobConfig("video", videoConfig([clip([layer])])).valid).toBe(true);
  });

  it("accepts every top-level property of the reference", () => {
    const config = videoConfig(undefined, {
      format: "webm",
      fast: true,
      defaults: {
        duration: 3,
        transition: { name: "directional-left", duration: 0.5, audioOutCurve: "qsin", audioInCurve: "exp" },
        layer: { fontPath: "/font/a.ttf" },
        layerType: { title: { fontSize: 60, style: "fade-in" }, "slide-in-text": { fontSize: 0.1 } },
      },
      audioFilePath: "https://cdn.example.com/music/bg.mp3",
      loopAudio: true,
      keepSourceAudio: true,
      clipsAudioVolume: 0.5,
      outputVolume: 1,
      audioTracks: [{ path: "/audio/x/voice.wav", mixVolume: 0.8, start: 1, cutFrom: 0, cutTo: 2 }],
      audioNorm: { enable: true, gaussSize: 5, maxGain: 30 },
      globalLayers: [{ type: "image-overlay", path: "/image/logo.png", position: "top-right", width: 0.1 }],
      autoSubtitles: false,
      autoSubtitlesStyle: {
        animation: "word-by-word",
        textColor: "#ffffff",
        fontSize: 40,
        outlineStyle: "shadow",
      },
    });
    expect(validateJobConfig("video", config)).toMatchObject({ valid: true, outputFormat: "webm" });
  });

  it("accepts every transition name of §3.2/§3.3 and every audio curve of §3.4", () => {
    expect(TRANSITION_NAMES).toHaveLength(6 + 67 + 58);
    expect(new Set(TRANSITION_NAMES).size).toBe(TRANSITION_NAMES.length);
    const clips = TRANSITION_NAMES.map((name, i) =>
      clip([{ type: "pause" }], {
        duration: 1,
        transition: { name, audioOutCurve: AUDIO_CURVES[i % AUDIO_CURVES.length] },
      }),
    );
    // 131 one-second clips would exceed the clip cap; check them in chunks.
    for (let i = 0; i < clips.length; i += limits.VIDEO_MAX_CLIPS) {
      expect(validateJobConfig("video", videoConfig(clips.slice(i, i + limits.VIDEO_MAX_CLIPS))).valid).toBe(
        true,
      );
    }
  });

  it("accepts odd sizes (the renderer rounds them down to even) and null transitions", () => {
    const config = videoConfig([clip([{ type: "pause" }], { transition: null })], {
      width: 1001,
      height: 3,
      fps: 60,
    });
    expect(validateJobConfig("video", config).valid).toBe(true);
  });
});

describe("video config: rejected with field paths", () => {
  it("names the frame, fps and clip-count limits", () => {
    const tooMany = Array.from({ length: 101 }, () => clip([{ type: "pause" }], { duration: 0.1 }));
    expect(pairs(videoConfig(tooMany, { width: 0, height: 4098, fps: 121 }))).toEqual([
      ["config.width", "must be at least 1"],
      ["config.height", "must be at most 4096"],
      ["config.fps", "must be at most 120"],
      ["config.clips", "must contain at most 100 clips"],
    ]);
    expect(pairs({ clips: [] })).toEqual([["config.clips", "must contain at least 1 clips"]]);
  });

  it("caps layers per clip at 20 and clip durations at 0.1 s minimum", () => {
    const layers = Array.from({ length: 21 }, () => ({ type: "pause" }));
    expect(
      pairs(
        videoConfig([clip(layers), clip([{ type: "pause" }], { duration: 0.05 })], {
          defaults: { duration: 0 },
        }),
      ),
    ).toEqual([
      ["config.clips[0].layers", "must contain at most 20 layers"],
      ["config.clips[1].duration", "must be at least 0.1"],
      ["config.defaults.duration", "must be at least 0.1"],
    ]);
  });

  it("rejects an output longer than an hour after transition overlaps (the free plan's 300 s is the Worker's)", () => {
    const long = (n: number, transition: unknown = null) =>
      Array.from({ length: n }, () => clip([{ type: "pause" }], { duration: 360, transition }));
    expect(validateJobConfig("video", videoConfig(long(10))).valid).toBe(true);
    expect(pairs(videoConfig(long(11)))).toEqual([
      ["config.clips", "the video would last 3960 s; at most 3600 s are allowed"],
    ]);
    // 11 clips of 360 s with 36 s transitions: 3960 - 360 = 3600 s.
    expect(validateJobConfig("video", videoConfig(long(11, { name: "fade", duration: 36 }))).valid).toBe(
      true,
    );
  });

  it("keeps title font sizes within 8..500 px", () => {
    const layers = [
      { type: "title", text: "a", fontSize: 7 },
      { type: "subtitle", text: "a", fontSize: 501 },
      { type: "slide-in-text", text: "a", fontSize: 2 },
    ];
    expect(pairs(videoConfig([clip(layers)]))).toEqual([
      ["config.clips[0].layers[0].fontSize", "must be at least 8"],
      ["config.clips[0].layers[1].fontSize", "must be at most 500"],
      ["config.clips[0].layers[2].fontSize", "must be at most 1"],
    ]);
  });

  it("rejects unknown transitions and curves, naming the transition", () => {
    const clips = [
      clip([{ type: "pause" }], { transition: { name: "Fader", audioInCurve: "lin" } }),
      clip([{ type: "pause" }]),
    ];
    expect(pairs(videoConfig(clips))).toEqual([
      ["config.clips[0].transition.name", expect.stringContaining('Unknown transition "Fader"')],
      [
        "config.clips[0].transition.audioInCurve",
        expect.stringContaining(
          "must be an audio curve: tri, qsin, hsin, esin, log, ipar, qua, cub, squ, cbr, par, exp, iqsin, ihsin, dese, desi, losi, nofade, linear",
        ),
      ],
    ]);
  });

  it("checks cut and window order on layers and audio tracks", () => {
    const layers = [
      { type: "video", path: "/v.mp4", cutFrom: 5, cutTo: 5 },
      { type: "title", text: "a", start: 2, stop: 1 },
    ];
    expect(
      pairs(videoConfig([clip(layers)], { audioTracks: [{ path: "/a.mp3", cutFrom: 3, cutTo: 1 }] })),
    ).toEqual([
      ["config.clips[0].layers[0].cutTo", "must be greater than cutFrom (5)"],
      ["config.clips[0].layers[1].stop", "must be greater than start (2)"],
      ["config.audioTracks[0].cutTo", "must be greater than cutFrom (3)"],
    ]);
  });

  it("refuses video and audio layers in globalLayers, pointing at audioTracks", () => {
    const globalLayers = [
      videoLayers.title,
      { type: "video", path: "/v.mp4" },
      { type: "detached-audio", path: "/a.mp3" },
    ];
    expect(pairs(videoConfig(undefined, { globalLayers }))).toEqual([
      ["config.globalLayers[1].type", '"video" layers are not allowed in globalLayers: put them in a clip'],
      [
        "config.globalLayers[2].type",
        '"detached-audio" layers are not allowed in globalLayers: use audioTracks',
      ],
    ]);
  });

  it("rejects image-job layer types, and a gl layer without exactly one of fragmentShader / fragmentPath", () => {
    const shader = "void main(){gl_FragColor=vec4(1.0);}";
    const layers = [
      { type: "text", text: "a" },
      { type: "gl" },
      { type: "gl", fragmentShader: shader, fragmentPath: "/shader/x.glsl" },
    ];
    expect(errorsOf(videoConfig([clip(layers)])).map((e) => e.field)).toEqual([
      "config.clips[0].layers[0].type",
      "config.clips[0].layers[1].fragmentShader",
      "config.clips[0].layers[2].fragmentPath",
    ]);
    const inline = [{ type: "gl", fragmentShader: "void main(){gl_FragColor=vec4(1.0);}" }];
    expect(validateJobConfig("video", videoConfig([clip(inline)])).valid).toBe(true);
  });

  it("requires media file references of the right kind", () => {
    const layers = [
      { type: "video", path: "https://example.com/clip.mp3" },
      { type: "audio", path: "ftp://example.com/a.mp3" },
      { type: "image", path: "//evil.example/x.png" },
      { type: "image-overlay", path: "/image/../../secrets.png" },
    ];
    expect(pairs(videoConfig([clip(layers)], { audioFilePath: "music.mp3" }))).toEqual([
      ["config.clips[0].layers[0].path", expect.stringContaining("http(s) URL ending in .mp4, .webm, .mov")],
      ["config.clips[0].layers[1].path", expect.stringContaining(".mp3, .wav, .m4a, .aac")],
      ["config.clips[0].layers[2].path", expect.stringContaining('storage path starting with "/"')],
      ["config.clips[0].layers[3].path", expect.stringContaining('storage path starting with "/"')],
      ["config.audioFilePath", expect.stringContaining(".mp3, .wav, .m4a, .aac")],
    ]);
  });
});
