/**
 * The OpenAPI document: every public mounted route is described (and every described route is mounted), each
 * operation has a stable operationId, a summary, a tag, its security and a typed answer for every status, request
 * bodies come from the validating schemas, every example fits its schema and the request examples are accepted by
 * the API. client/openapi.json is this document.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { contentSecurityPolicy } from "../../src/console/policy.ts";
import { EXAMPLES, GALLERY } from "@media-render/contract/examples";
import { INTERNAL_ROUTES } from "../../src/docs/internal-routes.ts";
import committed from "../../client/openapi.json";
import { openApiContract, type OpenApiDocument } from "../openapi-contract.ts";
import { BASE, body, call, newAccount } from "./helpers.ts";

interface Media {
  schema?: Record<string, unknown>;
  example?: unknown;
}
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { $ref?: string; content?: Record<string, Media> }>;
}
type Doc = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
} & {
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
    responses: Record<string, unknown>;
  };
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

  it("names each operation by a unique, stable, readable operationId", async () => {
    const doc = await load();
    const ids = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(new Set(ids.map((i) => i.split(" ")[2])).size).toBe(ids.length);
    for (const id of ids) expect(id.split(" ")[2], id).toMatch(/^[a-z][a-zA-Z0-9]{2,40}$/);
    // A rename breaks every generated client: change this list only on purpose.
    expect(ids.filter((i) => i.includes("/api/v1/jobs") || i.includes("/files"))).toEqual([
      "POST /api/v1/jobs createJob",
      "GET /api/v1/jobs listJobs",
      "POST /api/v1/jobs/validate validateJob",
      "GET /api/v1/jobs/stats getJobStats",
      "GET /api/v1/jobs/stats/last-30-days getJobDailyCounts",
      "GET /api/v1/jobs/{jobId} getJob",
      "DELETE /api/v1/jobs/{jobId} cancelJob",
      "GET /api/v1/jobs/{jobId}/events streamJobEvents",
      "POST /api/v1/files/upload uploadFile",
      "POST /api/v1/files/validate validateFile",
      "POST /api/v1/files/validate/image validateImageFile",
      "POST /api/v1/files/validate/video validateVideoFile",
      "POST /api/v1/files/validate/audio validateAudioFile",
      "GET /api/v1/files/supported-types getSupportedFileTypes",
      "GET /api/v1/files listFiles",
      "GET /api/v1/files/{fileId} getFile",
      "DELETE /api/v1/files/{fileId} deleteFile",
      "GET /api/v1/files/{fileId}/metadata getFileMetadata",
      "GET /api/v1/files/{fileId}/download downloadFile",
      "HEAD /api/v1/files/{fileId}/download headFile",
      "POST /api/v1/files/{fileId}/link createDownloadLink",
      "POST /api/v1/files/{fileId}/public-link createPublicLink",
    ]);
    expect(
      ids.filter((i) => i.includes("/api/v1/auth/options") || i.includes("/api/v1/auth/session")),
    ).toEqual([
      "GET /api/v1/auth/options getSignInOptions",
      "POST /api/v1/auth/session openBrowserSession",
      "GET /api/v1/auth/session getBrowserSession",
      "DELETE /api/v1/auth/session closeBrowserSession",
    ]);
    expect(ids.filter((i) => i.includes("/api/v2/storage-connections"))).toEqual([
      "GET /api/v2/storage-connections listStorageConnections",
      "POST /api/v2/storage-connections createStorageConnection",
      "GET /api/v2/storage-connections/{id} getStorageConnection",
      "DELETE /api/v2/storage-connections/{id} deleteStorageConnection",
    ]);
    expect(ids.length).toBe(77);
  });

  it("types every answer: JSON data by a named schema, errors by the shared envelope, other media by type", async () => {
    const doc = await load();
    const shared = doc.components.responses as Record<string, { content: Record<string, Media> }>;
    const untyped: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        if (!op.responses["500"]) untyped.push(`${method} ${path}: no 500`);
        for (const [status, answer] of Object.entries(op.responses)) {
          const where = `${method.toUpperCase()} ${path} ${status}`;
          if (Number(status) >= 400) {
            const name = /^#\/components\/responses\/(\w+)$/.exec(answer.$ref ?? "")?.[1];
            const schema = name && shared[name]?.content["application/json"]?.schema;
            if (JSON.stringify(schema) !== '{"$ref":"#/components/schemas/ErrorBody"}')
              untyped.push(`${where}: not the shared error envelope`);
          } else if (status === "304") {
            if (answer.content) untyped.push(`${where}: a body`);
          } else {
            const content = Object.entries(answer.content ?? {});
            if (!content.length) untyped.push(`${where}: no content`);
            for (const [type, media] of content) {
              const data = (media.schema as { properties?: { data?: { $ref?: string } } } | undefined)
                ?.properties?.data;
              if (!media.schema) untyped.push(`${where} ${type}: no schema`);
              else if (
                type === "application/json" &&
                !/^#\/components\/schemas\/[A-Z]\w+$/.test(data?.$ref ?? "")
              )
                untyped.push(`${where}: data is not a named schema`);
            }
          }
        }
      }
    expect(untyped).toEqual([]);
  });

  it("shows only examples that fit their schemas", async () => {
    const doc = await load();
    const contract = openApiContract(doc as unknown as OpenApiDocument);
    const examples: { where: string; schema: Record<string, unknown>; example: unknown }[] = [];
    const visit = (node: unknown, where: string) => {
      if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${where}/${i}`));
      if (node === null || typeof node !== "object") return;
      const media = node as Media & { examples?: unknown };
      if (media.schema && media.example !== undefined)
        examples.push({ where, schema: media.schema, example: media.example });
      for (const [k, v] of Object.entries(node)) visit(v, `${where}/${k}`);
    };
    visit(doc.paths, "#/paths");
    expect(examples.length).toBeGreaterThanOrEqual(5);
    for (const { where, schema, example } of examples)
      expect(contract.problems(schema, example), where).toBeNull();
    // And one that does not fit is caught (the check can fail).
    const create = doc.paths["/api/v1/jobs"]!.post!.responses["201"]!.content!["application/json"]!;
    expect(contract.problems(create.schema!, { success: true, data: { jobId: 1 } })).toMatch(
      /jobId|required/,
    );
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

describe("client/openapi.json", () => {
  it("is the document this Worker serves on 127.0.0.1:8787 (else run npm run client:generate)", async () => {
    const doc = await load();
    expect((doc as { servers?: unknown }).servers).toEqual([{ url: BASE, description: "This service" }]);
    expect(doc).toEqual(committed);
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

  it("answers the page under a strict Content-Security-Policy: this origin only, no inline script, no framing", async () => {
    const policy = (await call("/api/v1/user-api/docs/ui")).headers.get("content-security-policy");
    expect(policy).toBe(contentSecurityPolicy(env, { captcha: false }));
    const directives = new Map(
      policy!.split(";").map((d) => {
        const [name, ...sources] = d.trim().split(/\s+/);
        return [name!, sources.join(" ")];
      }),
    );
    expect(directives.get("default-src")).toBe("'none'");
    expect(directives.get("script-src")).toBe("'self'");
    expect(directives.get("connect-src")).toBe("'self'");
    expect(directives.get("frame-ancestors")).toBe("'none'");
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|hcaptcha/);
  });
});
