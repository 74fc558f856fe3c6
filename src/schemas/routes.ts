/**
 * GET /api/v1/schemas[/image|/video]: the config grammar as JSON Schema. Public documentation: no API key.
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { ok } from "../lib/envelope";
import { configJsonSchema, SCHEMA_VERSION, type SchemaName } from "./json-schemas";
import { describe } from "../docs/describe";

const DESCRIPTIONS: Record<SchemaName, { description: string; usage: string }> = {
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

const NAMES: SchemaName[] = ["image", "video"];

export const schemaRoutes = new Hono<AppEnv>()
  .get(
    "/",
    describe({
      tag: "Schemas",
      summary: "List the config schemas",
      public: true,
      ok: { status: 200, description: "`schemas`: `name`, `description`, `url`, `usage`" },
    }),
    (c) => {
      const base = c.req.path.replace(/\/+$/, "");
      const schemas = NAMES.map((name) => ({ name, ...DESCRIPTIONS[name], url: `${base}/${name}` }));
      return ok(c, { schemas });
    },
  )
  .get(
    "/:name{image|video}",
    describe({
      tag: "Schemas",
      summary: "The JSON Schema of the image or video config",
      public: true,
      parameters: [{ name: "name", in: "path", required: true, schema: { enum: ["image", "video"] } }],
      ok: { status: 200, description: "`schema` (JSON Schema draft-07), `description`, `version`" },
    }),
    (c) => {
      const name = c.req.param("name") as SchemaName;
      const data = {
        schema: configJsonSchema(name),
        description: DESCRIPTIONS[name].description,
        version: SCHEMA_VERSION,
      };
      return ok(
        c,
        data,
        200,
        `${name[0]!.toUpperCase()}${name.slice(1)} config schema (version ${SCHEMA_VERSION})`,
      );
    },
  );
