/**
 * Registration and sign-in by e-mailed code (spec, Authentication rule 9): `register` and `login` send a code
 * and answer the same whatever the address (nothing tells a caller whether it has an account); `verifyCode`
 * exchanges the code for a session, creating the account on a first registration.
 */
import type { Ctx } from "../context.ts";
import { Unauthorized } from "../lib/errors.ts";
import { mailerFor } from "../mail/mailer.ts";
import { countEmailAttempt, countIpAttempt } from "./attempt-limits.ts";
import { captchaFor, checkCaptcha } from "./captcha.ts";
import { CODE_TTL_MS, consumeCode, issueCode } from "./codes.ts";
import { createAccount } from "./create-account.ts";
import { findAccountByEmail, getAccount, toAccount } from "./lookup.ts";
import { alreadyRegisteredMail, loginCodeMail, noAccountMail, registrationCodeMail } from "./mail-texts.ts";
import type { CodeSent, RegisterBody, SignedIn } from "./schemas.ts";
import { createSession } from "../auth/sessions.ts";

/** Who is asking: the client's IP as Cloudflare reports it (sign-in limits count per IP). */
export interface Client {
  ip: string;
}

/** The answer of register and login, whatever happened behind it. */
const sent = (email: string): CodeSent => ({
  sent: true,
  email,
  expiresInSeconds: CODE_TTL_MS / 1000,
  next: "POST /api/v1/auth/verify with { email, token } (the 6-digit code from the mail)",
});

const admit = async (ctx: Ctx, client: Client, email: string, captchaToken: string | undefined) => {
  await checkCaptcha(captchaFor(ctx.env), captchaToken, client.ip);
  await countIpAttempt(ctx, client.ip);
  await countEmailAttempt(ctx, email);
};

export const register = async (ctx: Ctx, input: RegisterBody, client: Client) => {
  await admit(ctx, client, input.email, input.hcaptchaToken);
  const mailer = mailerFor(ctx);
  const existing = await findAccountByEmail(ctx, input.email);
  if (existing) {
    const { code } = await issueCode(ctx, { email: input.email, purpose: "login", userId: existing.id });
    await mailer.send(alreadyRegisteredMail(input.email, code, CODE_TTL_MS));
  } else {
    const payload = {
      name: input.name ?? null,
      termsVersion: input.consent.termsVersion,
      marketingAccepted: input.consent.marketingAccepted,
    };
    const { code } = await issueCode(ctx, { email: input.email, purpose: "register", payload });
    await mailer.send(registrationCodeMail(input.email, code, CODE_TTL_MS));
  }
  return sent(input.email);
};

export const login = async (ctx: Ctx, input: { email: string; hcaptchaToken?: string }, client: Client) => {
  await admit(ctx, client, input.email, input.hcaptchaToken);
  const mailer = mailerFor(ctx);
  const existing = await findAccountByEmail(ctx, input.email);
  if (existing) {
    const { code } = await issueCode(ctx, { email: input.email, purpose: "login", userId: existing.id });
    await mailer.send(loginCodeMail(input.email, code, CODE_TTL_MS));
  } else {
    await mailer.send(noAccountMail(input.email));
  }
  return sent(input.email);
};

/** The account a spent registration code stands for: created now, or the one a parallel verify created. */
const registeredAccount = async (ctx: Ctx, email: string, payload: Record<string, unknown>) => {
  const existing = await findAccountByEmail(ctx, email);
  if (existing) return existing;
  try {
    await createAccount(ctx, {
      email,
      name: typeof payload.name === "string" ? payload.name : null,
      consent: {
        termsVersion: String(payload.termsVersion),
        marketingAccepted: payload.marketingAccepted === true,
      },
    });
  } catch (e) {
    // Two registrations of one address verified at once: the unique e-mail index lets one through.
    if (!/UNIQUE/i.test(String(e))) throw e;
  }
  return (await findAccountByEmail(ctx, email))!;
};

/** Exchanges an e-mailed code for a session; 401 alike for every wrong, expired, burnt or used code. */
export const verifyCode = async (
  ctx: Ctx,
  input: { email: string; token: string },
  client: Client,
): Promise<SignedIn> => {
  await countIpAttempt(ctx, client.ip);
  const spent = await consumeCode(ctx, {
    email: input.email,
    purposes: ["register", "login"],
    code: input.token,
  });
  if (!spent) throw new Unauthorized("Invalid or expired code");
  const account =
    spent.purpose === "register"
      ? await registeredAccount(ctx, spent.email, spent.payload ?? {})
      : await getAccount(ctx, spent.userId!).catch(() => null);
  if (!account) throw new Unauthorized("Invalid or expired code");
  return { session: await createSession(ctx, account.id), user: toAccount(account) };
};
