/**
 * A batch body's shape is bounded before its rows are merged, and the errors it can earn are bounded too: a small
 * body must never buy a huge error answer (a 900 KB CSV with 100,000 unknown columns once got 10.9 MB back).
 */
import { describe, expect, it } from "vitest";
import {
  MAX_BATCH_COLUMNS,
  MAX_CELL_CHARS,
  MAX_COLUMN_NAME_CHARS,
  MAX_ERRORS_PER_ROW,
  MAX_REPORTED_ERRORS,
  MAX_TEMPLATE_VARIABLES,
} from "../../src/templates/limits.ts";
import { body, call, json, newAccount } from "./helpers.ts";

const TEMPLATE = {
  name: "Badge",
  type: "image",
  config: {
    width: 64,
    height: 32,
    backgroundColor: "{{bg}}",
    layers: [{ type: "text", text: "{{label}}", x: 2, y: 2, fontSize: 12 }],
  },
};

const setup = async () => {
  const account = await newAccount({ planId: "pro", tokens: 10_000 });
  const res = await call("/api/v2/templates", json("POST", TEMPLATE, account.key));
  expect(res.status).toBe(201);
  return { ...account, path: `/api/v2/templates/${(await body<{ id: string }>(res)).data!.id}/batches` };
};

const csv = (path: string, text: string, key: string) =>
  call(path, { method: "POST", headers: { "content-type": "text/csv", "x-api-key": key }, body: text });

type Errors = { row?: number; field: string; message: string; code: string }[];

describe("batch CSV: shape limits", () => {
  it("answers a 900 KB CSV of 100,000 unknown columns with one short error naming the column limit", async () => {
    const { key, path } = await setup();
    const columns = Array.from({ length: 100_000 }, (_, i) => `c${i}`);
    const text = `${columns.join(",")}\n${columns.map(() => "x").join(",")}\n`;
    expect(text.length).toBeGreaterThan(850_000);
    const res = await csv(path, text, key);
    expect(res.status).toBe(400);
    const raw = await res.text();
    expect(raw.length).toBeLessThan(2000);
    const b = JSON.parse(raw) as { success: boolean; details: { errors: Errors } };
    expect(b.success).toBe(false);
    expect(b.details.errors).toEqual([
      {
        field: "body",
        message: `Bad CSV header: 100000 columns; at most ${MAX_BATCH_COLUMNS}`,
        code: "INVALID_CSV",
      },
    ]);
  });

  it("refuses a header cell longer than a column name can be", async () => {
    const { key, path } = await setup();
    const long = "a".repeat(MAX_COLUMN_NAME_CHARS + 1);
    const res = await csv(path, `label,${long}\nx,y\n`, key);
    expect(res.status).toBe(400);
    const e = (await body(res)).details!.errors![0]!;
    expect(e).toMatchObject({ field: "body", code: "INVALID_CSV" });
    expect(e.message).toContain(`longer than ${MAX_COLUMN_NAME_CHARS} characters`);
    expect(e.message.length).toBeLessThan(200);
  });

  it("refuses a cell longer than any config string can be, naming its line", async () => {
    const { key, path } = await setup();
    const res = await csv(path, `label,bg\nok,#fff\n${"x".repeat(MAX_CELL_CHARS + 1)},#fff\n`, key);
    expect(res.status).toBe(400);
    const e = (await body(res)).details!.errors![0]!;
    expect(e).toMatchObject({ field: "body", code: "INVALID_CSV" });
    expect(e.message).toMatch(/line 3/);
    expect(e.message).toContain(`${MAX_CELL_CHARS} characters`);
    // A cell just within the limit is read (and then judged by the grammar, not the reader).
    const within = await csv(path, `label,bg\n${"x".repeat(MAX_CELL_CHARS)},#fff\n`, key);
    expect((await body(within)).details!.errors![0]).toMatchObject({
      row: 1,
      field: expect.stringMatching(/^config/),
    });
  });
});

describe("batch errors: bounded answers", () => {
  it(`reports at most ${MAX_REPORTED_ERRORS} errors, then how many more`, async () => {
    const { key, path } = await setup();
    // 1,000 rows x 150 unknown columns: 150,000 errors before the cap (a ~260 KB body).
    const extra = Array.from({ length: 150 }, (_, i) => `x${i}`);
    const row = `hi,#fff,${extra.map(() => "1").join(",")}`;
    const text = `label,bg,${extra.join(",")}\n${Array(1000).fill(row).join("\n")}\n`;
    const res = await csv(path, text, key);
    expect(res.status).toBe(400);
    const raw = await res.text();
    expect(raw.length).toBeLessThan(50_000);
    const b = JSON.parse(raw) as { error: string; details: { errors: Errors } };
    expect(b.error).toContain("1000 of 1000 rows are not valid");
    const errors = b.details.errors;
    expect(errors).toHaveLength(MAX_REPORTED_ERRORS + 1);
    expect(errors.slice(0, MAX_REPORTED_ERRORS).every((e) => e.code === "UNKNOWN_VARIABLE")).toBe(true);
    expect(errors.at(-1)).toEqual({
      field: "rows",
      message: `and ${150_000 - MAX_REPORTED_ERRORS} more errors`,
      code: "MORE_ERRORS",
    });
  });

  it("caps a JSON row's keys like CSV columns: one error for the row, not one per key", async () => {
    const { key, path } = await setup();
    const wide = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, 1]));
    const res = await call(path, json("POST", { rows: [{ label: "a", bg: "#fff" }, wide] }, key));
    expect(res.status).toBe(400);
    const errors = (await body(res)).details!.errors as unknown as Errors;
    expect(errors).toEqual([
      {
        row: 2,
        field: "row",
        message: `20000 columns; at most ${MAX_BATCH_COLUMNS}`,
        code: "TOO_MANY_COLUMNS",
      },
    ]);
  });

  it(`valid-only keeps each rejected row's errors to ${MAX_ERRORS_PER_ROW} and says how many more`, async () => {
    const { key, path } = await setup();
    const wide = {
      label: "bad",
      bg: "#fff",
      ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`x${i}`, 1])),
    };
    const res = await call(
      path,
      json("POST", { mode: "valid-only", rows: [{ label: "ok", bg: "#fff" }, wide] }, key),
    );
    expect(res.status).toBe(201);
    const b = (await body<{ accepted: number; rejected: { row: number; errors: Errors }[] }>(res)).data!;
    expect(b.accepted).toBe(1);
    expect(b.rejected).toHaveLength(1);
    const errors = b.rejected[0]!.errors;
    expect(errors).toHaveLength(MAX_ERRORS_PER_ROW + 1);
    expect(errors.at(-1)).toEqual({
      field: "row",
      message: `and ${40 - MAX_ERRORS_PER_ROW} more errors in this row`,
      code: "MORE_ERRORS",
    });
  });
});

describe("templates: variables a row can give", () => {
  it(`refuses a template whose placeholders make more than ${MAX_TEMPLATE_VARIABLES} variables`, async () => {
    const { key } = await newAccount();
    const text = (n: number) => Array.from({ length: n }, (_, i) => `{{v${i}}}`).join(" ");
    const template = (n: number) => ({
      name: "wide",
      type: "image",
      config: { width: 64, height: 32, layers: [{ type: "text", text: text(n), x: 0, y: 0 }] },
    });
    expect(
      (await call("/api/v2/templates", json("POST", template(MAX_TEMPLATE_VARIABLES), key))).status,
    ).toBe(201);
    const refused = await call("/api/v2/templates", json("POST", template(MAX_TEMPLATE_VARIABLES + 1), key));
    expect(refused.status).toBe(400);
    expect((await body(refused)).details!.errors).toEqual([
      {
        field: "variables",
        message: `${MAX_TEMPLATE_VARIABLES + 1} variables (declared and from placeholders); at most ${MAX_TEMPLATE_VARIABLES}`,
        code: "TOO_MANY_VARIABLES",
      },
    ]);
  });
});
