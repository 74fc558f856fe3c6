import { describe, expect, it } from "vitest";
import { MAX_SKEW_SECONDS, signCallback, signRendererRequest, verifyRendererRequest } from "../src/auth.ts";

const SECRET = "test-secret";
const TS = 1_700_000_000;

describe("signRendererRequest", () => {
  it("signs '<ts>.<METHOD>.<path>' with HMAC-SHA256 as the contract says (vector from openssl)", () => {
    expect(signRendererRequest(SECRET, "post", "/probe", TS)).toEqual({
      "x-renderer-timestamp": "1700000000",
      "x-renderer-signature": "v1=289c571de860036ef673e989769f49b062b94a061293bdcefdb2d2108d43102c",
    });
  });
});

describe("signCallback", () => {
  it("signs '<ts>.<raw body>' and sets the JSON content type (vector from openssl)", () => {
    expect(signCallback(SECRET, '{"jobId":"j1"}', TS)).toEqual({
      "content-type": "application/json",
      "x-runner-timestamp": "1700000000",
      "x-runner-signature": "v1=4613b46b673cac54e637881aac4d30bb4f2f3e1da3b21fb4a9095def6f823869",
    });
  });
});

describe("verifyRendererRequest", () => {
  const signed = signRendererRequest(SECRET, "POST", "/probe", TS);
  const verify = (
    overrides: Partial<{
      secret: string;
      method: string;
      path: string;
      ts: string;
      sig: string;
      now: number;
    }>,
  ) =>
    verifyRendererRequest(
      overrides.secret ?? SECRET,
      overrides.method ?? "POST",
      overrides.path ?? "/probe",
      overrides.ts ?? signed["x-renderer-timestamp"],
      overrides.sig ?? signed["x-renderer-signature"],
      overrides.now ?? TS,
    );

  it("accepts a fresh signature of the same method and path", () => {
    expect(verify({})).toBe(true);
    expect(verify({ now: TS + MAX_SKEW_SECONDS })).toBe(true);
    expect(verify({ now: TS - MAX_SKEW_SECONDS })).toBe(true);
  });

  it("rejects a timestamp more than 300 s away in either direction", () => {
    expect(verify({ now: TS + MAX_SKEW_SECONDS + 1 })).toBe(false);
    expect(verify({ now: TS - MAX_SKEW_SECONDS - 1 })).toBe(false);
  });

  it("rejects another secret, method, path or timestamp", () => {
    expect(verify({ secret: "other" })).toBe(false);
    expect(verify({ method: "GET" })).toBe(false);
    expect(verify({ path: "/render/video" })).toBe(false);
    expect(verify({ ts: String(TS + 1) })).toBe(false);
  });

  it("rejects missing, malformed or unversioned headers", () => {
    expect(verifyRendererRequest(SECRET, "POST", "/probe", null, signed["x-renderer-signature"], TS)).toBe(
      false,
    );
    expect(
      verifyRendererRequest(SECRET, "POST", "/probe", signed["x-renderer-timestamp"], undefined, TS),
    ).toBe(false);
    expect(verify({ ts: "1.7e9" })).toBe(false);
    expect(verify({ sig: signed["x-renderer-signature"].slice(3) })).toBe(false);
    expect(verify({ sig: "v1=" })).toBe(false);
  });
});
