/**
 * GET /api/v1/schemas[/image|/video]: the config grammar as JSON Schema. Public documentation: no API key.
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { ok } from "../lib/envelope";
import {
  configJsonSchema,
  SCHEMA_DESCRIPTIONS,
  SCHEMA_NAMES,
  SCHEMA_VERSION,
  type SchemaName,
} from "./json-schemas";
import { describe } from "../docs/describe";

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
      const schemas = SCHEMA_NAMES.map((name) => ({
        name,
        ...SCHEMA_DESCRIPTIONS[name],
        url: `${base}/${name}`,
      }));
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
        description: SCHEMA_DESCRIPTIONS[name].description,
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
