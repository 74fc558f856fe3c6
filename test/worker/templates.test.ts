import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { body, call, json, newAccount, updateKey } from "./helpers.ts";
import { auditedBalance, textImage } from "./jobs-seed.ts";

const TEMPLATE = {
  name: "Greeting card",
  type: "image",
  config: {
    width: 120,
    height: 60,
    backgroundColor: "{{bg}}",
    layers: [{ type: "text", text: "Hello {{name}}", x: 4, y: 4, fontSize: "{{size}}" }],
  },
  variables: [
    { name: "size", type: "number", default: 20 },
    { name: "bg", type: "colour", required: true },
  ],
};

const post = (path: string, payload: unknown, key: string, headers: Record<string, string> = {}) => {
  const init = json("POST", payload, key);
  return call(path, { ...init, headers: { ...(init.headers as Record<string, string>), ...headers } });
};
const csv = (path: string, text: string, key: string, headers: Record<string, string> = {}) =>
  call(path, {
    method: "POST",
    headers: { "content-type": "text/csv", "x-api-key": key, ...headers },
    body: text,
  });
const get = (path: string, key: string) => call(path, { headers: { "x-api-key": key } });

const newTemplate = async (key: string, template: unknown = TEMPLATE) => {
  const res = await post("/api/v2/templates", template, key);
  expect(res.status).toBe(201);
  return (await body<{ id: string }>(res)).data!.id;
};

describe("templates: happy path", () => {
  it("saves a template with declared and derived variables, reads, lists, replaces and deletes it", async () => {
    const { key } = await newAccount();
    const res = await post("/api/v2/templates", TEMPLATE, key);
    expect(res.status).toBe(201);
    const t = (await body<{ id: string; variables: unknown[]; type: string }>(res)).data!;
    expect(t.id).toMatch(/^tpl_/);
    expect(t.type).toBe("image");
    expect(t.variables).toEqual([
      { name: "size", type: "number", required: true, default: 20 },
      { name: "bg", type: "colour", required: true },
      { name: "name", type: "string", required: true },
    ]);
    expect((await get(`/api/v2/templates/${t.id}`, key)).status).toBe(200);
    const list = await body<{ templates: { id: string }[] }>(await get("/api/v2/templates", key));
    expect(list.data!.templates.map((x) => x.id)).toEqual([t.id]);
    const put = await call(`/api/v2/templates/${t.id}`, json("PUT", { ...TEMPLATE, name: "Renamed" }, key));
    expect(put.status).toBe(200);
    expect((await body<{ name: string }>(put)).data!.name).toBe("Renamed");
    const del = await call(`/api/v2/templates/${t.id}`, { method: "DELETE", headers: { "x-api-key": key } });
    expect(del.status).toBe(200);
    expect((await get(`/api/v2/templates/${t.id}`, key)).status).toBe(404);
  });
});

describe("templates: validation at save time", () => {
  it("refuses an unused declared variable, a default of the wrong type and a grammar error outside placeholders", async () => {
    const { key } = await newAccount();
    const res = await post(
      "/api/v2/templates",
      {
        ...TEMPLATE,
        config: { ...TEMPLATE.config, width: -5 },
        variables: [
          ...TEMPLATE.variables,
          { name: "ghost", type: "string" },
          { name: "bg", type: "colour", default: "red" },
        ],
      },
      key,
    );
    expect(res.status).toBe(400);
    const b = await body(res);
    expect(b.success).toBe(false);
    const codes = b.details!.errors!.map((e) => `${e.field}:${e.code}`);
    expect(codes).toContain("variables[2].name:UNUSED_VARIABLE");
    expect(codes).toContain("variables[3].name:DUPLICATE_VARIABLE");
    expect(codes).toContain("variables[3].default:TYPE_MISMATCH");
    expect(codes.some((c) => c.startsWith("config.width:"))).toBe(true);
  });
});

describe("batches: bad input is refused with row-level errors and nothing is charged", () => {
  it("lists unknown variables, type mismatches and missing values by row and field (all-or-nothing)", async () => {
    const { key, userId } = await newAccount({ tokens: 1000 });
    const id = await newTemplate(key);
    const before = await auditedBalance(userId);
    const res = await post(
      `/api/v2/templates/${id}/batches`,
      {
        rows: [
          { name: "Ann", bg: "#ff0000" },
          { name: "Bob", bg: "blue", size: "big" },
          { name: "Cy", bg: "#00ff00", colour: "#fff" },
          { bg: "#0000ff" },
          { name: "Di", bg: "#000", size: 5000 },
        ],
      },
      key,
    );
    expect(res.status).toBe(400);
    const b = await body(res);
    expect(b.error).toContain("4 of 5 rows are not valid");
    const errors = b.details!.errors as unknown as { row: number; field: string; code: string }[];
    expect(errors.map((e) => `${e.row}:${e.field}:${e.code}`)).toEqual(
      expect.arrayContaining([
        "2:bg:TYPE_MISMATCH",
        "2:size:TYPE_MISMATCH",
        "3:colour:UNKNOWN_VARIABLE",
        "4:name:MISSING_VARIABLE",
      ]),
    );
    expect(errors.some((e) => e.row === 5 && e.field.startsWith("config.layers[0].fontSize"))).toBe(true);
    expect(errors.some((e) => e.row === 1)).toBe(false);
    expect(await auditedBalance(userId)).toBe(before);
    const jobs = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ?")
      .bind(userId)
      .first<{ n: number }>();
    expect(jobs!.n).toBe(0);
  });

  it("reports malformed CSV with its line, and a bad header", async () => {
    const { key } = await newAccount();
    const id = await newTemplate(key);
    const bad = await csv(`/api/v2/templates/${id}/batches`, 'name,bg\n"Ann,#fff\n', key);
    expect(bad.status).toBe(400);
    expect((await body(bad)).details!.errors![0]).toMatchObject({ field: "body", code: "INVALID_CSV" });
    const dup = await csv(`/api/v2/templates/${id}/batches`, "name,name\nA,B\n", key);
    expect(dup.status).toBe(400);
    expect((await body(dup)).error).toBe("Validation failed");
    const ragged = await csv(`/api/v2/templates/${id}/batches`, "name,bg\nA,#fff,extra\n", key);
    expect(ragged.status).toBe(400);
    expect((await body(ragged)).details!.errors![0]!.message).toMatch(/line 2/);
  });

  it("refuses more rows than the plan allows, and a body over the plan's bytes", async () => {
    const { key } = await newAccount({ planId: "free", tokens: 100_000 });
    const id = await newTemplate(key);
    const rows = Array.from({ length: 101 }, (_, i) => ({ name: `n${i}`, bg: "#fff" }));
    const res = await post(`/api/v2/templates/${id}/batches`, { rows }, key);
    expect(res.status).toBe(400);
    expect((await body(res)).details!.errors![0]).toMatchObject({ field: "rows", code: "TOO_MANY_ROWS" });
    const big = `name,bg\n${"x".repeat(300 * 1024)},#fff\n`;
    expect((await csv(`/api/v2/templates/${id}/batches`, big, key)).status).toBe(413);
  });

  it("answers 402 when the batch's total reserve exceeds the balance, charging nothing", async () => {
    const { key, userId } = await newAccount({ tokens: 5 });
    const id = await newTemplate(key);
    const rows = Array.from({ length: 3 }, (_, i) => ({ name: `n${i}`, bg: "#fff" }));
    const res = await post(`/api/v2/templates/${id}/batches`, { rows }, key);
    expect(res.status).toBe(402);
    expect((await body(res)).details).toMatchObject({ required: 9, available: 5 });
    expect(await auditedBalance(userId)).toBe(5);
  });

  it("valid-only opens the good rows and reports the others", async () => {
    const { key, userId } = await newAccount({ tokens: 1000 });
    const id = await newTemplate(key);
    const res = await csv(
      `/api/v2/templates/${id}/batches?mode=valid-only&nameColumn=file`,
      '\uFEFFname,bg,file\r\nAnn,#ff0000,ann\r\n"Bob, Jr",nope,bob\r\n',
      key,
    );
    expect(res.status).toBe(201);
    const b = (await body<{ accepted: number; rejected: { row: number }[]; estimatedTokens: number }>(res))
      .data!;
    expect(b.accepted).toBe(1);
    expect(b.rejected.map((r) => r.row)).toEqual([2]);
    expect(b.estimatedTokens).toBe(3);
    expect(await auditedBalance(userId)).toBeLessThanOrEqual(997);
  });
});

describe("templates and batches: security", () => {
  it("answers 404 for another account's template and batch on every route", async () => {
    const owner = await newAccount({ tokens: 1000 });
    const other = await newAccount({ tokens: 1000 });
    const id = await newTemplate(owner.key);
    const created = await post(
      `/api/v2/templates/${id}/batches`,
      { rows: [{ name: "A", bg: "#fff" }] },
      owner.key,
    );
    const batchId = (await body<{ batchId: string }>(created)).data!.batchId;
    const k = other.key;
    const h = { "x-api-key": k };
    const answers = await Promise.all([
      get(`/api/v2/templates/${id}`, k),
      call(`/api/v2/templates/${id}`, json("PUT", TEMPLATE, k)),
      call(`/api/v2/templates/${id}`, { method: "DELETE", headers: h }),
      post(`/api/v2/templates/${id}/batches`, { rows: [{ name: "A", bg: "#fff" }] }, k),
      get(`/api/v2/batches/${batchId}`, k),
      call(`/api/v2/batches/${batchId}`, { method: "DELETE", headers: h }),
      get(`/api/v2/batches/${batchId}/output`, k),
      get(`/api/v2/batches/${batchId}/manifest`, k),
    ]);
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404, 404, 404]);
    expect((await get("/api/v2/templates", k)).status).toBe(200);
  });

  it("answers 403 without the route's scope, and a scoped key works without v1 permissions", async () => {
    const reader = await newAccount({ permissions: [{ resource: "jobs", action: "read" }] });
    const media = await newAccount({ permissions: [{ resource: "media", action: "full" }] });
    expect((await get("/api/v2/templates", reader.key)).status).toBe(200);
    const write = await post("/api/v2/templates", TEMPLATE, reader.key);
    expect(write.status).toBe(403);
    expect(await body(write)).toEqual({
      success: false,
      error: "Insufficient permissions",
      details: { requiredScope: "templates:write" },
    });
    expect((await get("/api/v2/templates", media.key)).status).toBe(403);
    expect((await get("/api/v2/batches/bat_x", media.key)).status).toBe(403);
    // A key given only templates:read and templates:write (no v1 permission).
    const scoped = await newAccount({ permissions: [] });
    await updateKey(scoped.keyId, "scopes", JSON.stringify(["templates:read", "templates:write"]));
    expect((await post("/api/v2/templates", TEMPLATE, scoped.key)).status).toBe(201);
    const id = await newTemplate(scoped.key);
    expect((await post(`/api/v2/templates/${id}/batches`, { rows: [] }, scoped.key)).status).toBe(403);
    expect((await call("/api/v2/templates")).status).toBe(401);
  });

  it("replays an Idempotency-Key and refuses it for another body; one batch only", async () => {
    const { key, userId } = await newAccount({ tokens: 1000 });
    const id = await newTemplate(key);
    const payload = { rows: [{ name: "A", bg: "#fff" }] };
    const h = { "idempotency-key": "batch-1" };
    const [a, b] = [
      await post(`/api/v2/templates/${id}/batches`, payload, key, h),
      await post(`/api/v2/templates/${id}/batches`, payload, key, h),
    ];
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect((await body<{ batchId: string }>(a)).data!.batchId).toBe(
      (await body<{ batchId: string }>(b)).data!.batchId,
    );
    const c = await post(`/api/v2/templates/${id}/batches`, { rows: [{ name: "B", bg: "#fff" }] }, key, h);
    expect(c.status).toBe(409);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM batches WHERE user_id = ?")
      .bind(userId)
      .first<{ n: number }>();
    expect(n!.n).toBe(1);
  });
});

describe("batches: races and the single-job limit", () => {
  it("two batches racing for one balance: one opens whole, the other is refused whole, the ledger balances", async () => {
    const { key, userId } = await newAccount({ tokens: 100 });
    const id = await newTemplate(key);
    const rows = Array.from({ length: 20 }, (_, i) => ({ name: `n${i}`, bg: "#fff" }));
    const answers = await Promise.all([
      post(`/api/v2/templates/${id}/batches`, { rows }, key),
      post(`/api/v2/templates/${id}/batches`, { rows }, key),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 402]);
    const open = await env.DB.prepare(
      "SELECT count(*) AS n FROM jobs WHERE user_id = ? AND status IN ('PENDING','PROCESSING','COMPLETED')",
    )
      .bind(userId)
      .first<{ n: number }>();
    expect(open!.n).toBe(20);
    expect(await auditedBalance(userId)).toBeGreaterThanOrEqual(40);
  });

  it("a running batch does not make single jobs answer 429", async () => {
    const { key } = await newAccount({ planId: "free", tokens: 1000 });
    const id = await newTemplate(key);
    const rows = Array.from({ length: 30 }, (_, i) => ({ name: `n${i}`, bg: "#fff" }));
    expect((await post(`/api/v2/templates/${id}/batches`, { rows }, key)).status).toBe(201);
    const single = await post("/api/v1/jobs", { type: "image", config: textImage() }, key);
    expect(single.status).toBe(201);
  });
});

describe("template variables", () => {
  it("keeps a whole placeholder's type, inserts into text, and applies defaults for empty cells", async () => {
    const { mergeRow, variableSchema } = await import("@media-render/contract/config/template-variables");
    const config = { a: "{{n}}", b: "x {{n}} {{s}}", c: ["{{col}}"] };
    const { variables, errors } = variableSchema(config, [
      { name: "n", type: "number", required: true, default: 7 },
    ]);
    expect(errors).toEqual([]);
    expect(variables.map((v) => `${v.name}:${v.type}`)).toEqual(["n:number", "s:string", "col:string"]);
    expect(mergeRow(config, variables, { n: "", s: "hi", col: "y" }, new Set())).toEqual({
      config: { a: 7, b: "x 7 hi", c: ["y"] },
    });
    expect(mergeRow(config, variables, { n: "3.5", s: "hi", col: "y" }, new Set())).toEqual({
      config: { a: 3.5, b: "x 3.5 hi", c: ["y"] },
    });
  });
});
