/**
 * The OpenAPI 3.1 document of the public API, generated from the mounted routes (hono-openapi): each route's
 * `describe` and the `documented` authentication middlewares in front of it, then completed here: the valibot
 * schemas converted (answers refer to the named schemas of components.ts), every operation's generic answers
 * (404 where a path names a record, 500 everywhere), one shared response per error status. Internal routes (the
 * renderer's storage and callback, the payment provider's webhook, administration, local helpers) are left out;
 * internal-routes.ts says why, and test/worker/docs.test.ts checks that every other mounted route is described.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { generateSpecs } from "hono-openapi";
import { configJsonSchema } from "../schemas/json-schemas.ts";
import { SCHEMA_COMPONENTS } from "./components.ts";
import {
  ERRORS,
  PendingSchema,
  SECURITY_SCHEMES,
  TAGS,
  errorRef,
  type ErrorStatus,
} from "../lib/openapi-route.ts";
import { INTERNAL_ROUTES } from "./internal-routes.ts";
import { componentSchemas, jsonSchemaOf, type JsonSchema } from "./json-schema.ts";

/** Version of the API description (spec: `info.version` 1.0.0). */
export const DOCS_VERSION = "1.0.0";

const TARGET = "draft-2020-12" as const;

type Operation = { responses: Record<string, unknown>; [key: string]: unknown };
type Doc = Awaited<ReturnType<typeof generateSpecs>>;

/** Builds the document of `app` as served at `origin`. */
export const openApiDocument = async (app: Hono<AppEnv>, origin: string) => {
  const doc = await generateSpecs(app, {
    documentation: {
      info: {
        title: "Media rendering service",
        version: DOCS_VERSION,
        description:
          "Turns a JSON configuration into a finished image or video. Upload media, create a job, follow its " +
          "progress (poll or Server-Sent Events) and download the output. Every answer uses the envelope " +
          "`{ success, data, message }` (errors: `{ success: false, error, details }`).",
        license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      },
      servers: [{ url: origin, description: "This service" }],
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      components: { securitySchemes: SECURITY_SCHEMES as never },
    },
    exclude: [new RegExp(`^(${INTERNAL_ROUTES.map((r) => escape(r.prefix)).join("|")})(/|$)`)],
    defaultValidationErrorResponse: false,
  });
  const paths = resolvePending(doc.paths) as Doc["paths"];
  const used = new Set<ErrorStatus>();
  for (const [path, item] of Object.entries(paths))
    for (const op of Object.values(item as Record<string, Operation>)) {
      const generic: ErrorStatus[] = [...(path.includes("{") ? [404 as const] : []), 500];
      for (const status of generic) op.responses[status] ??= errorRef(status);
      op.responses = sortedByStatus(op.responses);
      for (const status of Object.keys(op.responses).map(Number))
        if (status in ERRORS) used.add(status as ErrorStatus);
    }
  const schemas = {
    ...componentSchemas(SCHEMA_COMPONENTS, { mode: "output", target: TARGET }),
    ...configComponents(),
  };
  return {
    ...doc,
    paths,
    components: {
      ...doc.components,
      responses: errorResponses([...used].sort()),
      schemas: referencedOnly(schemas, paths),
    },
  };
};

/** The schemas `paths` refers to, directly or through other schemas (the config's unused `$defs` go). */
const referencedOnly = (schemas: Record<string, unknown>, paths: unknown) => {
  const kept = new Set<string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== "object") return;
    for (const [k, v] of Object.entries(node)) {
      const name =
        k === "$ref" && typeof v === "string" ? /^#\/components\/schemas\/(.+)$/.exec(v)?.[1] : undefined;
      if (name !== undefined && !kept.has(name)) {
        kept.add(name);
        visit(schemas[name]);
      } else visit(v);
    }
  };
  visit(paths);
  visit({ $ref: "#/components/schemas/ErrorBody" });
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => kept.has(name)));
};

/** Replaces each PendingSchema of src/lib/openapi-route.ts by its JSON Schema (an answer's wrapped in the success envelope). */
const resolvePending = (node: unknown): unknown => {
  if (node instanceof PendingSchema) {
    const json = jsonSchemaOf(node.schema, {
      mode: node.mode,
      target: TARGET,
      ...(node.mode === "output" ? { components: SCHEMA_COMPONENTS } : {}),
    });
    return node.envelope ? successEnvelope(json) : json;
  }
  if (Array.isArray(node)) return node.map(resolvePending);
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolvePending(v)]));
};

const successEnvelope = (data: JsonSchema) => ({
  type: "object",
  required: ["success", "data"],
  properties: {
    success: { const: true },
    data,
    message: { type: "string", description: "A sentence for people, where the answer has one" },
  },
});

const sortedByStatus = (responses: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));

/** The shared error responses (`#/components/responses/<name>`): the error envelope, per status used. */
const errorResponses = (statuses: ErrorStatus[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      ERRORS[status].name,
      {
        description: ERRORS[status].description,
        ...(status === 429
          ? {
              headers: {
                "Retry-After": {
                  description: "Seconds until the limit allows the request again",
                  schema: { type: "integer", minimum: 1 },
                },
              },
            }
          : {}),
        content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorBody" } } },
      },
    ]),
  );

/**
 * The job config schemas (the same JSON Schemas `/api/v1/schemas` serves, generated from valibot) as components:
 * `ImageConfig`, `VideoConfig`, and their `$defs` as `ImageConfig.<name>` with every `$ref` pointed there, tidied
 * (`tidy`) without changing what they accept.
 */
const configComponents = () => {
  const out: Record<string, unknown> = {};
  for (const [name, component] of [
    ["image", "ImageConfig"],
    ["video", "VideoConfig"],
  ] as const) {
    const retarget = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(retarget);
      if (node === null || typeof node !== "object") return node;
      return Object.fromEntries(
        Object.entries(node)
          .filter(([k]) => k !== "$schema" && k !== "$defs")
          .map(([k, v]) => [
            k,
            k === "$ref" && typeof v === "string"
              ? v.replace(/^#\/\$defs\//, `#/components/schemas/${component}.`)
              : retarget(v),
          ]),
      );
    };
    const schema = configJsonSchema(name) as { $defs?: Record<string, unknown> };
    out[component] = tidy(retarget(schema));
    for (const [def, value] of Object.entries(schema.$defs ?? {}))
      out[`${component}.${def}`] = tidy(retarget(value));
  }
  return out;
};

/**
 * The same schema, easier on readers and linters: an `anyOf` listing one schema several times (a union of
 * equal branches) lists it once, or becomes it; a `required` name the object's `properties` do not list is listed
 * there as "anything" (`{}`), which is what JSON Schema assumed.
 */
const tidy = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(tidy);
  if (node === null || typeof node !== "object") return node;
  let out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, tidy(v)])) as Record<string, unknown>;
  if (Array.isArray(out.anyOf)) {
    const unique = [...new Map(out.anyOf.map((s) => [JSON.stringify(s), s])).values()];
    const { anyOf: _, ...rest } = out;
    const only = unique.length === 1 ? (unique[0] as Record<string, unknown>) : undefined;
    out =
      only && typeof only === "object" && Object.keys(only).every((k) => !(k in rest))
        ? { ...rest, ...only }
        : { ...rest, anyOf: unique };
  }
  if (Array.isArray(out.required) && out.additionalProperties !== false) {
    const properties = (out.properties ?? {}) as Record<string, unknown>;
    const missing = (out.required as string[]).filter((k) => !(k in properties));
    if (missing.length)
      out.properties = { ...properties, ...Object.fromEntries(missing.map((k) => [k, {}])) };
  }
  return out;
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
