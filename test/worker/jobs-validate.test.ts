import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { body, call, fixture, json, newAccount, upload } from "./helpers.ts";
import { textImage } from "./jobs-seed.ts";

type Result = {
  isValid: boolean;
  errors: Array<{ field?: string; message: string; code?: string }>;
  warnings: Array<{ field: string; message: string; code: string }>;
  estimatedTokens: number;
  detectedResources: Array<{ type: string; url: string; size?: number }>;
};

const validate = async (key: string, payload: unknown, init?: RequestInit) => {
  const res = await call("/api/v1/jobs/validate", init ?? json("POST", payload, key));
  return { status: res.status, b: await body<Result>(res) };
};

const videoConfig = (layers: unknown[], duration = 2.5) => ({
  width: 320,
  height: 180,
  fps: 25,
  clips: [{ duration, layers }],
});

describe("POST /api/v1/jobs/validate: valid configs", () => {
  it("estimates an image job at 2 + 1 per layer and lists no resources for text only", async () => {
    const { key } = await newAccount();
    const { status, b } = await validate(key, { type: "image", config: textImage(3) });
    expect(status).toBe(200);
    expect(b).toEqual({
      success: true,
      data: { isValid: true, errors: [], warnings: [], estimatedTokens: 5, detectedResources: [] },
    });
  });

  it("estimates a video at 10 + 2 per started second", async () => {
    const { key } = await newAccount();
    const { b } = await validate(key, {
      type: "video",
      config: videoConfig([{ type: "fill-color", color: "#ff0000" }], 2.5),
    });
    expect(b.data).toMatchObject({ isValid: true, estimatedTokens: 16 });
  });

  it("lists every referenced file once, typed, with the size of the caller's uploads", async () => {
    const { key } = await newAccount();
    const img = (await body<{ storageUrl: string }>(await upload(key, "emoji.png", fixture("emoji.png"))))
      .data!;
    const font = (
      await body<{ storageUrl: string }>(
        await upload(key, "PatuaOne-Regular.ttf", fixture("PatuaOne-Regular.ttf"), { category: "font" }),
      )
    ).data!;
    const config = textImage(0);
    config.layers = [
      { type: "image", path: img.storageUrl },
      { type: "image", path: img.storageUrl, x: 5 },
      { type: "text", text: "Hi", fontPath: font.storageUrl },
      { type: "image", path: "https://example.com/pictures/cat.JPG" },
    ] as never;
    const { status, b } = await validate(key, { type: "image", config });
    expect(status).toBe(200);
    expect(b.data!.isValid).toBe(true);
    expect(b.data!.estimatedTokens).toBe(6);
    expect(b.data!.detectedResources).toEqual([
      { type: "image", url: img.storageUrl, size: fixture("emoji.png").byteLength },
      { type: "font", url: font.storageUrl, size: fixture("PatuaOne-Regular.ttf").byteLength },
      // Public URLs are not fetched by validation: no size.
      { type: "image", url: "https://example.com/pictures/cat.JPG" },
    ]);
  });

  it("lists what an editly spec carries with no effect as warnings, and still estimates it", async () => {
    const { key } = await newAccount();
    const config = {
      ...videoConfig([{ type: "image", path: "https://example.com/p/photo.jpg", duration: 9 }]),
      outPath: "./out.mp4",
      customOutputArgs: ["-crf", "18"],
    };
    const { status, b } = await validate(key, { type: "video", config });
    expect(status).toBe(200);
    expect(b.data).toMatchObject({ isValid: true, errors: [], estimatedTokens: 16 });
    expect(b.data!.warnings).toEqual([
      {
        field: "config.outPath",
        message: expect.stringContaining("stores the output"),
        code: "IGNORED_PROPERTY",
      },
      {
        field: "config.customOutputArgs",
        message: expect.stringContaining("encoder settings are fixed"),
        code: "IGNORED_PROPERTY",
      },
      {
        field: "config.clips[0].layers[0].duration",
        message: expect.stringContaining("has no effect"),
        code: "IGNORED_PROPERTY",
      },
    ]);
  });

  it("creates nothing and reserves nothing", async () => {
    const { key, userId } = await newAccount({ tokens: 100 });
    await validate(key, { type: "image", config: textImage() });
    const n = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM jobs WHERE user_id = ?1) AS jobs, (SELECT token_balance FROM users WHERE id = ?1) AS balance",
    )
      .bind(userId)
      .first();
    expect(n).toEqual({ jobs: 0, balance: 100 });
  });
});

describe("POST /api/v1/jobs/validate: invalid configs are still 200", () => {
  it.each([
    [{ type: "gif", config: {} }, "type", "INVALID_JOB_TYPE"],
    [{ type: "IMAGE", config: {} }, "type", "INVALID_JOB_TYPE"],
    [{ config: {} }, "type", "INVALID_JOB_TYPE"],
    [{ type: "image", config: [] }, "config", "INVALID_CONFIG_TYPE"],
    [{ type: "image", config: "x" }, "config", "INVALID_CONFIG_TYPE"],
    [{ type: "video" }, "config", "INVALID_CONFIG_TYPE"],
  ])("%j -> %s %s, 0 tokens, no resources", async (payload, field, code) => {
    const { key } = await newAccount();
    const { status, b } = await validate(key, payload);
    expect(status).toBe(200);
    expect(b.data).toEqual({
      isValid: false,
      errors: [expect.objectContaining({ field, code })],
      warnings: [],
      estimatedTokens: 0,
      detectedResources: [],
    });
  });

  it("keeps the warnings of a config it refuses", async () => {
    const { key } = await newAccount();
    const config = { ...videoConfig([{ type: "pause" }]), outPath: "./x.mp4", width: 0 };
    const { b } = await validate(key, { type: "video", config });
    expect(b.data).toMatchObject({ isValid: false, estimatedTokens: 0 });
    expect(b.data!.errors.map((e) => e.field)).toEqual(["config.width"]);
    expect(b.data!.warnings.map((w) => w.field)).toEqual(["config.outPath"]);
  });

  it("checks the type before the config", async () => {
    const { key } = await newAccount();
    const { b } = await validate(key, { type: 3, config: 4 });
    expect(b.data!.errors.map((e) => e.code)).toEqual(["INVALID_JOB_TYPE"]);
  });

  it("names the exact field of a schema violation", async () => {
    const { key } = await newAccount();
    const config = textImage(3);
    (config.layers[2] as Record<string, unknown>).wrap = true; // wrap needs width
    const { b } = await validate(key, { type: "image", config });
    expect(b.data!.isValid).toBe(false);
    expect(
      b.data!.errors.some((e) => e.field?.startsWith("config.layers[2]") && e.code === "VALIDATION_ERROR"),
    ).toBe(true);
    expect(b.data!.estimatedTokens).toBe(0);
  });

  it("reports the renamed allowJavaScript naming enableLibraries", async () => {
    const { key } = await newAccount();
    const config = { ...textImage(0), layers: [{ type: "html", html: "<p>x</p>", allowJavaScript: true }] };
    const { b } = await validate(key, { type: "image", config });
    expect(b.data!.isValid).toBe(false);
    expect(JSON.stringify(b.data!.errors)).toContain("enableLibraries");
  });

  it("reports a missing stored file at its field, like creation would", async () => {
    const { key } = await newAccount();
    const config = {
      ...textImage(1),
      layers: [
        { type: "text", text: "a" },
        { type: "image", path: "/image/2026-01-01/u/nope.png" },
      ],
    };
    const { b } = await validate(key, { type: "image", config });
    expect(b.data).toEqual({
      isValid: false,
      errors: [
        {
          field: "config.layers[1].path",
          message: "File not found: /image/2026-01-01/u/nope.png",
          code: "FILE_NOT_FOUND",
        },
      ],
      warnings: [],
      estimatedTokens: 0,
      detectedResources: [],
    });
  });

  it("answers 200 with INVALID_JOB_TYPE for a JSON body that is not an object", async () => {
    const { key } = await newAccount();
    const { status, b } = await validate(key, [1, 2]);
    expect(status).toBe(200);
    expect(b.data!.errors[0]!.code).toBe("INVALID_JOB_TYPE");
  });
});

describe("POST /api/v1/jobs/validate: requests that are not processed", () => {
  it("answers 400 for malformed JSON and 415 for another content type", async () => {
    const { key } = await newAccount();
    const bad = await validate(key, null, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: "{nope",
    });
    expect(bad.status).toBe(400);
    expect(bad.b.details?.errors?.[0]?.code).toBe("INVALID_JSON");
    const text = await validate(key, null, {
      method: "POST",
      headers: { "content-type": "text/plain", "x-api-key": key },
      body: "{}",
    });
    expect(text.status).toBe(415);
    expect(text.b.success).toBe(false);
  });

  it("answers 401 without a key", async () => {
    const res = await call("/api/v1/jobs/validate", json("POST", { type: "image", config: textImage() }));
    expect(res.status).toBe(401);
    expect(await body(res)).toEqual({ success: false, error: "Unauthorized" });
  });

  it("answers 403 for a read-only key (validation is a POST)", async () => {
    const { key } = await newAccount({ permissions: [{ resource: "jobs", action: "read" }] });
    expect((await validate(key, { type: "image", config: textImage() })).status).toBe(403);
  });
});

describe("POST /api/v1/jobs/validate: security", () => {
  it("treats another account's file as not found and never reveals its size", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const img = (
      await body<{ storageUrl: string }>(await upload(owner.key, "emoji.png", fixture("emoji.png")))
    ).data!;
    const { b } = await validate(other.key, {
      type: "image",
      config: { ...textImage(0), layers: [{ type: "image", path: img.storageUrl }] },
    });
    expect(b.data!.isValid).toBe(false);
    expect(b.data!.errors[0]!.code).toBe("FILE_NOT_FOUND");
    expect(JSON.stringify(b.data)).not.toContain("size");
  });

  it("refuses storage paths that climb out of storage", async () => {
    const { key } = await newAccount();
    const { b } = await validate(key, {
      type: "image",
      config: { ...textImage(0), layers: [{ type: "image", path: "/image/../../etc/passwd.png" }] },
    });
    expect(b.data!.isValid).toBe(false);
    expect(b.data!.errors[0]!.field).toBe("config.layers[0].path");
  });
});
