/** Idempotency-Key on job creation and uploads: retries get the first answer, never a second job or file. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { body, call, fixture, json, newAccount } from "./helpers.ts";

const image = (color = "#f00") => ({
  type: "image",
  config: { width: 8, height: 8, layers: [{ type: "rectangle", fill: color }] },
});
const create = (key: string, payload: unknown, idem?: string) => {
  const init = json("POST", payload, key);
  return call("/api/v1/jobs", {
    ...init,
    headers: { ...(init.headers as object), ...(idem ? { "idempotency-key": idem } : {}) },
  });
};
const jobs = async (userId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ?")
    .bind(userId)
    .first<{ n: number }>())!.n;

describe("Idempotency-Key on POST /api/v1/jobs", () => {
  it("answers a retry with the first answer and creates one job, reserving once", async () => {
    const { key, userId } = await newAccount({ tokens: 100 });
    const first = await create(key, image(), "retry-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await create(key, image(), "retry-1");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await body(again)).toEqual(await body(first));
    expect(await jobs(userId)).toBe(1);
    const balance = await env.DB.prepare("SELECT token_balance AS b FROM users WHERE id = ?")
      .bind(userId)
      .first<{ b: number }>();
    expect(balance!.b).toBe(97);
  });

  it("treats the same JSON with keys in another order as the same request", async () => {
    const { key, userId } = await newAccount({ tokens: 100 });
    await create(key, image(), "order");
    const reordered = {
      config: { layers: [{ fill: "#f00", type: "rectangle" }], height: 8, width: 8 },
      type: "image",
    };
    expect((await create(key, reordered, "order")).headers.get("idempotent-replayed")).toBe("true");
    expect(await jobs(userId)).toBe(1);
  });

  it("refuses the key with another request (409), keeps keys per account, and frees it after a refused request", async () => {
    const a = await newAccount({ tokens: 100 });
    const b = await newAccount({ tokens: 100 });
    await create(a.key, image(), "shared");
    const other = await create(a.key, image("#0f0"), "shared");
    expect(other.status).toBe(409);
    expect((await body(other)).error).toMatch(/used for another request/);
    expect((await create(b.key, image("#0f0"), "shared")).status).toBe(201);
    // A request refused with 400 leaves the key free for the corrected one.
    const bad = await create(a.key, { type: "image", config: { width: 0 } }, "fix-me");
    expect(bad.status).toBe(400);
    const fixed = await create(a.key, image(), "fix-me");
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("idempotent-replayed")).toBeNull();
  });

  it("creates one job when the same key races (the rest see 409 or the replay)", async () => {
    const { key, userId } = await newAccount({ tokens: 100 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => create(key, image(), "race")));
    expect(answers.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(await jobs(userId)).toBe(1);
  });

  it("refuses a malformed key", async () => {
    const { key } = await newAccount();
    const res = await create(key, image(), "bad key with spaces");
    expect(res.status).toBe(400);
    expect((await body(res)).details!.errors![0]).toMatchObject({
      field: "Idempotency-Key",
      code: "INVALID_IDEMPOTENCY_KEY",
    });
  });
});

describe("Idempotency-Key on uploads", () => {
  const send = (key: string, name: string, bytes: Uint8Array, idem: string) => {
    const form = new FormData();
    form.set("file", new File([bytes], name));
    return call("/api/v1/files/upload", {
      method: "POST",
      headers: { "x-api-key": key, "idempotency-key": idem },
      body: form,
    });
  };

  it("stores a retried upload once (the multipart boundary may differ) and refuses another file under the key", async () => {
    const { key, userId } = await newAccount();
    const first = await send(key, "emoji.png", fixture("emoji.png"), "up-1");
    expect(first.status).toBe(201);
    const again = await send(key, "emoji.png", fixture("emoji.png"), "up-1");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await body<{ id: string }>(again)).data!.id).toBe((await body<{ id: string }>(first)).data!.id);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM media_files WHERE user_id = ?")
      .bind(userId)
      .first<{ n: number }>();
    expect(rows!.n).toBe(1);
    const objects = await env.FILES.list({ prefix: "image/" });
    expect(objects.objects.filter((o) => o.key.includes(userId))).toHaveLength(1);
    expect((await send(key, "img2.jpg", fixture("img2.jpg"), "up-1")).status).toBe(409);
  });
});
