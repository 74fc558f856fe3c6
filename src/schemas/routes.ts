/**
 * GET /api/v1/schemas[/image|/video]: the config grammar as JSON Schema. Public documentation: no API key. Its MCP
 * tools include JsonCut's names, `get_image_schema` and `get_video_schema`, which answer the JSON Schema itself as
 * JsonCut's MCP server does (jsoncut/jsoncut-mcp-server).
 */
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../app-env.ts";
import { ok } from "../lib/envelope.ts";
import { tool } from "../lib/route-tool.ts";
import { NoQuery, queryParams } from "../lib/validate.ts";
import { MOUNTS } from "../paths.ts";
import { configJsonSchema, SCHEMA_VERSION, type SchemaName } from "./json-schemas.ts";
import { ConfigSchema, configSchema, SchemaList, schemaList, SchemaNameParam } from "./serialize.ts";
import { describe } from "../lib/openapi-route.ts";

/** A JSON Schema document, as JsonCut's schema tools answer it. */
const JsonSchemaDocument = v.pipe(
  v.record(v.string(), v.unknown()),
  v.description("The JSON Schema (draft-07) of the config"),
);

/** JsonCut's `get_image_schema` and `get_video_schema`. */
const jsoncutSchemaTool = (name: SchemaName) =>
  tool({
    description:
      `The complete JSON Schema of a${name === "image" ? "n image" : " video"} job config (also the MCP resource ` +
      `schema://${name}): every property, its bounds and defaults. Read it before writing a ${name} config.`,
    input: v.strictObject({}, "This tool takes no arguments"),
    output: JsonSchemaDocument,
    run: async () => configJsonSchema(name) as Record<string, unknown>,
  });

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
      mcp: {
        list_schemas: tool({
          description:
            "List the job config schemas (image, video) with what each describes and how to use it.",
          input: NoQuery,
          run: async () => schemaList(MOUNTS.schemas),
        }),
      },
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
      mcp: {
        get_schema: tool({
          description: "The JSON Schema of the image or video job config: read it before writing a config.",
          input: v.strictObject({ name: SchemaNameParam }),
          run: async (_ctx, { name }) => configSchema(name),
        }),
        get_image_schema: jsoncutSchemaTool("image"),
        get_video_schema: jsoncutSchemaTool("video"),
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
