import { beforeAll, describe, expect, it } from "vitest";
import {
  contentDigest,
  EMPTY_BODY_SHA256,
  MAX_SKEW_SECONDS,
  UNSIGNED_PAYLOAD,
  signCallback,
  signRendererRequest,
  verifyCallback,
  verifyRendererRequest,
} from "../../src/signing.ts";

const SECRET = "test-secret";
const TS = 1_700_000_000;

describe("signRendererRequest", () => {
  it("signs '<ts>.<METHOD>.<path?query>.<body sha256>' with HMAC-SHA256 (vectors from openssl)", async () => {
    expect(await signRendererRequest(SECRET, { method: "post", target: "/probe", ts: TS })).toEqual({
      "x-renderer-timestamp": "1700000000",
      "x-renderer-content-sha256": EMPTY_BODY_SHA256,
      "x-renderer-signature": "v1=de3e24dd0435c0a802b32b6110d0fb8fa2e8c85549298a48b6d2b7aaf8601e94",
    });
    const content = await contentDigest('{"a":1}');
    expect(content).toBe("015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862");
    expect(
      await signRendererRequest(SECRET, { method: "POST", target: "/renders/job_1?x=1", content, ts: TS }),
    ).toMatchObject({
      "x-renderer-signature": "v1=14eb9643b5da64ff9501c5a72c04f8fb85b9cf9ff1b5b5852b3081ad6d2a4894",
    });
  });

  it("digests strings and bytes alike, nothing as the empty body, and a stream as UNSIGNED-PAYLOAD", async () => {
    expect(await contentDigest(new TextEncoder().encode('{"a":1}'))).toBe(await contentDigest('{"a":1}'));
    expect(await contentDigest(null)).toBe(EMPTY_BODY_SHA256);
    expect(await contentDigest(new ReadableStream())).toBe(UNSIGNED_PAYLOAD);
  });
});

describe("signCallback", () => {
  it("signs '<ts>.<raw body>' and sets the JSON content type (vector from openssl)", async () => {
    expect(await signCallback(SECRET, '{"jobId":"j1"}', TS)).toEqual({
      "content-type": "application/json",
      "x-renderer-timestamp": "1700000000",
      "x-renderer-signature": "v1=4613b46b673cac54e637881aac4d30bb4f2f3e1da3b21fb4a9095def6f823869",
    });
  });
});

describe("verifyRendererRequest", () => {
  let signed: Record<string, string>;
  beforeAll(async () => {
    signed = await signRendererRequest(SECRET, { method: "POST", target: "/probe", ts: TS });
  });
  const verify = (
    overrides: Partial<{
      secret: string;
      method: string;
      path: string;
      content: string;
      ts: string;
      sig: string;
      now: number;
    }>,
  ) =>
    verifyRendererRequest(
      overrides.secret ?? SECRET,
      {
        method: overrides.method ?? "POST",
        target: overrides.path ?? "/probe",
        content: overrides.content ?? EMPTY_BODY_SHA256,
      },
      overrides.ts ?? signed["x-renderer-timestamp"]!,
      overrides.sig ?? signed["x-renderer-signature"]!,
      overrides.now ?? TS,
    );

  it("accepts a fresh signature of the same method and path", async () => {
    expect(await verify({})).toBe(true);
    expect(await verify({ now: TS + MAX_SKEW_SECONDS })).toBe(true);
    expect(await verify({ now: TS - MAX_SKEW_SECONDS })).toBe(true);
  });

  it("rejects a timestamp more than 300 s away in either direction", async () => {
    expect(await verify({ now: TS + MAX_SKEW_SECONDS + 1 })).toBe(false);
    expect(await verify({ now: TS - MAX_SKEW_SECONDS - 1 })).toBe(false);
  });

  it("rejects another secret, method, path, query, content digest or timestamp", async () => {
    expect(await verify({ secret: "other" })).toBe(false);
    expect(await verify({ method: "GET" })).toBe(false);
    expect(await verify({ path: "/render/video" })).toBe(false);
    expect(await verify({ path: "/probe?x=1" })).toBe(false);
    expect(await verify({ content: "0".repeat(64) })).toBe(false);
    expect(await verify({ content: UNSIGNED_PAYLOAD })).toBe(false);
    expect(await verify({ content: "" })).toBe(false);
    expect(await verify({ ts: String(TS + 1) })).toBe(false);
  });

  it("rejects missing, malformed or unversioned headers", async () => {
    expect(
      await verifyRendererRequest(
        SECRET,
        { method: "POST", target: "/probe", content: EMPTY_BODY_SHA256 },
        null,
        signed["x-renderer-signature"]!,
        TS,
      ),
    ).toBe(false);
    expect(
      await verifyRendererRequest(
        SECRET,
        { method: "POST", target: "/probe", content: EMPTY_BODY_SHA256 },
        signed["x-renderer-timestamp"]!,
        undefined,
        TS,
      ),
    ).toBe(false);
    expect(await verify({ ts: "1.7e9" })).toBe(false);
    expect(await verify({ sig: signed["x-renderer-signature"]!.slice(3) })).toBe(false);
    expect(await verify({ sig: "v1=" })).toBe(false);
  });
});

describe("verifyCallback", () => {
  const body = '{"jobId":"j1","status":"completed"}';

  it("accepts the signature of the exact body, also among rotated signatures", async () => {
    const h = await signCallback(SECRET, body, TS);
    const sig = h["x-renderer-signature"]!;
    expect(await verifyCallback(SECRET, body, String(TS), sig, TS)).toBe(true);
    expect(await verifyCallback(SECRET, body, String(TS), `v1=${"0".repeat(64)} ${sig}`, TS)).toBe(true);
  });

  it("rejects another body, secret, a stale timestamp or a bare digest", async () => {
    const sig = (await signCallback(SECRET, body, TS))["x-renderer-signature"]!;
    expect(await verifyCallback(SECRET, `${body} `, String(TS), sig, TS)).toBe(false);
    expect(await verifyCallback("other", body, String(TS), sig, TS)).toBe(false);
    expect(await verifyCallback(SECRET, body, String(TS), sig, TS + MAX_SKEW_SECONDS + 1)).toBe(false);
    expect(await verifyCallback(SECRET, body, String(TS), sig.slice(3), TS)).toBe(false);
    expect(await verifyCallback(SECRET, body, "12abc", sig, TS)).toBe(false);
  });
});
