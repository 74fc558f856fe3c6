/** What an attacker can learn or do without an account's mail: nothing. */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { countEmailAttempt, countIpAttempt } from "../../../src/accounts/attempt-limits.ts";
import { createApp } from "../../../src/app.ts";
import type { Env } from "../../../src/env.ts";
import { BASE, call, json, newAccount, testCtx } from "../helpers.ts";
import { bearer, body, freshEmail, latestCode, outbox, register, signUp, verify } from "./sign-up.ts";

describe("enumeration", () => {
  it("answers register and login the same for known and unknown addresses", async () => {
    const known = (await signUp()).email;
    const unknown = freshEmail("unknown");
    const answers = [];
    for (const [path, email] of [
      ["register", known],
      ["register", unknown],
      ["login", known],
      ["login", unknown],
    ] as const) {
      const res =
        path === "register"
          ? await register(email)
          : await call("/api/v1/auth/login", json("POST", { email }));
      const b = await body(res);
      answers.push({ status: res.status, ...b, data: { ...b.data, email: "-" } });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    // Registering a known address mails that address a sign-in code, not a second account.
    expect((await outbox(known)).some((m) => /already has an account/.test(m.text))).toBe(true);
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM users WHERE email = ?")
        .bind(known)
        .first<{ n: number }>())!.n,
    ).toBe(1);
  });
});

describe("attempt limits", () => {
  /** The counters' windows are fixed hours: a test that fills one starts at least a minute before the next. */
  const awayFromTheHour = async () => {
    const left = 3_600_000 - (Date.now() % 3_600_000);
    if (left < 60_000) await new Promise((r) => setTimeout(r, left + 1_000));
  };

  it("limits codes per address with 429 and Retry-After (configured per hour)", async () => {
    const email = freshEmail("flood");
    // All but the last three of the hour's allowance (AUTH_EMAIL_LIMIT_PER_HOUR, vitest.config.ts) are spent by the
    // counter the route itself calls, without a hundred round trips through the API that each mail a code.
    const limit = Number(env.AUTH_EMAIL_LIMIT_PER_HOUR);
    await awayFromTheHour();
    for (let i = 0; i < limit - 3; i++) await countEmailAttempt(testCtx(), email);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await call("/api/v1/auth/login", json("POST", { email }))).status);
    expect(statuses).toEqual([202, 202, 202]);
    const last = await call("/api/v1/auth/login", json("POST", { email }));
    expect(last.status).toBe(429);
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await body(last)).toMatchObject({
      success: false,
      error: "Too many requests, please try again later",
    });
  }, 120_000);

  it("limits sign-in requests per IP: the hour's last allowed request passes, the next is refused", async () => {
    const ip = `203.0.113.${Math.floor(Math.random() * 250)}`;
    const from = (email: string) =>
      call("/api/v1/auth/login", {
        ...json("POST", { email }),
        headers: { "content-type": "application/json", "cf-connecting-ip": ip },
      });
    // All but the last three of the hour's allowance (AUTH_IP_LIMIT_PER_HOUR, vitest.config.ts) are spent by the
    // counter the route itself calls, without a thousand round trips through the API.
    const limit = Number(env.AUTH_IP_LIMIT_PER_HOUR);
    await awayFromTheHour();
    for (let i = 0; i < limit - 3; i++) await countIpAttempt(testCtx(), ip);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await from(freshEmail("ip"))).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
  }, 120_000);
});

describe("sessions and credentials", () => {
  it("refuses made-up, malformed and revoked bearer tokens", async () => {
    for (const header of ["Bearer mrs_not-a-session-token", "Bearer", "Basic abc", "Bearer  mrs_x"]) {
      const res = await call("/api/v1/account", { headers: { authorization: header } });
      expect(res.status).toBe(401);
    }
  });

  it("keeps API keys out of key and account management (403 saying why)", async () => {
    const { key } = await newAccount();
    for (const [path, init] of [
      ["/api/v1/api-keys", {}],
      [
        "/api/v1/api-keys",
        json("POST", { name: "sneaky", permissions: [{ resource: "jobs", action: "full" }] }),
      ],
      ["/api/v1/account", json("PATCH", { name: "x" })],
      ["/api/v1/billing/plan", json("POST", { planId: "pro" })],
    ] as const) {
      const res = await call(path, {
        ...init,
        headers: { ...((init as RequestInit).headers as object), "x-api-key": key },
      });
      expect(res.status).toBe(403);
      expect((await body(res)).error).toMatch(/API keys cannot do this/);
    }
  });

  it("ends a session at logout and leaves other sessions alone", async () => {
    const { email, token } = await signUp();
    await call("/api/v1/auth/login", json("POST", { email }));
    const other = (
      await body<{ session: { token: string } }>(await verify(email, (await latestCode(email))!))
    ).data!.session.token;
    await call("/api/v1/auth/logout", bearer(token, { method: "POST" }));
    expect((await call("/api/v1/account", bearer(token))).status).toBe(401);
    expect((await call("/api/v1/account", bearer(other))).status).toBe(200);
  });

  it("refuses an expired session", async () => {
    const { token, userId } = await signUp();
    await env.DB.prepare("UPDATE sessions SET expires_at = ?2 WHERE user_id = ?1")
      .bind(userId, Date.now() - 1)
      .run();
    expect((await call("/api/v1/account", bearer(token))).status).toBe(401);
  });

  it("does not let one account confirm another's address change", async () => {
    const a = await signUp();
    const b = await signUp();
    const target = freshEmail("target");
    await call("/api/v1/account", bearer(a.token, json("PATCH", { email: target })));
    const code = (await latestCode(target))!;
    const stolen = await call("/api/v1/account/email/verify", bearer(b.token, json("POST", { token: code })));
    expect(stolen.status).toBe(401);
    expect((await body(await call("/api/v1/account", bearer(b.token)))).data).toMatchObject({
      email: b.email,
    });
  });

  it("does not reveal whether a new address is taken, and never moves onto it", async () => {
    const a = await signUp();
    const b = await signUp();
    const res = await call("/api/v1/account", bearer(a.token, json("PATCH", { email: b.email })));
    expect((await body(res)).data).toMatchObject({ emailChange: { sentTo: b.email } });
    expect((await outbox(b.email))[0]!.subject).toBe("Address change attempt");
    expect((await body(await call("/api/v1/account", bearer(a.token)))).data).toMatchObject({
      email: a.email,
    });
  });
});

describe("the captcha fails closed", () => {
  /** The real app with `overrides` (undefined removes a setting); a captcha secret so the check can run. */
  const callWith = (overrides: Record<string, string | undefined>, path: string, init: RequestInit = {}) => {
    const settings: Record<string, unknown> = { ...env, HCAPTCHA_SECRET: "0x-test-secret", ...overrides };
    for (const [k, v] of Object.entries(overrides)) if (v === undefined) delete settings[k];
    return createApp().fetch(
      new Request(`${BASE}${path}`, init),
      settings as unknown as Env,
      createExecutionContext(),
    );
  };
  const login = (overrides: Record<string, string | undefined>) =>
    callWith(overrides, "/api/v1/auth/login", {
      ...json("POST", { email: freshEmail("captcha") }),
      headers: {
        "content-type": "application/json",
        "cf-connecting-ip": `198.51.100.${Math.floor(Math.random() * 250)}`,
      },
    });

  it.each([["TRUE"], ["1"], ["yes"], [""], [" true"], [undefined]])(
    "keeps it on outside development when CAPTCHA_ENABLED is %j: login, sign-in options and the pages' policy",
    async (value) => {
      const settings = { ENVIRONMENT: "production", CAPTCHA_ENABLED: value };
      const res = await login(settings);
      expect(res.status).toBe(400);
      expect(await body(res)).toMatchObject({
        success: false,
        details: { errors: [{ field: "hcaptchaToken", code: "CAPTCHA_REQUIRED" }] },
      });
      const options = await body<{ captcha: { provider: string } | null }>(
        await callWith(settings, "/api/v1/auth/options"),
      );
      expect(options.data!.captcha).toMatchObject({ provider: "hcaptcha" });
      const page = await callWith(settings, "/sign-in");
      expect(page.headers.get("content-security-policy")).toContain("https://hcaptcha.com");
    },
  );

  it('is off outside development only when CAPTCHA_ENABLED is exactly "false"', async () => {
    expect((await login({ ENVIRONMENT: "production", CAPTCHA_ENABLED: "false" })).status).toBe(202);
    expect(
      (
        await body(
          await callWith({ ENVIRONMENT: "staging", CAPTCHA_ENABLED: "false" }, "/api/v1/auth/options"),
        )
      ).data,
    ).toMatchObject({ captcha: null });
  });

  it('in development (local runs, the tests) is on only with "true"', async () => {
    expect((await login({ ENVIRONMENT: "development", CAPTCHA_ENABLED: undefined })).status).toBe(202);
    expect((await login({ ENVIRONMENT: "development", CAPTCHA_ENABLED: "TRUE" })).status).toBe(202);
    expect((await login({ ENVIRONMENT: "development", CAPTCHA_ENABLED: "true" })).status).toBe(400);
  });
});
