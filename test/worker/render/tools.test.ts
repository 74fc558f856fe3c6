/** Duration tools through the Worker's own fetch handler, with real D1/R2 and the real renderer. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { urlDurationUs } from "../../../src/tools/measure-duration.ts";
import { body, call, fixture, json, newAccount, testCtx, upload } from "../helpers.ts";
import { withDns } from "../fake-internet.ts";

/** 0.5 s of ADTS AAC (ffmpeg 5.1): a container the in-process parsers leave to ffprobe (0.575964 s). */
const TINY_AAC = Uint8Array.from(
  atob(
    "//FgQBjf/N4CAExhdmM1OS4zNy4xMDAAAkShWmDpFUruvs+tOKJkqS5UpCSDR2YcxZhtrFcSxXSWjdJcW5i2Lo7cMWjGYp5nqmcpZxUpp4TiH8PUcLbfv9TQF/cHda3Kzcq1qtzutrrtrbVM6bOmtTWprTLTJTJTJRJRLRJQMDAwMDAwMDAwMDAwMDAyIGBgYGBgYGBkRs2bNgyJFLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLw//FgQBb//AEEltoZc2XLIsJtQkwm4nD/+5/3+taua1XP//L/1/Eatw5//q/+36mpd33//y/8/3NScWEvG7TML0vPPPBLyQwSL0VYXLNg8fOxeR5e89pbj3387d1M70870873NO9OpTyZznU89zVUqwl7s/eo59+ez99CEICBhEKS6kWMGUjRSpI6pBgm6SCboME3QYJCcgay7dtEjq4SV1+NVfoaR9uBzuEZpTAwMDEhzINmodnw//FgQBV//ADs8K1sMomJz3z+nP8Z/p5XdZqNLktF6qTgUt9e/pfZn9Iv13OovWfqPdOXVC5vOv9TU6mo8hduI+cpXbhsmp/rRZqTftuaqadTiUXbGMVgrSlFsevzY+EyFXhhI7gfx8Nj399AyfDYz++gZPjMM/voD/xmDvvoQ/8ZgvOQP8ANe5AeOYWe/uD5PgJ99oHx8MTo9wf48az+ihP4c/ovRYS6VzHA//FgQBDf/ADkMK1IQ2KEzOuK/iv/61f/+deNXfi75vnzrfr4qVru5QamFqaZ6nmnnD0l5z519dtrpn698imYWJhYmFMcAFGdQ1gBUAKejF3MLudrmShJUJCbQnvVhN90Wgn4zdlWc2kwRWIrGN4UHOSgeIcBMxMxFM0E4tEiymJ4QWisFHD/8WBAET/8AOIwoHZYGQ1mkv14//b/j//xxqq47lZeprfr476VatBplpmdNttjbZudm4lGubs2zV0vp8r3heuAL9LAP0FwBx8V96/eLefefeoo10YGoUYgVYvYZDISL92hYAuBQXkIDYdUiwSK/OTnkIDkGAsKCOQ58BXAXkOAYDyAHGBchIroOP/xYEAQn/wA5jCYVEsjCNykMbU4/R//Z/r//3uVTm9yb+J4y7mltwOwHbfb0bwD3QU3gO1+2DkM2DNgbMgHql0Z/406AZ/myM3Y72BxsGVlxwsHcut3i5FdKCxhZjkkV0wQZCKxspwV4i9i6DgGQ2FB6+Q58BfsT8R+cMTwCjwoNIN84P/xYEARX/wA4jCo1jYZuUJmab7n/+b2//9VxWXXN5Wr+vfvitZrKcBq2kW1ls1l7Viclkc6oalZbMxZQL1Xa81HAGXPRM4G2AZRuaIu7ux7ae7HC+tnaRtbTw63QkorpY2cxJnlEi9+jwvdLGzkHhFE4OPjI8RYwMpjTPdTi3xBqmF5uAv3FQ3jgP/xYEAUn/wBDDCphVTevU/t/X/9EZe5aSJJFkkF4zuixmx1rjGb6PEPNz8BifP+YSp+CfMnJa5xYRy72ru7mKLe8hG1t4Wx8xY3GUMyjDtyY/n/6u7w/unpqu6u6+PT01XdXdfHj01XV918eOFV1cl/Vj01aa+6/qxoqu6e69WPTVp/Xdf1Y4Vaa5B1Y0VF0ov6u5dWnpTf1dy6tPTVf1dy1aeA//FgQBK//AEqMKFFdma+a75+83cu4uRJFpIkGxtN1qa3bU7WkXUytF8tx2yIGoXmk5qQ6mRlTlmpFspPsqK0c+Vpvm3OQ8+Vpvm3OQwZWm+bc5Dz5Wuebc5DBlabm3Oc0GVrnm3OQwZWuebc5zQPtc+V1zmgytc+V1zm3Ptc+V1zm3Ptc+XO5zbkNc+XO5zbnGufK1w=",
  ),
  (c) => c.charCodeAt(0),
);

const stored = async (key: string, name: string, fields: Record<string, string> = {}) => {
  const res = await upload(key, name, fixture(name), fields);
  expect(res.status).toBe(201);
  return (await body<{ storageUrl: string }>(res)).data!.storageUrl;
};

const balance = async (userId: string) =>
  (await env.DB.prepare("SELECT token_balance AS b FROM users WHERE id = ?")
    .bind(userId)
    .first<{ b: number }>())!.b;

describe("POST /api/v1/tools/{video,audio}/duration", () => {
  it("measures a stored video exactly as ffprobe (34.910000 s)", async () => {
    const { key } = await newAccount();
    const path = await stored(key, "kohlipe3.mp4");
    const res = await call("/api/v1/tools/video/duration", json("POST", { path }, key));
    expect(res.status).toBe(200);
    expect((await body(res)).data).toEqual({
      durationMs: 34910,
      durationFormatted: "00:34.910",
      source: "storage",
      originalPath: path,
    });
  });

  it("answers from the duration measured at upload, and reads the file when that is missing", async () => {
    const { key } = await newAccount();
    const path = await stored(key, "kohlipe3.mp4");
    const row = (await env.DB.prepare(
      "SELECT storage_key AS k, duration AS d FROM media_files WHERE storage_url = ?",
    )
      .bind(path)
      .first<{ k: string; d: number }>())!;
    expect(row.d).toBe(34.91);
    const measure = async () =>
      (await body(await call("/api/v1/tools/video/duration", json("POST", { path }, key)))).data;
    // No upload-time duration (its probe failed then): the parsers read the stored file.
    await env.DB.prepare("UPDATE media_files SET duration = NULL WHERE storage_url = ?").bind(path).run();
    expect(await measure()).toMatchObject({ durationMs: 34910 });
    // With it, the stored object is not read at all (gone here, the answer stands).
    await env.DB.prepare("UPDATE media_files SET duration = 34.91 WHERE storage_url = ?").bind(path).run();
    await env.FILES.delete(row.k);
    expect(await measure()).toMatchObject({ durationMs: 34910 });
  });

  it("measures stored audio (m4a 2.024 s, mp3 4.880 s)", async () => {
    const { key } = await newAccount();
    for (const [name, ms, text] of [
      ["sample1.m4a", 2024, "00:02.024"],
      ["winxp.mp3", 4880, "00:04.880"],
    ] as const) {
      const path = await stored(key, name);
      const res = await call("/api/v1/tools/audio/duration", json("POST", { path }, key));
      expect((await body(res)).data).toMatchObject({
        durationMs: ms,
        durationFormatted: text,
        source: "storage",
      });
    }
  });

  it("falls back to the renderer's ffprobe for containers the parsers leave alone (ADTS AAC)", async () => {
    const { key } = await newAccount();
    const res = await upload(key, "tiny.aac", TINY_AAC);
    expect(res.status).toBe(201);
    const path = (await body<{ storageUrl: string }>(res)).data!.storageUrl;
    const out = await call("/api/v1/tools/audio/duration", json("POST", { path }, key));
    expect((await body(out)).data).toMatchObject({ durationMs: 576, durationFormatted: "00:00.576" });
  });

  it("measures a public URL fetched through the guard, in-process or with ffprobe", async () => {
    const serve = (bytes: Uint8Array) =>
      withDns(async () => new Response(bytes, { headers: { "content-type": "audio/mpeg" } }));
    expect(
      await urlDurationUs(testCtx(), "https://cdn.example.com/a/winxp.mp3", serve(fixture("winxp.mp3"))),
    ).toBe(4_879_625);
    expect(await urlDurationUs(testCtx(), "https://cdn.example.com/a/tiny.aac", serve(TINY_AAC))).toBe(
      575_964,
    );
  });

  it("answers 404 for an unknown path and for another account's file", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const path = await stored(owner.key, "winxp.mp3");
    for (const [key, p] of [
      [owner.key, "/audio/2026-01-01/nobody/missing.mp3"],
      [other.key, path],
    ] as const) {
      const res = await call("/api/v1/tools/audio/duration", json("POST", { path: p }, key));
      expect(res.status).toBe(404);
      expect(await body(res)).toEqual({ success: false, error: "File not found" });
    }
  });

  it("answers 422 for a file without a duration (an image)", async () => {
    const { key } = await newAccount();
    const path = await stored(key, "emoji.png");
    const res = await call("/api/v1/tools/video/duration", json("POST", { path }, key));
    expect(res.status).toBe(422);
    expect((await body(res)).error).toMatch(/not video or audio/);
  });

  it("answers 400 unless exactly one of path or url is given", async () => {
    const { key } = await newAccount();
    for (const input of [
      {},
      { path: "/a.mp4", url: "https://example.com/a.mp4" },
      { path: "a.mp4" },
      { url: "ftp://x/a.mp3" },
    ]) {
      const res = await call("/api/v1/tools/video/duration", json("POST", input, key));
      expect(res.status).toBe(400);
      expect((await body(res)).success).toBe(false);
    }
  });

  it("refuses URLs that point into private networks before fetching them", async () => {
    const { key } = await newAccount();
    for (const url of [
      "http://127.0.0.1:8787/a.mp4",
      "http://169.254.169.254/latest/meta-data/",
      "http://[::1]/a.mp3",
      "http://10.1.2.3/a.mp3",
      "http://localhost/a.mp3",
    ]) {
      const res = await call("/api/v1/tools/audio/duration", json("POST", { url }, key));
      expect(res.status).toBe(400);
      expect((await body(res)).details?.errors?.[0]).toMatchObject({ field: "url", code: "URL_NOT_ALLOWED" });
    }
  });

  it("lets a media:read key measure but not spend tokens on bulk", async () => {
    const { key } = await newAccount({ permissions: [{ resource: "media", action: "read" }] });
    const res = await call(
      "/api/v1/tools/audio/duration",
      json("POST", { path: "/audio/x/missing.mp3" }, key),
    );
    expect(res.status).toBe(404);
    const bulk = await call("/api/v1/tools/audio/duration/bulk", json("POST", { files: ["/a.mp3"] }, key));
    expect(bulk.status).toBe(403);
    expect((await call("/api/v1/tools/audio/duration", json("POST", {}, undefined))).status).toBe(401);
  });
});

describe("POST /api/v1/tools/{video,audio}/duration/bulk", () => {
  it("measures files in input order with a summary and charges 1 token per file attempted", async () => {
    const { key, userId } = await newAccount({ planId: "pro", tokens: 100 });
    const mp4 = await stored(key, "kohlipe3.mp4");
    const mp3 = await stored(key, "winxp.mp3");
    const files = [
      mp3,
      { path: mp4 },
      "/audio/2026-01-01/x/missing.mp3",
      { url: "http://192.168.1.1/a.mp3" },
      mp4,
    ];
    const res = await call("/api/v1/tools/video/duration/bulk", json("POST", { files }, key));
    expect(res.status).toBe(200);
    const data = (
      await body<{ results: Array<Record<string, unknown>>; summary: Record<string, unknown> }>(res)
    ).data!;
    expect(data.results.map((r) => [r.success, r.originalPath, r.durationMs])).toEqual([
      [true, mp3, 4880],
      [true, mp4, 34910],
      [false, "/audio/2026-01-01/x/missing.mp3", undefined],
      [false, "http://192.168.1.1/a.mp3", undefined],
      [true, mp4, 34910],
    ]);
    expect(data.results[2]!.error).toBe("File not found");
    expect(data.results[3]!.error).toMatch(/private/);
    expect(data.summary).toEqual({
      total: 5,
      successful: 3,
      failed: 2,
      totalDurationMs: 74700,
      totalDurationFormatted: "00:01:14.700",
    });
    expect(await balance(userId)).toBe(95);
    const ledger = await env.DB.prepare(
      "SELECT kind, amount FROM token_ledger WHERE user_id = ? AND kind = 'charge'",
    )
      .bind(userId)
      .all();
    expect(ledger.results).toEqual([{ kind: "charge", amount: -5 }]);
  });

  it("enforces the free plan's 5-file limit without charging", async () => {
    const { key, userId } = await newAccount({ tokens: 50 });
    const res = await call(
      "/api/v1/tools/audio/duration/bulk",
      json("POST", { files: Array(6).fill("/a.mp3") }, key),
    );
    expect(res.status).toBe(400);
    const b = await body(res);
    expect(b.details?.errors?.[0]).toMatchObject({ field: "files", code: "TOO_MANY_FILES" });
    expect(b.details?.errors?.[0]?.message).toMatch(/At most 5 files/);
    expect(await balance(userId)).toBe(50);
  });

  it("answers 402 and charges nothing when the balance cannot cover every file", async () => {
    const { key, userId } = await newAccount({ tokens: 2 });
    const res = await call(
      "/api/v1/tools/audio/duration/bulk",
      json("POST", { files: ["/a.mp3", "/b.mp3", "/c.mp3"] }, key),
    );
    expect(res.status).toBe(402);
    expect(await balance(userId)).toBe(2);
  });

  it("answers 400 for a malformed item", async () => {
    const { key } = await newAccount();
    const res = await call(
      "/api/v1/tools/audio/duration/bulk",
      json("POST", { files: ["relative.mp3"] }, key),
    );
    expect(res.status).toBe(400);
    expect((await call("/api/v1/tools/audio/duration/bulk", json("POST", { files: [] }, key))).status).toBe(
      400,
    );
  });
});
