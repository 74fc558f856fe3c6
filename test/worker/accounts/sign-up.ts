/** Signing up the way a user does: register, read the code from the local outbox, verify. */
import { expect } from "vitest";
import { call, json } from "../helpers.ts";

export const CONSENT = { termsAccepted: true, termsVersion: "2026-10-12", marketingAccepted: false };

let n = 0;
export const freshEmail = (tag = "user") =>
  `${tag}-${Date.now()}-${n++}-${Math.random().toString(36).slice(2, 8)}@example.com`;

export const body = async <T = Record<string, unknown>>(res: Response) =>
  (await res.json()) as {
    success: boolean;
    data?: T;
    error?: string;
    details?: Record<string, unknown>;
    message?: string;
  };

/** The newest 6-digit code mailed to `email` (from GET /dev/outbox). */
export const latestCode = async (email: string): Promise<string | null> => {
  const res = await call(`/dev/outbox?email=${encodeURIComponent(email)}`);
  expect(res.status).toBe(200);
  const { data } = await body<{ messages: { subject: string; text: string }[] }>(res);
  const first = data!.messages[0];
  return first ? (/(\d{6})/.exec(first.subject)?.[1] ?? null) : null;
};

export const outbox = async (email: string) =>
  (
    await body<{ messages: { to: string; subject: string; text: string; createdAt: string }[] }>(
      await call(`/dev/outbox?email=${encodeURIComponent(email)}`),
    )
  ).data!.messages;

export const register = (email: string, extra: Record<string, unknown> = {}) =>
  call("/api/v1/auth/register", json("POST", { email, consent: CONSENT, ...extra }));

export const verify = (email: string, token: string) =>
  call("/api/v1/auth/verify", json("POST", { email, token }));

export const bearer = (token: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` },
});

/** A new account through the public API; returns its session token and account id. */
export const signUp = async (email = freshEmail()) => {
  expect((await register(email, { name: "Test User" })).status).toBe(202);
  const code = await latestCode(email);
  const res = await verify(email, code!);
  expect(res.status).toBe(200);
  const { data } = await body<{ session: { token: string; expiresAt: string }; user: { id: string } }>(res);
  return { email, token: data!.session.token, userId: data!.user.id };
};
