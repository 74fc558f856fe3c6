/**
 * JsonCut's config-writing MCP tools beside ours, so an agent configured for JsonCut's MCP server finds the tools it
 * knows (jsoncut/jsoncut-mcp-server): `create_image_config` and `create_video_config` assemble `{ type, config }`
 * from the properties given, with JsonCut's defaults for the size (and a video's fps and format), and check it
 * against the grammar (not the files: a config written before its files are uploaded names placeholders), with their
 * descriptions carrying the config-writing guidance. They stand for job validation (POST /api/v1/jobs/validate,
 * src/jobs/routes.ts): its permission and rate limits. (`validate_config` is one of our own tools already, under the
 * same name; JsonCut's schema tools are the schemas route's, src/schemas/routes.ts.)
 */
import { validateJobConfig } from "@media-render/contract/config";
import { FieldError, FieldWarning } from "@media-render/contract/field-errors";
import { spellingsFor } from "@media-render/contract/output-formats";
import * as v from "valibot";
import type { CallerCtx } from "../context.ts";
import { catalogueOnline } from "../fonts/online.ts";
import { tool } from "../lib/route-tool.ts";

const Layers = v.pipe(
  v.array(v.record(v.string(), v.unknown())),
  v.description("Layer objects, each with its `type`"),
);
const Num = (description: string) => v.optional(v.pipe(v.number(), v.description(description)));
const Str = (description: string) => v.optional(v.pipe(v.string(), v.description(description)));

/** JsonCut's named properties of an image config; any other property of the grammar is taken too. */
const ImageConfigInput = v.looseObject({
  width: Num("Canvas width in pixels (default 1920)"),
  height: Num("Canvas height in pixels (default 1080)"),
  backgroundColor: Str("Canvas colour (hex, rgb(), hsl() or a CSS name); transparent when left out"),
  format: v.optional(v.pipe(v.picklist(spellingsFor("image")), v.description("Output format"))),
  quality: Num("JPEG/WebP quality, 1-100"),
  defaults: v.optional(
    v.pipe(
      v.record(v.string(), v.unknown()),
      v.description("`layer`: properties for every layer; `layerType.<type>`: for one type"),
    ),
  ),
  layers: v.pipe(
    Layers,
    v.description("Drawn bottom to top: image, text, rectangle, circle, gradient, html"),
  ),
});

/** JsonCut's named properties of a video config; any other property of the grammar is taken too. */
const VideoConfigInput = v.looseObject({
  width: Num("Frame width in pixels (default 1280)"),
  height: Num("Frame height in pixels (default 720)"),
  fps: Num("Frames per second (default 25)"),
  format: Str("Output: mp4 (default), mov, webm, gif, mp3, wav, m4a"),
  fast: v.optional(v.pipe(v.boolean(), v.description("A small, quick preview render"))),
  audioFilePath: Str("Background audio for the whole video (an upload's storageUrl or a public URL)"),
  loopAudio: v.optional(v.boolean()),
  keepSourceAudio: v.optional(v.pipe(v.boolean(), v.description("Keep the sound of video layers"))),
  audioTracks: v.optional(v.array(v.record(v.string(), v.unknown()))),
  defaults: v.optional(
    v.pipe(
      v.record(v.string(), v.unknown()),
      v.description("`duration`, `transition` ({ name, duration }), `layer`, `layerType`"),
    ),
  ),
  clips: v.pipe(
    v.array(v.record(v.string(), v.unknown())),
    v.description("Played in order: each { duration?, layers: [...], transition? }"),
  ),
});

/** What the config tools answer: the request to send, and what the grammar says of it. */
const createdConfig = <T extends "image" | "video">(type: T) =>
  v.object({
    type: v.literal(type),
    config: v.record(v.string(), v.unknown()),
    isValid: v.pipe(v.boolean(), v.description("The grammar's verdict (files are not looked up)")),
    errors: v.array(FieldError),
    warnings: v.array(FieldWarning),
  });

const checked = <T extends "image" | "video">(ctx: CallerCtx, type: T, config: Record<string, unknown>) => {
  const result = validateJobConfig(type, config, { catalogueOnline: catalogueOnline(ctx.env) });
  return {
    type,
    config,
    isValid: result.valid,
    errors: result.valid ? [] : result.errors,
    warnings: result.warnings,
  };
};

/** Fills the properties JsonCut's tools default, where they are left out. */
const withDefaults = (defaults: Record<string, unknown>, input: Record<string, unknown>) => ({
  ...defaults,
  ...Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)),
});

/** `create_image_config` and `create_video_config`, declared by POST /api/v1/jobs/validate. */
export const JSONCUT_CONFIG_TOOLS = {
  create_image_config: tool({
    description:
      "Write an image job config: answers { type: 'image', config } to pass to validate_config or create_job, " +
      "and what the grammar says of it (isValid, errors at their fields, warnings). How to write one: read " +
      "get_image_schema (or the resource schema://image) first. A canvas (width, height: 1920x1080 when left " +
      "out; backgroundColor) and 1-50 layers drawn bottom to top. Place a layer with x/y pixels from the top-left " +
      "or `position`: a name (center, top, bottom-right...) or { x, y } fractions of the canvas with originX/originY. " +
      "Text: fontSize, color, align, wrap (needs width), a font by googleFont ('Roboto:700') or an uploaded " +
      "fontPath. Files: an upload's storageUrl (/image/...) or a public https URL ending in its extension; a " +
      "placeholder path is fine here but not at creation. Put shared properties in defaults.layer or " +
      "defaults.layerType.<type>. Guide with examples and limits: see the server's /llms.txt.",
    input: ImageConfigInput,
    output: createdConfig("image"),
    run: async (ctx, input) => checked(ctx, "image", withDefaults({ width: 1920, height: 1080 }, input)),
  }),
  create_video_config: tool({
    description:
      "Write a video job config: answers { type: 'video', config } to pass to validate_config or create_job, " +
      "and what the grammar says of it. How to write one: read get_video_schema (or schema://video) first. Clips " +
      "play in order, each with a duration (seconds) and 1-20 layers drawn bottom to top (video, image, " +
      "image-overlay, title, subtitle, news-title, slide-in-text, fill-color, gradients, html, audio...); at most " +
      "100 clips and 300 s. Transitions: defaults.transition or a clip's transition { name, duration } (fade, " +
      "wipe, circle, and every gl-transitions name); each is at most half of its neighbouring clips. Sound: " +
      "audioFilePath (loopAudio), audioTracks, keepSourceAudio for video layers' own sound. Size 1280x720 at 25 " +
      "fps, mp4, when left out. Files as for images: storageUrl or a public URL with its extension. Guide with " +
      "examples and limits: the server's /llms.txt.",
    input: VideoConfigInput,
    output: createdConfig("video"),
    run: async (ctx, input) =>
      checked(ctx, "video", withDefaults({ width: 1280, height: 720, fps: 25, format: "mp4" }, input)),
  }),
};
