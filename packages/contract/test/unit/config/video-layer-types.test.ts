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
});
