import { describe, expect, it } from "vitest";
import {
  detectResources,
  forEachFileReference,
  validateJobConfig,
  type FileReference,
} from "../../../src/config/index.ts";
import { FONT, imageConfig, imageLayers, PHOTO, videoConfig, videoLayers } from "../../helpers/examples.ts";

describe("detected resources", () => {
  it("lists every file of an image job once, typed by the file, in config order", () => {
    const layers = [
      imageLayers.image,
      imageLayers.text,
      { type: "image", path: PHOTO },
      { type: "image", path: PHOTO },
    ];
    const result = validateJobConfig(
      "image",
      imageConfig(layers, { defaults: { layerType: { text: { fontPath: "/font/b.woff2" } } } }),
    );
    expect(result.valid && result.resources).toEqual([
      { type: "font", url: "/font/b.woff2" },
      { type: "image", url: "https://example.com/photos/beach.JPG?size=large" },
      { type: "font", url: FONT },
      { type: "image", url: PHOTO },
    ]);
  });

  it("finds clip layers, global layers, the background track, audio tracks and subtitle fonts", () => {
    const clips = [
      { layers: [videoLayers.video, videoLayers.audio, videoLayers["news-title"]] },
      {
        layers: [
          videoLayers["detached-audio"],
          videoLayers.image,
          videoLayers["image-overlay"],
          videoLayers.html,
        ],
      },
    ];
    const config = videoConfig(clips, {
      audioFilePath: "https://cdn.example.com/music/bg.mp3",
      audioTracks: [{ path: "/audio/x/voice.wav" }],
      globalLayers: [{ type: "image-overlay", path: "/image/logo.png" }],
      autoSubtitlesStyle: { fontPath: "/font/sub.otf" },
    });
    const result = validateJobConfig("video", config);
    expect(result.valid && result.resources).toEqual([
      { type: "audio", url: "https://cdn.example.com/music/bg.mp3" },
      { type: "video", url: "/video/2024-01-15/user123/kohlipe3.mp4" },
      { type: "audio", url: "https://cdn.example.com/a/winxp.mp3" },
      { type: "font", url: FONT },
      { type: "audio", url: "/audio/2024-01-15/u/sample1.m4a" },
      { type: "image", url: PHOTO },
      { type: "image", url: "/image/x/overlay.svg" },
      { type: "image", url: "/image/logo.png" },
      { type: "audio", url: "/audio/x/voice.wav" },
      { type: "font", url: "/font/sub.otf" },
    ]);
  });

  it("falls back to the storage folder, then the slot, then unknown", () => {
    const config = {
      width: 9,
      height: 9,
      defaults: { layer: { path: "/misc/thing" } },
      layers: [
        { type: "image", path: "/image/2024/u/noext" },
        { type: "text", text: "a", fontPath: "/uploads/f" },
      ],
    };
    expect(detectResources("image", config)).toEqual([
      { type: "unknown", url: "/misc/thing" },
      { type: "image", url: "/image/2024/u/noext" },
      { type: "font", url: "/uploads/f" },
    ]);
  });

  it("is empty when the config is invalid", () => {
    expect(
      validateJobConfig("image", { width: 1, height: 1, layers: [{ type: "image", path: "x.png" }] }),
    ).toMatchObject({
      valid: false,
    });
  });
});

describe("forEachFileReference", () => {
  it("reports field paths and slots, and rewrites references in place", () => {
    const config = videoConfig([{ layers: [videoLayers.audio, videoLayers.title] }], {
      audioTracks: [{ path: "https://cdn.example.com/a/winxp.mp3" }],
    });
    const seen: FileReference[] = [];
    forEachFileReference("video", config, (ref) => {
      seen.push(ref);
      if (ref.url.startsWith("https://")) return "/audio/downloaded/winxp.mp3";
    });
    expect(seen).toEqual([
      { field: "config.clips[0].layers[0].path", slot: "audio", url: "https://cdn.example.com/a/winxp.mp3" },
      { field: "config.audioTracks[0].path", slot: "audio", url: "https://cdn.example.com/a/winxp.mp3" },
    ]);
    expect(config.clips).toMatchObject([
      { layers: [{ path: "/audio/downloaded/winxp.mp3" }, { type: "title" }] },
    ]);
    expect((config as Record<string, unknown>).audioTracks).toEqual([
      { path: "/audio/downloaded/winxp.mp3" },
    ]);
    // The rewritten config is still valid.
    expect(validateJobConfig("video", config).valid).toBe(true);
  });
});
