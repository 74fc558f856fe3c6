/** The whole journey of a new user over HTTP on the real local bindings. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, json } from "../helpers.ts";
import { bearer, body, freshEmail, latestCode, outbox, register, verify } from "./sign-up.ts";

describe("a new user", () => {
  it("registers, reads the code, verifies, creates a key, renders with it, lists, deletes it and is refused", async () => {
    const email = freshEmail("journey");
    const reg = await register(email, { name: "Ada" });
    expect(reg.status).toBe(202);
    expect(await body(reg)).toMatchObject({
      success: true,
      data: { sent: true, email, expiresInSeconds: 600 },
    });
    // Nothing exists until the address is verified.
    expect(await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first()).toBeNull();

    const code = await latestCode(email);
    expect(code).toMatch(/^\d{6}$/);
    const verified = await verify(email, code!);
    expect(verified.status).toBe(200);
    const session = (
      await body<{ session: { token: string; expiresAt: string }; user: Record<string, unknown> }>(verified)
    ).data!;
    expect(session.session.token).toMatch(/^mrs_/);
    expect(Date.parse(session.session.expiresAt)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect(session.user).toMatchObject({
      email,
      name: "Ada",
      planId: "free",
      termsVersion: "2026-10-12",
      marketingAccepted: false,
    });
    const token = session.session.token;

    // The session token is stored hashed, never in clear.
    const stored = await env.DB.prepare("SELECT token_hash FROM sessions WHERE user_id = ?")
      .bind(session.user.id)
      .first<{ token_hash: string }>();
    expect(stored!.token_hash).not.toContain(token.slice(4));

    const account = await call("/api/v1/account", bearer(token));
    expect(account.status).toBe(200);
    expect((await body(account)).data).toMatchObject({ email, name: "Ada" });

    const created = await call(
      "/api/v1/api-keys",
      bearer(token, json("POST", { name: "ci key", permissions: [{ resource: "jobs", action: "full" }] })),
    );
    expect(created.status).toBe(201);
    const { key, apiKey } = (await body<{ key: string; apiKey: { id: string; prefix: string } }>(created))
      .data!;
    expect(key).toMatch(/^mrk_/);
    expect(key.startsWith(apiKey.prefix)).toBe(true);

    const job = await call(
      "/api/v1/jobs",
      json(
        "POST",
        { type: "image", config: { width: 8, height: 8, layers: [{ type: "rectangle", fill: "#f00" }] } },
        key,
      ),
    );
    expect(job.status).toBe(201);
    expect((await body(job)).data).toMatchObject({ status: "PENDING", estimatedTokens: 3 });

    const listed = await call("/api/v1/api-keys", bearer(token));
    const keys = (await body<{ apiKeys: Record<string, unknown>[] }>(listed)).data!.apiKeys;
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id: apiKey.id, name: "ci key", prefix: apiKey.prefix, expiresAt: null });
    expect(keys[0]!.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(keys)).not.toContain(key);

    const deleted = await call(`/api/v1/api-keys/${apiKey.id}`, bearer(token, { method: "DELETE" }));
    expect((await body(deleted)).data).toEqual({ id: apiKey.id, deleted: true });
    const refused = await call("/api/v1/jobs", { headers: { "x-api-key": key } });
    expect(refused.status).toBe(401);
    expect(await body(refused)).toEqual({ success: false, error: "Unauthorized" });

    // Logging out ends the session at once.
    expect((await call("/api/v1/auth/logout", bearer(token, { method: "POST" }))).status).toBe(200);
    expect((await call("/api/v1/account", bearer(token))).status).toBe(401);
    // The mail the user got.
    expect((await outbox(email))[0]!.subject).toBe(`Your sign-up code: ${code}`);
  });

  it("signs in again later with a login code", async () => {
    const email = freshEmail("again");
    await register(email);
    await verify(email, (await latestCode(email))!);
    expect((await call("/api/v1/auth/login", json("POST", { email }))).status).toBe(202);
    const code = await latestCode(email);
    const res = await verify(email, code!);
    expect(res.status).toBe(200);
    expect((await outbox(email))[0]!.subject).toBe(`Your sign-in code: ${code}`);
  });

  it("renames the account and moves it to a new address confirmed by a code sent there", async () => {
    const email = freshEmail("move");
    await register(email);
    const { token } = (
      await body<{ session: { token: string } }>(await verify(email, (await latestCode(email))!))
    ).data!.session;
    const renamed = await call("/api/v1/account", bearer(token, json("PATCH", { name: "Grace" })));
    expect((await body(renamed)).data).toMatchObject({ user: { name: "Grace", email } });

    const newEmail = freshEmail("moved");
    const asked = await call("/api/v1/account", bearer(token, json("PATCH", { email: newEmail })));
    expect((await body(asked)).data).toMatchObject({ user: { email }, emailChange: { sentTo: newEmail } });
    const code = await latestCode(newEmail);
    const confirmed = await call(
      "/api/v1/account/email/verify",
      bearer(token, json("POST", { token: code })),
    );
    expect(confirmed.status).toBe(200);
    expect((await body(confirmed)).data).toMatchObject({ user: { email: newEmail } });
    // The old address no longer signs in; the new one does.
    await call("/api/v1/auth/login", json("POST", { email }));
    expect((await outbox(email))[0]!.subject).toBe("Sign-in attempt");
    await call("/api/v1/auth/login", json("POST", { email: newEmail }));
    expect((await verify(newEmail, (await latestCode(newEmail))!)).status).toBe(200);
  });
});
