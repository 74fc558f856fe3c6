/**
 * Changing the account's address (PATCH /api/v1/account with `email`) mails the new address. Someone signed in must
 * not turn that into a way to lock another user out of sign-in or to flood a mailbox: changes count per requester
 * (account and IP), apart from the target's sign-in counter; mails to one address are bounded; the captcha is
 * needed where sign-in needs it.
 */
import { env } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../../src/app.ts";
import {
  EMAIL_CHANGES_PER_ACCOUNT,
  EMAIL_CHANGE_MAILS_PER_ADDRESS,
} from "../../../src/accounts/attempt-limits.ts";
import type { Env } from "../../../src/env.ts";
import { BASE, json } from "../helpers.ts";
import { bearer, body, freshEmail, outbox, signUp } from "./sign-up.ts";

/** The real app with production's sign-in limits (5 codes per address, 60 requests per IP, an hour each). */
const production = (overrides: Partial<Env> = {}) => ({
  ...env,
  AUTH_EMAIL_LIMIT_PER_HOUR: "5",
  AUTH_IP_LIMIT_PER_HOUR: "60",
  ...overrides,
});

const callWith = (overrides: Partial<Env>, path: string, init: RequestInit = {}) =>
  createApp().fetch(new Request(`${BASE}${path}`, init), production(overrides), createExecutionContext());

const fromIp = (ip: string, init: RequestInit): RequestInit => ({
  ...init,
  headers: { ...(init.headers as Record<string, string>), "cf-connecting-ip": ip },
});

/**
 * An address no other test used this hour (the suite's files share the local D1 and its per-IP counters): one of the
 * 131,072 of 198.18.0.0/15, at random. (The 250 of one /24 picked by the clock collided now and then.)
 */
const freshIp = () => {
  const [a, b, c] = crypto.getRandomValues(new Uint8Array(3));
  return `198.${18 + (a! & 1)}.${b}.${c}`;
};

const changeEmail = (token: string, email: string, ip = freshIp(), overrides: Partial<Env> = {}) =>
  callWith(overrides, "/api/v1/account", fromIp(ip, bearer(token, json("PATCH", { email }))));

const login = (email: string, ip = freshIp()) =>
  callWith({}, "/api/v1/auth/login", fromIp(ip, json("POST", { email })));

describe("address changes: the target's sign-in", () => {
  it("never counts against the target address's sign-in limit", async () => {
    const victim = await signUp();
    // Several attackers, each within its own allowance, ask to move onto the victim's address.
    for (let i = 0; i < 3; i++) {
      const attacker = await signUp();
      for (let j = 0; j < 2; j++) await changeEmail(attacker.token, victim.email);
    }
    const hash = await crypto.subtle
      .digest("SHA-256", new TextEncoder().encode(victim.email))
      .then((d) => [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join(""));
    const signInCount = await env.DB.prepare("SELECT sum(count) AS n FROM rate_limits WHERE bucket = ?")
      .bind(`auth-email:${hash}`)
      .first<{ n: number | null }>();
    // signUp's register mailed one code; nothing else counted against the address.
    expect(signInCount!.n).toBe(1);
    // With production's 5 codes an hour, the victim still signs in.
    for (let i = 0; i < 4; i++) expect((await login(victim.email)).status).toBe(202);
  });
});

describe("address changes: per requester", () => {
  it(`allows ${EMAIL_CHANGES_PER_ACCOUNT} changes an hour per account, then 429 with Retry-After; renames still pass`, async () => {
    const a = await signUp();
    for (let i = 0; i < EMAIL_CHANGES_PER_ACCOUNT; i++)
      expect((await changeEmail(a.token, freshEmail("move"))).status).toBe(200);
    const target = freshEmail("one-too-many");
    const refused = await changeEmail(a.token, target);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await body(refused)).toMatchObject({
      success: false,
      error: "Too many requests, please try again later",
    });
    expect(await outbox(target)).toEqual([]);
    // A refused change applies nothing of its request, its rename included.
    const both = await callWith(
      {},
      "/api/v1/account",
      bearer(a.token, json("PATCH", { name: "Renamed", email: target })),
    );
    expect(both.status).toBe(429);
    const account = await callWith({}, "/api/v1/account", bearer(a.token));
    expect((await body<{ name: string }>(account)).data!.name).toBe("Test User");
    const renamed = await callWith(
      {},
      "/api/v1/account",
      bearer(a.token, json("PATCH", { name: "Still me" })),
    );
    expect(renamed.status).toBe(200);
  });

  it("counts changes against the requesting IP's sign-in allowance", async () => {
    const a = await signUp();
    const ip = freshIp();
    const tight = { AUTH_IP_LIMIT_PER_HOUR: "2" };
    expect((await changeEmail(a.token, freshEmail("ip"), ip, tight)).status).toBe(200);
    expect((await changeEmail(a.token, freshEmail("ip"), ip, tight)).status).toBe(200);
    const target = freshEmail("ip-over");
    expect((await changeEmail(a.token, target, ip, tight)).status).toBe(429);
    expect(await outbox(target)).toEqual([]);
  });
});

describe("address changes: mail to one address", () => {
  it(`sends at most ${EMAIL_CHANGE_MAILS_PER_ADDRESS} change mails an hour to one address, whoever asks`, async () => {
    const target = freshEmail("mailbox");
    const answers: number[] = [];
    for (let i = 0; i <= EMAIL_CHANGE_MAILS_PER_ADDRESS; i++) {
      const requester = await signUp();
      answers.push((await changeEmail(requester.token, target)).status);
    }
    expect(answers).toEqual([...Array(EMAIL_CHANGE_MAILS_PER_ADDRESS).fill(200), 429]);
    expect(await outbox(target)).toHaveLength(EMAIL_CHANGE_MAILS_PER_ADDRESS);
    // The address itself can still sign up and sign in.
    expect((await login(target)).status).toBe(202);
  });

  it("bounds mails to an address that already has an account the same way, and leaves its sign-in alone", async () => {
    const owner = await signUp();
    for (let i = 0; i < EMAIL_CHANGE_MAILS_PER_ADDRESS; i++)
      expect((await changeEmail((await signUp()).token, owner.email)).status).toBe(200);
    expect((await changeEmail((await signUp()).token, owner.email)).status).toBe(429);
    const attempts = (await outbox(owner.email)).filter((m) => m.subject === "Address change attempt");
    expect(attempts).toHaveLength(EMAIL_CHANGE_MAILS_PER_ADDRESS);
    expect((await login(owner.email)).status).toBe(202);
  });
});

describe("address changes: captcha", () => {
  const captchaOn = { CAPTCHA_ENABLED: "true", HCAPTCHA_SECRET: "0x-test-secret" };

  it("needs hcaptchaToken for an address change where sign-in needs it, before anything is counted or sent", async () => {
    const a = await signUp();
    const target = freshEmail("captcha");
    const res = await changeEmail(a.token, target, freshIp(), captchaOn);
    expect(res.status).toBe(400);
    expect(await body(res)).toMatchObject({
      success: false,
      details: { errors: [{ field: "hcaptchaToken", code: "CAPTCHA_REQUIRED" }] },
    });
    expect(await outbox(target)).toEqual([]);
  });

  it("does not ask for it to rename", async () => {
    const a = await signUp();
    const res = await callWith(captchaOn, "/api/v1/account", bearer(a.token, json("PATCH", { name: "Ada" })));
    expect(res.status).toBe(200);
  });
});
