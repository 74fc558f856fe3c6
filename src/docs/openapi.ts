/**
 * The OpenAPI 3.1 document of the public API, generated from the mounted routes (hono-openapi): each route's
 * `describe` and the `documented` authentication middlewares in front of it. Internal routes (the renderer's
 * storage and callback, the payment provider's webhook, administration, local helpers) are left out; the list
 * below says why, and test/worker/docs.test.ts checks that every other mounted route is described.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { generateSpecs } from "hono-openapi";
import { CONSOLE_PAGES } from "../console/routes";
import { MOUNTS } from "../paths";
import { configJsonSchema } from "../schemas/json-schemas";
import { ERROR_RESPONSE, SECURITY_SCHEMES, TAGS } from "./describe";

/** Version of the API description (spec: `info.version` 1.0.0). */
export const DOCS_VERSION = "1.0.0";

/** Routes not in the document, by path prefix, each with its reason. */
export const INTERNAL_ROUTES: readonly { prefix: string; why: string }[] = [
  { prefix: MOUNTS.storage, why: "the renderer's signed storage URLs" },
  { prefix: `${MOUNTS.runnerWebhooks}/runner`, why: "the renderer's signed status callback" },
  { prefix: `${MOUNTS.billing}/webhook`, why: "the payment provider's signed events" },
  { prefix: `${MOUNTS.health}/detailed`, why: "administration (basic auth)" },
  { prefix: `${MOUNTS.jobs}/queue-status`, why: "administration (basic auth)" },
  { prefix: MOUNTS.dev, why: "local development helpers (404 in production)" },
  { prefix: MOUNTS.docs, why: "this document and its UI" },
  { prefix: MOUNTS.builder, why: "the builder page (it uses the documented API)" },
  { prefix: MOUNTS.mcp, why: "the MCP endpoint (its tools are described by MCP itself)" },
  { prefix: MOUNTS.web, why: "the web front end's files" },
  ...CONSOLE_PAGES.map((prefix) => ({ prefix, why: "the console's pages (they use the documented API)" })),
];

/** Builds the document of `app` as served at `origin`. */
export const openApiDocument = (app: Hono<AppEnv>, origin: string) =>
  generateSpecs(app, {
    documentation: {
      info: {
        title: "Media rendering service",
        version: DOCS_VERSION,
        description:
          "Turns a JSON configuration into a finished image or video. Upload media, create a job, follow its " +
          "progress (poll or Server-Sent Events) and download the output. Every answer uses the envelope " +
          "`{ success, data, message }` (errors: `{ success: false, error, details }`).",
      },
      servers: [{ url: origin }],
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      components: {
        securitySchemes: SECURITY_SCHEMES as never,
        responses: { Error: ERROR_RESPONSE as never },
        schemas: configComponents() as never,
      },
    },
    exclude: [new RegExp(`^(${INTERNAL_ROUTES.map((r) => escape(r.prefix)).join("|")})(/|$)`)],
    defaultValidationErrorResponse: false,
  });

/**
 * The job config schemas (the same JSON Schemas `/api/v1/schemas` serves, generated from valibot) as components:
 * `ImageConfig`, `VideoConfig`, and their `$defs` as `ImageConfig.<name>` with every `$ref` pointed there.
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
    out[component] = retarget(schema);
    for (const [def, value] of Object.entries(schema.$defs ?? {}))
      out[`${component}.${def}`] = retarget(value);
  }
  return out;
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
