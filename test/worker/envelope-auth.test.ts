import { describe, expect, it } from "vitest";
import { body, call, json, newAccount, updateKey } from "./helpers.ts";

describe("response envelope", () => {
  it("answers unknown routes with a 404 envelope", async () => {
    const res = await call("/nope");
    expect(res.status).toBe(404);
    expect(await body(res)).toMatchObject({ success: false, error: "Not found" });
  });

  it("answers malformed JSON with 400 and a field error", async () => {
    const { key } = await newAccount();
    const res = await call("/api/v1/jobs", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: "{nope",
    });
    expect(res.status).toBe(400);
    const b = await body(res);
    expect(b.success).toBe(false);
    expect(b.error).toBe("Malformed JSON body");
    expect(b.details?.errors?.[0]).toMatchObject({ field: "body", code: "INVALID_JSON" });
  });

  it("answers a wrong content type with 415 in the envelope", async () => {
    const { key } = await newAccount();
    const res = await call("/api/v1/jobs", {
      method: "POST",
      headers: { "content-type": "text/plain", "x-api-key": key },
      body: "{}",
    });
    expect(res.status).toBe(415);
    expect(await body(res)).toMatchObject({ success: false, error: "Content-Type must be application/json" });
  });

  it("answers an oversized JSON body with 413", async () => {
    const { key } = await newAccount();
    const res = await call(
      "/api/v1/jobs",
      json("POST", { type: "image", config: { pad: "x".repeat(1_100_000) } }, key),
    );
    expect(res.status).toBe(413);
    const b = await body(res);
    expect(b.success).toBe(false);
    expect(b.error).toMatch(/too large/);
  });

  it("serves /health without a key", async () => {
    const res = await call("/health");
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(b.data).toMatchObject({
      status: "healthy",
      service: "media-render-service",
      version: "1.0.0",
      environment: "development",
    });
    expect(Date.parse(String(b.data?.timestamp))).toBeGreaterThan(0);
  });

  it("serves /api/v1/webhooks/health with the callback path", async () => {
    const b = await body(await call("/api/v1/webhooks/health"));
    expect(b.data).toMatchObject({
      status: "healthy",
      webhookEndpoint: "/api/v1/webhooks/runner/job-status",
    });
  });
});

describe("API-key authentication", () => {
  it("refuses a missing key with 401 Unauthorized", async () => {
    const res = await call("/api/v1/jobs/job_x");
    expect(res.status).toBe(401);
    expect(await body(res)).toEqual({ success: false, error: "Unauthorized" });
  });

  it("refuses an unknown key", async () => {
    const res = await call("/api/v1/jobs/job_x", { headers: { "x-api-key": "mrk_not-a-real-key" } });
    expect(res.status).toBe(401);
  });

  it("refuses a key that differs from a real one by a single character", async () => {
    const { key } = await newAccount();
    const res = await call("/api/v1/jobs/job_x", {
      headers: { "x-api-key": `${key.slice(0, -1)}${key.endsWith("a") ? "b" : "a"}` },
    });
    expect(res.status).toBe(401);
  });

  it("refuses the key in the Authorization header", async () => {
    const { key } = await newAccount();
    const res = await call("/api/v1/jobs/job_x", { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(401);
  });

  it("refuses an expired key", async () => {
    const { key, keyId } = await newAccount({ expiresAt: Date.now() + 60_000 });
    // Keys are created with a future expiry only; this one's time has come.
    await updateKey(keyId, "expires_at", Date.now() - 1000);
    const res = await call("/api/v1/jobs/job_x", { headers: { "x-api-key": key } });
    expect(res.status).toBe(401);
  });

  it("accepts a key that expires in the future", async () => {
    const { key } = await newAccount({ expiresAt: Date.now() + 3600_000 });
    const res = await call("/api/v1/jobs/job_x", { headers: { "x-api-key": key } });
    expect(res.status).toBe(404);
  });

  it("lets a read-only key read but answers 403 Insufficient permissions on writes", async () => {
    const { key } = await newAccount({ permissions: [{ resource: "jobs", action: "read" }] });
    expect((await call("/api/v1/jobs/job_x", { headers: { "x-api-key": key } })).status).toBe(404);
    const res = await call("/api/v1/jobs", json("POST", { type: "image", config: {} }, key));
    expect(res.status).toBe(403);
    expect(await body(res)).toEqual({ success: false, error: "Insufficient permissions" });
  });

  it("keeps permissions per resource: a jobs key cannot touch files", async () => {
    const { key } = await newAccount({ permissions: [{ resource: "jobs", action: "full" }] });
    const res = await call("/api/v1/files/abc/download", { headers: { "x-api-key": key } });
    expect(res.status).toBe(403);
  });
});
