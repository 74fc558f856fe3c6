/**
 * The OpenAPI document: every public mounted route is described (and every described route is mounted), each
 * operation has a summary, a tag and its security, request bodies come from the validating schemas, and the
 * examples it shows are accepted by the API.
 */
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { EXAMPLES, GALLERY } from "../../src/docs/examples";
import { INTERNAL_ROUTES } from "../../src/docs/openapi";
import committed from "../../client/openapi.json";
import { body, call, newAccount } from "./helpers";

interface Operation {
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema?: unknown; example?: unknown }> };
  responses: Record<string, unknown>;
}
type Doc = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
} & {
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

const load = async () => {
  const res = await call("/api/v1/user-api/docs");
  expect(res.status).toBe(200);
  return (await res.json()) as Doc;
};

/** Hono's `/:id` and `/:name{image|video}` as OpenAPI's `{id}`. */
const openApiPath = (path: string) => path.replace(/\/:(\w+)(\{[^}]*\})?/g, "/{$1}");

const mountedRoutes = () => {
  const seen = new Set<string>();
  for (const r of createApp().routes) {
    if (r.method === "ALL" || r.path.includes("*")) continue;
    const path = openApiPath(r.path).replace(/\/$/, "") || "/";
    if (INTERNAL_ROUTES.some(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`))) continue;
    seen.add(`${r.method.toLowerCase()} ${path}`);
  }
  return seen;
};

describe("GET /api/v1/user-api/docs", () => {
  it("is an OpenAPI 3.1 document, version 1.0.0, with the four security schemes", async () => {
    const doc = await load();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      "apiKey",
      "session",
      "sessionCookie",
      "signedLink",
    ]);
  });

  it("describes every public mounted route and nothing that is not mounted", async () => {
    const doc = await load();
    const described = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`)),
    );
    const mounted = mountedRoutes();
    expect([...mounted].filter((r) => !described.has(r)).sort()).toEqual([]);
    expect([...described].filter((r) => !mounted.has(r)).sort()).toEqual([]);
    expect(mounted.size).toBeGreaterThan(30);
  });

  it("gives each operation a summary, a tag and an answer; authenticated ones say how", async () => {
    const doc = await load();
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(op.summary, where).toBeTruthy();
        expect(op.tags?.length, where).toBe(1);
        expect(Object.keys(op.responses).length, where).toBeGreaterThan(0);
        expect(op.security, where).toBeDefined();
        // An operation that needs a credential documents the 401 of a missing or wrong one.
        expect(op.security!.length === 0 || op.responses["401"] !== undefined, where).toBe(true);
      }
  });

  it("takes the job body from the config schemas, with every $ref resolvable", async () => {
    const doc = await load();
    const create = doc.paths["/api/v1/jobs"]!.post!;
    const schema = JSON.stringify(create.requestBody!.content["application/json"]!.schema);
    expect(schema).toContain("#/components/schemas/ImageConfig");
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/(\w+)\/([^"]+)"/g)];
    expect(refs.length).toBeGreaterThan(10);
    for (const [, kind, name] of refs)
      expect((doc.components as Record<string, Record<string, unknown>>)[kind!]?.[name!], name).toBeDefined();
    const image = doc.components.schemas["ImageConfig"] as { properties: Record<string, unknown> };
    expect(Object.keys(image.properties)).toEqual(expect.arrayContaining(["width", "height", "layers"]));
  });

  it("shows examples the API accepts", async () => {
    const doc = await load();
    const { key } = await newAccount();
    const post = (path: string, example: unknown) =>
      call(path, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify(example),
      });
    const validated = await body(await post("/api/v1/jobs/validate", EXAMPLES.videoJob));
    expect(validated.data).toMatchObject({ isValid: true, errors: [] });
    expect((await body(await post("/api/v1/jobs/validate", EXAMPLES.imageJob))).data).toMatchObject({
      isValid: true,
    });
    for (const { name, job } of GALLERY) {
      const checked = (await body(await post("/api/v1/jobs/validate", job))).data as { errors: unknown[] };
      expect(checked.errors, name).toEqual([]);
    }
    const shown = doc.paths["/api/v1/jobs"]!.post!.requestBody!.content["application/json"]!.example;
    expect(shown).toEqual(EXAMPLES.imageJob);
  });
});

describe("the typed client", () => {
  it("is generated from the document this Worker serves (else run npm run client:generate)", async () => {
    const { servers, ...doc } = (await load()) as Doc & { servers: unknown };
    expect(servers).toEqual([{ url: "http://127.0.0.1:8787" }]);
    expect(JSON.parse(JSON.stringify(doc))).toEqual(committed);
  });
});

describe("GET /api/v1/user-api/docs/ui", () => {
  it("serves the docs page and its script and style from this Worker (no CDN)", async () => {
    const page = await call("/api/v1/user-api/docs/ui");
    expect(page.status).toBe(200);
    const html = await page.text();
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(urls.length).toBe(3);
    for (const url of urls) {
      expect(url.startsWith("/api/v1/user-api/docs/ui/")).toBe(true);
      const res = await call(url);
      expect(res.status, url).toBe(200);
      expect((await res.arrayBuffer()).byteLength, url).toBeGreaterThan(100);
    }
    expect((await call("/api/v1/user-api/docs/ui/..%2f..%2fwrangler.toml")).status).toBe(404);
    expect((await call("/api/v1/user-api/docs/ui/index.html")).status).toBe(404);
  });
});
