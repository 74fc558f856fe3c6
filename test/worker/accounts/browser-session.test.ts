/**
 * The browser's session (src/accounts/browser-routes.ts, src/auth/session-cookie.ts): signing in sets an HttpOnly,
 * Secure, SameSite=Strict `__Host-` cookie and answers a CSRF token instead of the session token; the cookie
 * authenticates every route a session may use; a state change made with it needs this origin and the token;
 * signing out revokes the session on the server. API keys and bearer sessions are unchanged.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BASE, call, json, newAccount } from "../helpers.ts";
import { bearer, body, freshEmail, latestCode, register, signUp } from "./sign-up.ts";

const COOKIE = "__Host-mrs_session";

/** Registers `email` and signs the "browser" in with the mailed code: its cookie and CSRF token. */
const browserSignIn = async (email = freshEmail("browser")) => {
  expect((await register(email)).status).toBe(202);
  const res = await call("/api/v1/auth/session", {
    ...json("POST", { email, token: (await latestCode(email))! }),
    headers: { "content-type": "application/json", origin: BASE },
  });
  expect(res.status).toBe(200);
  const setCookie = res.headers.get("set-cookie") ?? "";
  const token = new RegExp(`${COOKIE}=([^;]+)`).exec(setCookie)![1]!;
  const { data } = await body<{ csrfToken: string; user: { id: string; email: string } }>(res);
  return {
    email,
    setCookie,
    cookie: `${COOKIE}=${token}`,
    token,
    csrf: data!.csrfToken,
    userId: data!.user.id,
  };
};

/** A request with the cookie; `origin` (default this one) and `csrf` as a browser page would send them. */
const withCookie = (
  cookie: string,
  path: string,
  init: RequestInit & { origin?: string | null; csrf?: string } = {},
) => {
  const headers = new Headers(init.headers);
  headers.set("cookie", cookie);
  if (init.origin !== null) headers.set("origin", init.origin ?? BASE);
  if (init.csrf !== undefined) headers.set("x-csrf-token", init.csrf);
  return call(path, { ...init, headers });
};

const newKeyBody = (name = "from the browser") =>
  JSON.stringify({ name, permissions: [{ resource: "jobs", action: "read" }] });

describe("signing a browser in", () => {
  it("sets the session cookie with its flags and answers the account and a CSRF token, never the token", async () => {
    const s = await browserSignIn();
    expect(s.setCookie).toMatch(
      new RegExp(`^${COOKIE}=mrs_[\\w-]+; Max-Age=259\\d{4}; Path=/; HttpOnly; Secure; SameSite=Strict$`),
    );
    expect(s.csrf).toMatch(/^[0-9a-f]{64}$/);
    const read = await withCookie(s.cookie, "/api/v1/auth/session");
    expect(read.status).toBe(200);
    const { data } = await body<{ user: { email: string }; csrfToken: string; expiresAt: string }>(read);
    expect(data).toMatchObject({ user: { email: s.email }, csrfToken: s.csrf });
    expect(Date.parse(data!.expiresAt)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect(JSON.stringify(data)).not.toContain(s.token);
  });

  it("answers what a sign-in page needs", async () => {
    const res = await call("/api/v1/auth/options");
    expect(await body(res)).toEqual({
      success: true,
      data: { termsVersion: "2026-10-12", captcha: null, devOutbox: "/dev/outbox", codeTtlSeconds: 600 },
    });
  });

  it("refuses a wrong code, a missing field and a sign-in from another site", async () => {
    const email = freshEmail("wrong");
    await register(email);
    const send = (payload: unknown, origin = BASE) =>
      call("/api/v1/auth/session", {
        ...json("POST", payload),
        headers: { "content-type": "application/json", origin },
      });
    const wrong = await send({ email, token: "000000" });
    expect(wrong.status).toBe(401);
    expect(await body(wrong)).toMatchObject({ error: "Invalid or expired code" });
    expect(wrong.headers.get("set-cookie")).toBeNull();
    const missing = await send({ email });
    expect(missing.status).toBe(400);
    expect(await body(missing)).toMatchObject({ details: { errors: [{ field: "token" }] } });
    // Login CSRF: a page of another site cannot sign this browser in, not even with a good code.
    const foreign = await send({ email, token: (await latestCode(email))! }, "https://evil.example");
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("set-cookie")).toBeNull();
  });

  it("ends the session the browser had when it signs in again", async () => {
    const first = await browserSignIn();
    await call("/api/v1/auth/login", json("POST", { email: first.email }));
    const again = await withCookie(first.cookie, "/api/v1/auth/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: first.email, token: (await latestCode(first.email))! }),
    });
    expect(again.status).toBe(200);
    expect((await withCookie(first.cookie, "/api/v1/account")).status).toBe(401);
  });
});

describe("the cookie as a credential", () => {
  it("authenticates reads on every kind of route a session may use", async () => {
    const s = await browserSignIn();
    for (const path of [
      "/api/v1/account",
      "/api/v1/api-keys",
      "/api/v1/jobs",
      "/api/v1/files",
      "/api/v2/templates",
      "/api/v2/webhooks",
      "/api/v1/billing/usage",
    ])
      expect((await withCookie(s.cookie, path, { origin: null })).status, path).toBe(200);
  });

  it("changes state with this origin and the session's CSRF token", async () => {
    const s = await browserSignIn();
    const created = await withCookie(s.cookie, "/api/v1/api-keys", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: newKeyBody(),
      csrf: s.csrf,
    });
    expect(created.status).toBe(201);
    const renamed = await withCookie(s.cookie, "/api/v1/account", {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Browser user" }),
      csrf: s.csrf,
    });
    expect(await body(renamed)).toMatchObject({ success: true, data: { user: { name: "Browser user" } } });
  });

  it("leaves API keys and bearer sessions as they were: the cookie is only looked at without them", async () => {
    const s = await browserSignIn();
    const other = await newAccount();
    // A key wins over the cookie (and needs no CSRF token): the request acts for the key's account.
    const withKey = await withCookie(s.cookie, "/api/v1/account", { headers: { "x-api-key": other.key } });
    expect(await body(withKey)).toMatchObject({ data: { id: other.userId } });
    const post = await withCookie(s.cookie, "/api/v1/jobs/validate", {
      method: "POST",
      origin: "https://evil.example",
      headers: { "x-api-key": other.key, "content-type": "application/json" },
      body: JSON.stringify({ type: "image", config: {} }),
    });
    expect(post.status).toBe(200);
    const bearerUser = await signUp();
    const viaBearer = await call(
      "/api/v1/api-keys",
      bearer(bearerUser.token, json("POST", JSON.parse(newKeyBody()))),
    );
    expect(viaBearer.status).toBe(201);
  });
});

describe("CSRF", () => {
  const attempts = [
    ["no token", {}, "CSRF_TOKEN_INVALID"],
    ["an empty token", { csrf: "" }, "CSRF_TOKEN_INVALID"],
    ["another session's token", { csrf: "other" }, "CSRF_TOKEN_INVALID"],
    ["no Origin", { origin: null, csrf: "mine" }, "CROSS_SITE_REQUEST"],
    ["another site's Origin", { origin: "https://evil.example", csrf: "mine" }, "CROSS_SITE_REQUEST"],
    ["a look-alike Origin", { origin: `${BASE}.evil.example`, csrf: "mine" }, "CROSS_SITE_REQUEST"],
  ] as const;

  for (const [what, opts, code] of attempts)
    it(`refuses a state change made with the cookie and ${what}`, async () => {
      const s = await browserSignIn();
      const other = await browserSignIn();
      const csrf =
        "csrf" in opts
          ? opts.csrf === "mine"
            ? s.csrf
            : opts.csrf === "other"
              ? other.csrf
              : opts.csrf
          : undefined;
      const res = await withCookie(s.cookie, "/api/v1/api-keys", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: newKeyBody(),
        ...("origin" in opts ? { origin: opts.origin } : {}),
        ...(csrf !== undefined ? { csrf } : {}),
      });
      expect(res.status).toBe(403);
      expect(await body(res)).toMatchObject({
        success: false,
        details: { errors: [{ field: "x-csrf-token", code }] },
      });
      const keys = await env.DB.prepare("SELECT count(*) AS n FROM api_keys WHERE user_id = ?")
        .bind(s.userId)
        .first<{ n: number }>();
      expect(keys!.n).toBe(0);
    });

  it("guards every unsafe method of every cookie route, deletes and sign-out included", async () => {
    const s = await browserSignIn();
    for (const [method, path] of [
      ["DELETE", "/api/v1/api-keys/key_x"],
      ["PATCH", "/api/v1/account"],
      ["POST", "/api/v1/jobs"],
      ["DELETE", "/api/v1/files/file_x"],
      ["PUT", "/api/v2/templates/tpl_x"],
      ["POST", "/api/v2/webhooks"],
      ["POST", "/api/v1/billing/checkout"],
      ["DELETE", "/api/v1/auth/session"],
      ["POST", "/api/v1/auth/logout"],
    ] as const)
      expect((await withCookie(s.cookie, path, { method })).status, `${method} ${path}`).toBe(403);
    expect((await withCookie(s.cookie, "/api/v1/account")).status).toBe(200);
  });
});

describe("signing a browser out", () => {
  it("revokes the session on the server and drops the cookie", async () => {
    const s = await browserSignIn();
    const out = await withCookie(s.cookie, "/api/v1/auth/session", { method: "DELETE", csrf: s.csrf });
    expect(await body(out)).toEqual({ success: true, data: { loggedOut: true } });
    expect(out.headers.get("set-cookie")).toMatch(
      new RegExp(`^${COOKIE}=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Strict$`),
    );
    for (const path of ["/api/v1/auth/session", "/api/v1/account"])
      expect((await withCookie(s.cookie, path)).status).toBe(401);
    const row = await env.DB.prepare("SELECT revoked_at FROM sessions WHERE user_id = ?")
      .bind(s.userId)
      .first<{ revoked_at: number | null }>();
    expect(row!.revoked_at).not.toBeNull();
  });

  it("is refused for a bearer session (that is POST /api/v1/auth/logout) and without a session", async () => {
    const user = await signUp();
    expect((await call("/api/v1/auth/session", bearer(user.token, { method: "DELETE" }))).status).toBe(401);
    expect((await call("/api/v1/auth/session", { method: "DELETE", headers: { origin: BASE } })).status).toBe(
      401,
    );
    expect((await call("/api/v1/account", bearer(user.token))).status).toBe(200);
  });

  it("answers 401 to a made-up cookie", async () => {
    const res = await withCookie(`${COOKIE}=mrs_madeup`, "/api/v1/auth/session");
    expect(res.status).toBe(401);
  });
});
