/** Bad input and wrong codes in registration and sign-in: the envelope, the codes, nothing created. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_CODE_ATTEMPTS } from "../../../src/accounts/codes.ts";
import { call, json } from "../helpers.ts";
import { body, CONSENT, freshEmail, latestCode, register, verify } from "./sign-up.ts";

const users = async (email: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM users WHERE email = ?")
    .bind(email)
    .first<{ n: number }>())!.n;

describe("registration input", () => {
  it.each([
    [{ consent: CONSENT }, "email", "Invalid type"],
    [{ email: "not-an-address", consent: CONSENT }, "email", "email must be an e-mail address"],
    [{ email: "a@example.com" }, "consent", "Invalid key"],
    [
      { email: "a@example.com", consent: { ...CONSENT, termsAccepted: false } },
      "consent.termsAccepted",
      "consent.termsAccepted must be true",
    ],
    [
      { email: "a@example.com", consent: { ...CONSENT, termsVersion: "2025-01-01" } },
      "consent.termsVersion",
      'consent.termsVersion must be "2026-10-12"',
    ],
    [
      { email: "a@example.com", consent: { termsAccepted: true, termsVersion: "2026-10-12" } },
      "consent.marketingAccepted",
      "Invalid key",
    ],
    [{ email: "a@example.com", consent: CONSENT, isAdmin: true }, "isAdmin", "Invalid key"],
  ] as [Record<string, unknown>, string, string][])("refuses %j at %s", async (payload, field) => {
    const res = await call("/api/v1/auth/register", json("POST", payload));
    expect(res.status).toBe(400);
    const b = await body(res);
    expect(b).toMatchObject({ success: false, error: "Validation failed" });
    expect((b.details!.errors as { field: string }[]).map((e) => e.field)).toContain(field);
  });

  it("refuses malformed JSON and other content types in the envelope", async () => {
    const bad = await call("/api/v1/auth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(bad.status).toBe(400);
    expect(await body(bad)).toMatchObject({ success: false, error: "Malformed JSON body" });
    const form = await call("/api/v1/auth/register", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "x",
    });
    expect(form.status).toBe(415);
  });

  it("refuses an oversized body with 413 before reading it", async () => {
    const res = await call("/api/v1/auth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "a@example.com", consent: CONSENT, name: "x".repeat(2 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
  });
});

describe("verify", () => {
  it("refuses a wrong code, an unknown address and a malformed code alike, creating nothing", async () => {
    const email = freshEmail("wrong");
    await register(email);
    const code = (await latestCode(email))!;
    const wrong = code === "000000" ? "000001" : "000000";
    for (const res of [await verify(email, wrong), await verify(freshEmail("nobody"), code)]) {
      expect(res.status).toBe(401);
      expect(await body(res)).toEqual({ success: false, error: "Invalid or expired code" });
    }
    expect((await verify(email, "12345")).status).toBe(400);
    expect(await users(email)).toBe(0);
    // The right code still works after one wrong try.
    expect((await verify(email, code)).status).toBe(200);
    expect(await users(email)).toBe(1);
  });

  it(`burns a code after ${MAX_CODE_ATTEMPTS} wrong tries, even for the right code afterwards`, async () => {
    const email = freshEmail("burn");
    await register(email);
    const code = (await latestCode(email))!;
    const wrong = (k: number) => String((Number(code) + 1 + k) % 1_000_000).padStart(6, "0");
    for (let k = 0; k < MAX_CODE_ATTEMPTS; k++) expect((await verify(email, wrong(k))).status).toBe(401);
    expect((await verify(email, code)).status).toBe(401);
    expect(await users(email)).toBe(0);
  });

  it("spends a code once: a replay is refused", async () => {
    const email = freshEmail("replay");
    await register(email);
    const code = (await latestCode(email))!;
    expect((await verify(email, code)).status).toBe(200);
    expect((await verify(email, code)).status).toBe(401);
  });

  it("refuses an expired code", async () => {
    const email = freshEmail("expired");
    await register(email);
    const code = (await latestCode(email))!;
    await env.DB.prepare("UPDATE auth_codes SET expires_at = ?2 WHERE email = ?1")
      .bind(email, Date.now() - 1)
      .run();
    expect((await verify(email, code)).status).toBe(401);
  });

  it("spends a code once under parallel tries", async () => {
    const email = freshEmail("race");
    await register(email);
    const code = (await latestCode(email))!;
    const results = await Promise.all(Array.from({ length: 8 }, () => verify(email, code)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await users(email)).toBe(1);
  });

  it("only the newest code of an address works", async () => {
    const email = freshEmail("newest");
    await register(email);
    await register(email);
    const first = (await latestCode(email))!;
    // The first code as sent, then replaced by a second one (new codes close the open one).
    const firstRow = await env.DB.prepare("SELECT id FROM auth_codes WHERE email = ? AND consumed_at IS NULL")
      .bind(email)
      .first<{ id: string }>();
    await register(email);
    const second = (await latestCode(email))!;
    const closed = await env.DB.prepare("SELECT consumed_at FROM auth_codes WHERE id = ?")
      .bind(firstRow!.id)
      .first<{ consumed_at: number | null }>();
    expect(closed!.consumed_at).not.toBeNull();
    expect((await verify(email, second)).status).toBe(200);
    expect(first).toMatch(/^\d{6}$/);
  });
});
