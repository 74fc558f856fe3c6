/**
 * The table of video layer types (video-layer-types.ts): the grammar's unions, globalLayers' refusals, the caps and
 * the files a type references all come from it, and what the builder starts each type with is a valid layer.
 */
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { validateJobConfig } from "../../../src/config/index.ts";
import { layerTable, starterFiles } from "../../../src/config/layer-set.ts";
import { HTML_MAX_LAYERS_PER_JOB } from "../../../src/config/limits.ts";
import { GlobalLayerSchema, VideoLayerSchema } from "../../../src/config/video.ts";
import {
  DEFAULT_FRAME_COST,
  layerFrameCost,
  newVideoLayer,
  VIDEO_LAYER_TYPES,
  type VideoLayerType,
  type VideoLayerTypeFacts,
} from "../../../src/config/video-layer-types.ts";
import { fillColorLayerEntries } from "../../../src/config/video-layers.ts";
import { videoConfig, videoLayers } from "../../helpers/examples.ts";

const TYPES = Object.keys(VIDEO_LAYER_TYPES) as VideoLayerType[];

type Union = { pipe: [{ options: { entries: { type: { literal: string } } }[] }] };

/** The `type` literals of a layer union's options, in its order. */
const literals = (schema: unknown): string[] =>
  (schema as Union).pipe[0].options.map((o) => o.entries.type.literal);

const errorsOf = (config: unknown) => {
  const result = validateJobConfig("video", config);
  return result.valid ? [] : result.errors.map((e) => `${e.field}: ${e.message}`);
};

describe("VIDEO_LAYER_TYPES", () => {
  it("keys every entry by its type, and a clip's union lists them all in its order", () => {
    for (const type of TYPES)
      expect((VIDEO_LAYER_TYPES[type].entries.type as v.LiteralSchema<string, undefined>).literal).toBe(type);
    expect(literals(VideoLayerSchema)).toEqual(TYPES);
  });

  it("is a type error to file an entry under another type's name", () => {
    const table = layerTable<VideoLayerTypeFacts>()({
      // @ts-expect-error: the key must be the entries' `type`
      pause: { entries: fillColorLayerEntries, global: true },
    });
    expect(table.pause.files).toEqual({});
  });

  it("lets globalLayers hold the types marked global and refuses the others with their message", () => {
    const global = TYPES.filter((t) => VIDEO_LAYER_TYPES[t].global === true);
    expect(literals(GlobalLayerSchema)).toEqual(global);
    expect(TYPES.filter((t) => !global.includes(t))).toEqual(["video", "audio", "detached-audio", "speech"]);
    expect(errorsOf(videoConfig(undefined, { globalLayers: [videoLayers.audio] }))).toEqual([
      "config.globalLayers[0].type: " + VIDEO_LAYER_TYPES.audio.global,
    ]);
  });

  it("reads the files each type references off its properties", () => {
    const files = Object.fromEntries(
      TYPES.filter((t) => Object.keys(VIDEO_LAYER_TYPES[t].files).length).map((t) => [
        t,
        VIDEO_LAYER_TYPES[t].files,
      ]),
    );
    expect(files).toEqual({
      video: { path: "video" },
      audio: { path: "audio" },
      "detached-audio": { path: "audio" },
      image: { path: "image" },
      "image-overlay": { path: "image" },
      title: { fontPath: "font" },
      subtitle: { fontPath: "font" },
      "news-title": { fontPath: "font" },
      "title-background": { fontPath: "font" },
      "slide-in-text": { fontPath: "font" },
      "editly-banner": { fontPath: "font" },
      gl: { fragmentPath: "shader" },
    });
  });

  it("caps the types with a cap per job, counting clips then global layers", () => {
    expect(VIDEO_LAYER_TYPES.html.perJob).toBe(HTML_MAX_LAYERS_PER_JOB);
    const html = { type: "html", html: "<p>x</p>" };
    const clips = [{ duration: 1, layers: Array(HTML_MAX_LAYERS_PER_JOB).fill(html) }];
    expect(errorsOf(videoConfig(clips, { globalLayers: [html] }))).toEqual([
      `config.globalLayers[0]: at most ${HTML_MAX_LAYERS_PER_JOB} html layers are allowed per job`,
    ]);
  });

  it("starts every type in the builder as a valid layer, a required file taking the first of its kind", () => {
    const fileFor = (kind: string) =>
      `/${kind}/2024-01-15/u/first.${{ image: "png", video: "mp4", audio: "mp3" }[kind]}`;
    for (const type of TYPES) {
      const entry = VIDEO_LAYER_TYPES[type];
      const layer = { type, ...starterFiles(entry, fileFor), ...("starter" in entry ? entry.starter : {}) };
      expect(errorsOf(videoConfig([{ duration: 2, layers: [layer] }])), type).toEqual([]);
    }
    expect(starterFiles(VIDEO_LAYER_TYPES.video, fileFor)).toEqual({ path: "/video/2024-01-15/u/first.mp4" });
    // Optional files are left to the user; no file of the kind, no property.
    expect(starterFiles(VIDEO_LAYER_TYPES.gl, fileFor)).toEqual({});
    expect(starterFiles(VIDEO_LAYER_TYPES.audio, () => undefined)).toEqual({});
  });

  it("gives the builder a new layer of each type: its starter and the first file of a required kind", () => {
    const files: Record<string, string> = {
      video: "/video/2026-01-01/u/clip.mp4",
      audio: "/audio/2026-01-01/u/song.mp3",
      image: "/image/2026-01-01/u/photo.png",
    };
    const fileFor = (kind: string) => files[kind];
    expect(newVideoLayer("image-overlay", fileFor)).toEqual({ type: "image-overlay", path: files.image });
    expect(newVideoLayer("detached-audio", fileFor)).toEqual({ type: "detached-audio", path: files.audio });
    expect(newVideoLayer("video", () => undefined)).toEqual({ type: "video" });
    expect(newVideoLayer("title", fileFor)).toEqual({ type: "title", text: "Your text" });
    expect(newVideoLayer("speech", fileFor)).toEqual({ type: "speech", text: "Your text" });
    expect(newVideoLayer("constructor", fileFor)).toEqual({ type: "constructor" });
    for (const type of TYPES)
      expect(errorsOf(videoConfig([{ duration: 2, layers: [newVideoLayer(type, fileFor)] }])), type).toEqual(
        [],
      );
  });

  it("states what a frame of each type costs the chunks' balance, a title's where it states nothing", () => {
    expect(
      TYPES.map((type) => [type, layerFrameCost({ type })]).filter(([, c]) => c !== DEFAULT_FRAME_COST),
    ).toEqual([
      ["video", 2],
      ["image", 2.3],
      ["gl", 3],
    ]);
    expect(layerFrameCost({ type: "html", animated: true })).toBe(5);
    expect(layerFrameCost({ type: "html", animated: false })).toBe(DEFAULT_FRAME_COST);
    // Only html is recorded over time: `animated` on another type changes nothing.
    expect(layerFrameCost({ type: "video", animated: true })).toBe(2);
    expect(layerFrameCost({ type: "no such type" })).toBe(DEFAULT_FRAME_COST);
  });
});
