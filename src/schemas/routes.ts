/**
 * GET /api/v1/schemas[/image|/video]: the config grammar as JSON Schema. Public documentation: no API key.
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { ok } from "../lib/envelope.ts";
import { NoQuery, queryParams } from "../lib/validate.ts";
import { SCHEMA_VERSION, type SchemaName } from "./json-schemas.ts";
import { ConfigSchema, configSchema, SchemaList, schemaList, SchemaNameParam } from "./serialize.ts";
import { describe } from "../lib/openapi-route.ts";

export const schemaRoutes = new Hono<AppEnv>()
  .get(
    "/",
    describe({
      operationId: "listConfigSchemas",
      tag: "Schemas",
      summary: "List the config schemas",
      public: true,
      query: NoQuery,
      ok: { status: 200, description: "`schemas`: `name`, `description`, `url`, `usage`", data: SchemaList },
    }),
    (c) => {
      queryParams(c, NoQuery);
      return ok(c, schemaList(c.req.path.replace(/\/+$/, "")));
    },
  )
  .get(
    "/:name{image|video}",
    describe({
      operationId: "getConfigSchema",
      tag: "Schemas",
      summary: "The JSON Schema of the image or video config",
      public: true,
      path: { name: SchemaNameParam },
      ok: {
        status: 200,
        description: "`schema` (JSON Schema draft-07), `description`, `version`",
        data: ConfigSchema,
      },
    }),
    (c) => {
      const name = c.req.param("name") as SchemaName;
      return ok(
        c,
        configSchema(name),
        200,
        `${name[0]!.toUpperCase()}${name.slice(1)} config schema (version ${SCHEMA_VERSION})`,
      );
    },
  );
