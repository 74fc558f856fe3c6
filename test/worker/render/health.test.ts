import { env } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../../src/app.ts";
import type { Env } from "../../../src/env.ts";
import { BASE, body, call, newAccount } from "../helpers.ts";

/** The real app under another environment (production settings, or a renderer that is down). */
const callWith = (overrides: Partial<Env>, path: string, init: RequestInit = {}) =>
  createApp().fetch(new Request(`${BASE}${path}`, init), { ...env, ...overrides }, createExecutionContext());

type Detailed = {
  status: string;
  environment: string;
  checks: Record<string, { status: string; latencyMs: number }> & {
    queues: Record<string, { status: string }>;
  };
};

describe("GET /health/detailed", () => {
  it("checks D1, R2, both queues and the renderer for real", async () => {
    const res = await call("/health/detailed");
    expect(res.status).toBe(200);
    const data = (await body<Detailed>(res)).data!;
    expect(data.status).toBe("healthy");
    expect(data.checks.database!.status).toBe("healthy");
    expect(data.checks.storage!.status).toBe("healthy");
    expect(data.checks.queues.image!.status).toBe("healthy");
    expect(data.checks.queues.video!.status).toBe("healthy");
    expect(data.checks.renderer).toMatchObject({ status: "healthy", details: { status: "ok" } });
    // The renderer's tool versions pass through the contract, what draws gl-transitions included.
    expect(data.checks.renderer).toMatchObject({
      details: { tools: { ffmpeg: expect.any(String), glTransitions: expect.stringMatching(/Mesa/) } },
    });
  });

  it("reports a warning, not a failure, when the renderer is unreachable", async () => {
    const res = await callWith({ RENDERER_URL: "http://127.0.0.1:9" }, "/health/detailed");
    expect(res.status).toBe(200);
    const data = (await body<Detailed>(res)).data!;
    expect(data.status).toBe("warning");
    expect(data.checks.renderer!.status).toBe("unhealthy");
    expect(data.checks.database!.status).toBe("healthy");
  });

  it("requires administrator basic auth in production", async () => {
    const prod = { ENVIRONMENT: "production", ADMIN_USER: "admin", ADMIN_PASSWORD: "s3cret" };
    const anonymous = await callWith(prod, "/health/detailed");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toContain("Basic");
    expect(await body(anonymous)).toEqual({ success: false, error: "Unauthorized" });
    const wrong = await callWith(prod, "/health/detailed", {
      headers: { authorization: `Basic ${btoa("admin:nope")}` },
    });
    expect(wrong.status).toBe(401);
    const right = await callWith(prod, "/health/detailed", {
      headers: { authorization: `Basic ${btoa("admin:s3cret")}` },
    });
    expect(right.status).toBe(200);
    expect((await body<Detailed>(right)).data!.environment).toBe("production");
  });

  it("refuses everyone in production when no admin credentials are configured", async () => {
    const res = await callWith(
      { ENVIRONMENT: "production", ADMIN_USER: undefined, ADMIN_PASSWORD: undefined },
      "/health/detailed",
      {
        headers: { authorization: `Basic ${btoa(":")}` },
      },
    );
    expect(res.status).toBe(401);
  });

  it("fails closed: every ENVIRONMENT but development (a staging name, a typo, none) requires it", async () => {
    const admin = { ADMIN_USER: "admin", ADMIN_PASSWORD: "s3cret" };
    for (const ENVIRONMENT of ["staging", "Production", "test", "dev", "", undefined]) {
      const overrides = { ...admin, ENVIRONMENT } as Partial<Env>;
      for (const path of ["/health/detailed", "/api/v1/jobs/queue-status"]) {
        const anonymous = await callWith(overrides, path);
        expect([ENVIRONMENT, path, anonymous.status]).toEqual([ENVIRONMENT, path, 401]);
        expect(anonymous.headers.get("www-authenticate")).toContain("Basic");
        const right = await callWith(overrides, path, {
          headers: { authorization: `Basic ${btoa("admin:s3cret")}` },
        });
        expect([ENVIRONMENT, path, right.status]).toEqual([ENVIRONMENT, path, 200]);
      }
    }
    // Local runs and the test suite set development: open to local tooling.
    expect((await callWith({ ENVIRONMENT: "development" }, "/health/detailed")).status).toBe(200);
  });

  it("keeps /health public in production", async () => {
    const res = await callWith({ ENVIRONMENT: "production" }, "/health");
    expect(res.status).toBe(200);
  });
});

describe("unexpected errors", () => {
  it("answers 500 in the envelope without a stack trace", async () => {
    // A valid key (its gate reads the real D1), then a handler whose D1 binding throws: the app must still answer
    // in the envelope, hiding the cause.
    const { key } = await newAccount();
    const broken = {
      prepare: () => {
        throw new Error("disk on fire at /secret/path");
      },
    } as unknown as D1Database;
    const res = await callWith({ DB: broken }, "/api/v1/jobs/job_x", {
      headers: { "x-api-key": key },
    });
    expect(res.status).toBe(500);
    const b = await body(res);
    expect(b.success).toBe(false);
    expect(b.error).toBe("Internal server error");
    expect(JSON.stringify(b)).not.toContain("secret/path");
  });
});

describe("the public reads", () => {
  it("refuse a query parameter they do not take with a 400 naming it, and answer without one", async () => {
    for (const path of [
      "/health",
      "/api/v1/schemas",
      "/api/v1/billing/plans",
      "/api/v1/webhooks/health",
      "/api/v1/auth/options",
    ]) {
      const refused = await call(`${path}?nmae=image`);
      expect(refused.status, path).toBe(400);
      expect(await body(refused), path).toMatchObject({
        success: false,
        details: {
          errors: [
            { field: "nmae", message: "This route takes no query parameters", code: "VALIDATION_ERROR" },
          ],
        },
      });
      expect((await call(path)).status, path).toBe(200);
    }
  });
});
