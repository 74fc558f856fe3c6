/**
 * JSON Schemas of the image and video configs, generated from the valibot schemas (never written by
 * hand). Rules JSON Schema cannot state (byte sizes, cut/stop order, totals) are valibot-only and named
 * in each schema's `description`. Generation is pure, so each schema is built once per isolate.
 */
import { toJsonSchema, type JsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";
import {
  ImageConfigSchema,
  ImageLayerSchema,
  VideoConfigSchema,
  VideoLayerSchema,
} from "@media-render/contract/config";
import {
  Color,
  DECIBELS_PATTERN,
  NUMBER_STRING_PATTERN,
  Position,
  POSITION_NAMES,
  PositionObject,
  Volume,
} from "@media-render/contract/config/common";
import { AudioRef, FontRef, ImageRef, VideoRef } from "@media-render/contract/config/file-ref";
import {
  TRANSITION_NAME_PATTERN,
  TRANSITION_NAMES,
  TransitionNameString,
  TransitionSchema,
} from "@media-render/contract/config/transitions";
import { ClipLayers, ClipSchema, GlobalLayerSchema } from "@media-render/contract/config/video";
import {
  ANIMATED_DESCRIPTION,
  ANIMATED_FORMS,
  AnimatedPosition,
  AnimatedPositionObject,
} from "@media-render/contract/config/keyframes";
import {
  MAX_VOLUME,
  VIDEO_MAX_LAYERS_PER_CLIP,
  VIDEO_MIN_LAYERS_PER_CLIP,
} from "@media-render/contract/config/limits";

/** Version of the config grammar (1.4.0 renamed the html layer's allowJavaScript to enableLibraries). */
export const SCHEMA_VERSION = "1.4.0";

export type SchemaName = "image" | "video";
export const SCHEMA_NAMES: readonly SchemaName[] = ["image", "video"];

/** What each schema describes and how to use it (GET /api/v1/schemas, the MCP tools). */
export const SCHEMA_DESCRIPTIONS: Record<SchemaName, { description: string; usage: string }> = {
  image: {
    description:
      "Image job config: a canvas (width, height, backgroundColor, format, quality) and 1-50 layers " +
      "(image, text, rectangle, circle, gradient, html) drawn bottom to top.",
    usage:
      'POST /api/v1/jobs with {"type": "image", "config": <this schema>}; check it first with POST /api/v1/jobs/validate',
  },
  video: {
    description:
      "Video job config: clips played in sequence with transitions, each with 1-20 layers (video, audio, " +
      "image, title, subtitle, html, backgrounds...), global layers over the whole timeline, and audio tracks.",
    usage:
      'POST /api/v1/jobs with {"type": "video", "config": <this schema>}; check it first with POST /api/v1/jobs/validate',
  },
};

// Shared parts become `$defs` entries referenced by `$ref`, which keeps the documents readable.
const SHARED = { Color, Position, PositionObject, ImageRef, VideoRef, AudioRef, FontRef };

const DEFINITIONS: Record<SchemaName, Record<string, v.GenericSchema>> = {
  image: { ...SHARED, ImageLayer: ImageLayerSchema },
  video: {
    ...SHARED,
    // A video layer's position may be keyframed (keyframes.ts): its own definition, named like the image one.
    VideoPosition: AnimatedPosition,
    Transition: TransitionSchema,
    Clip: ClipSchema,
    VideoLayer: VideoLayerSchema,
    GlobalLayer: GlobalLayerSchema,
  },
};

const ROOTS: Record<SchemaName, v.GenericSchema> = { image: ImageConfigSchema, video: VideoConfigSchema };

const cache = new Map<SchemaName, JsonSchema>();

/** A part converted on its own, without the `$schema` a document starts with. */
const withoutDialect = (schema: JsonSchema): JsonSchema => {
  const part = { ...schema };
  delete part.$schema;
  return part;
};

/** The JSON Schema (draft-07) of a job config. */
export const configJsonSchema = (name: SchemaName): JsonSchema => {
  let schema = cache.get(name);
  if (!schema) {
    // The parts a keyframed property is made of are converted on their own, without the `$defs`.
    const parts: Parameters<typeof toJsonSchema>[1] = {
      target: "draft-07",
      // Function checks (byte sizes, URL parsing, cross-field rules) have no JSON Schema form; transforms
      // (transition names normalised to their spelling) do not change what is accepted.
      ignoreActions: ["check", "raw_check", "transform"],
      // `Position` picks its schema by the input's type (v.lazy); in JSON Schema that is an anyOf.
      // Transition names match in any casing (normalised by the grammar): a pattern, the spellings as examples.
      // A keyframed property (v.lazy too) is its plain value or its list of keyframes.
      overrideSchema: ({ valibotSchema }) => {
        const animated = ANIMATED_FORMS.get(valibotSchema);
        if (animated)
          return {
            description: ANIMATED_DESCRIPTION,
            anyOf: [toJsonSchema(animated.value, parts), toJsonSchema(animated.keyframes, parts)].map(
              withoutDialect,
            ),
          };
        if (valibotSchema === AnimatedPosition) {
          const object = withoutDialect(toJsonSchema(AnimatedPositionObject, parts));
          return { anyOf: [{ type: "string", enum: [...POSITION_NAMES] }, object] };
        }
        return valibotSchema === Position
          ? { anyOf: [{ type: "string", enum: [...POSITION_NAMES] }, { $ref: "#/$defs/PositionObject" }] }
          : valibotSchema === TransitionNameString
            ? { type: "string", pattern: TRANSITION_NAME_PATTERN, examples: [...TRANSITION_NAMES] }
            : valibotSchema === Volume
              ? {
                  anyOf: [
                    { type: "number", minimum: 0, maximum: MAX_VOLUME },
                    {
                      type: "string",
                      pattern: `${DECIBELS_PATTERN.source.replace("dB", "[dD][bB]")}|${NUMBER_STRING_PATTERN.source}`,
                    },
                  ],
                }
              : valibotSchema === ClipLayers
                ? {
                    anyOf: [
                      {
                        type: "array",
                        items: { $ref: "#/$defs/VideoLayer" },
                        minItems: VIDEO_MIN_LAYERS_PER_CLIP,
                        maxItems: VIDEO_MAX_LAYERS_PER_CLIP,
                      },
                      { $ref: "#/$defs/VideoLayer" },
                    ],
                  }
                : undefined;
      },
    };
    schema = toJsonSchema(ROOTS[name], { ...parts, definitions: DEFINITIONS[name] });
    cache.set(name, schema);
  }
  return schema;
};
