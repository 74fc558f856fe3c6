/** /api/v1/api-keys: happy, error and security cases. */
import { describe, expect, it } from "vitest";
import { MAX_KEYS_PER_ACCOUNT } from "../../../src/keys/schemas.ts";
import { call, json, updateKey } from "../helpers.ts";
import { bearer, body, signUp } from "./sign-up.ts";

const create = (token: string, payload: unknown) =>
  call("/api/v1/api-keys", bearer(token, json("POST", payload)));
const jobsFull = [{ resource: "jobs", action: "full" }];

describe("API keys", () => {
  it("creates a key with an expiry, permissions and scopes; the secret is shown once and works", async () => {
    const { token } = await signUp();
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const res = await create(token, {
      name: "  webhook robot  ",
      expiresAt,
      permissions: [{ resource: "media", action: "read" }, ...jobsFull, ...jobsFull],
      scopes: ["templates:bulk"],
    });
    expect(res.status).toBe(201);
    const b = await body<{ key: string; apiKey: Record<string, unknown> }>(res);
    expect(b.message).toBe("Store the key now: it is shown once");
    expect(b.data!.apiKey).toMatchObject({
      name: "webhook robot",
      expiresAt: new Date(Date.parse(expiresAt)).toISOString(),
      permissions: [
        { resource: "media", action: "read" },
        { resource: "jobs", action: "full" },
      ],
      scopes: ["templates:bulk"],
      lastUsedAt: null,
    });
    expect((await call("/api/v1/files", { headers: { "x-api-key": b.data!.key } })).status).toBe(200);
    // Read-only on media: a write is 403.
    const write = await call("/api/v1/files/x", { method: "DELETE", headers: { "x-api-key": b.data!.key } });
    expect(write.status).toBe(403);
  });

  it.each([
    [{ permissions: jobsFull }, "name"],
    [{ name: "ab", permissions: jobsFull }, "name"],
    [{ name: "x".repeat(101), permissions: jobsFull }, "name"],
    [{ name: "key", permissions: [] }, "permissions"],
    [{ name: "key" }, "permissions"],
    [{ name: "key", permissions: [{ resource: "billing", action: "full" }] }, "permissions[0].resource"],
    [{ name: "key", permissions: [{ resource: "jobs", action: "write" }] }, "permissions[0].action"],
    [{ name: "key", permissions: jobsFull, expiresAt: "tomorrow" }, "expiresAt"],
    [{ name: "key", permissions: jobsFull, expiresAt: "2020-01-01T00:00:00Z" }, "expiresAt"],
    [{ name: "key", permissions: jobsFull, scopes: ["admin:everything"] }, "scopes[0]"],
  ])("refuses %j at %s, creating nothing", async (payload, field) => {
    const { token } = await signUp();
    const res = await create(token, payload);
    expect(res.status).toBe(400);
    const b = await body(res);
    expect((b.details!.errors as { field: string }[]).some((e) => e.field === field)).toBe(true);
    const listed = await body<{ apiKeys: unknown[] }>(await call("/api/v1/api-keys", bearer(token)));
    expect(listed.data!.apiKeys).toEqual([]);
  });

  it("takes null as never expiring, and refuses a key once it has expired", async () => {
    const { token } = await signUp();
    const never = await body<{ apiKey: { expiresAt: null } }>(
      await create(token, { name: "forever", permissions: jobsFull, expiresAt: null }),
    );
    expect(never.data!.apiKey.expiresAt).toBeNull();
    const soon = await body<{ key: string; apiKey: { id: string } }>(
      await create(token, {
        name: "short",
        permissions: jobsFull,
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
      }),
    );
    expect((await call("/api/v1/jobs", { headers: { "x-api-key": soon.data!.key } })).status).toBe(200);
    await updateKey(soon.data!.apiKey.id, "expires_at", Date.now() - 1);
    expect((await call("/api/v1/jobs", { headers: { "x-api-key": soon.data!.key } })).status).toBe(401);
  });

  it(`holds at most ${MAX_KEYS_PER_ACCOUNT} keys per account`, async () => {
    const { token } = await signUp();
    await Promise.all(
      Array.from({ length: MAX_KEYS_PER_ACCOUNT }, (_, i) =>
        create(token, { name: `key ${i}`, permissions: jobsFull }),
      ),
    );
    const over = await create(token, { name: "one more", permissions: jobsFull });
    expect(over.status).toBe(400);
    expect((await body(over)).details).toMatchObject({ errors: [{ code: "TOO_MANY_KEYS" }] });
  });
});

describe("API keys of other accounts", () => {
  it("are neither listed nor deletable (404), and a deleted key is refused at once", async () => {
    const a = await signUp();
    const b = await signUp();
    const made = await body<{ key: string; apiKey: { id: string } }>(
      await create(a.token, { name: "mine", permissions: jobsFull }),
    );
    const listedByB = await body<{ apiKeys: unknown[] }>(await call("/api/v1/api-keys", bearer(b.token)));
    expect(listedByB.data!.apiKeys).toEqual([]);
    const stolen = await call(
      `/api/v1/api-keys/${made.data!.apiKey.id}`,
      bearer(b.token, { method: "DELETE" }),
    );
    expect(stolen.status).toBe(404);
    expect(await body(stolen)).toEqual({ success: false, error: "API key not found" });
    expect((await call("/api/v1/jobs", { headers: { "x-api-key": made.data!.key } })).status).toBe(200);
    await call(`/api/v1/api-keys/${made.data!.apiKey.id}`, bearer(a.token, { method: "DELETE" }));
    expect((await call("/api/v1/jobs", { headers: { "x-api-key": made.data!.key } })).status).toBe(401);
    // Deleting twice is a 404.
    expect(
      (await call(`/api/v1/api-keys/${made.data!.apiKey.id}`, bearer(a.token, { method: "DELETE" }))).status,
    ).toBe(404);
  });

  it("need a session: no credential is 401", async () => {
    expect((await call("/api/v1/api-keys")).status).toBe(401);
    expect((await call("/api/v1/api-keys", json("POST", { name: "x", permissions: jobsFull }))).status).toBe(
      401,
    );
  });
});
