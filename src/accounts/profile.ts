/**
 * The signed-in account: read, rename, change the e-mail address (confirmed by a code sent to the new address;
 * the answer is the same whether that address is free or taken), sign out.
 */
import { eq } from "drizzle-orm";
import type { CallerCtx } from "../context.ts";
import { users } from "../db/schema.ts";
import { Conflict, Unauthorized, ValidationFailed } from "../lib/errors.ts";
import { mailerFor } from "../mail/mailer.ts";
import { countEmailChange, countEmailChangeMail, countIpAttempt } from "./attempt-limits.ts";
import { captchaFor, checkCaptcha } from "./captcha.ts";
import { CODE_TTL_MS, consumeCode, issueCode } from "./codes.ts";
import { findAccountByEmail, getAccount, toAccount } from "./lookup.ts";
import { addressInUseMail, emailChangeCodeMail } from "./mail-texts.ts";
import type { AccountUpdated, LoggedOut, UpdateAccountBody } from "./schemas.ts";
import { revokeAllSessions, revokeSession } from "../auth/sessions.ts";
import type { Client } from "./sign-in.ts";

export const readAccount = async (ctx: CallerCtx) => toAccount(await getAccount(ctx, ctx.caller.userId));

/**
 * Renames and/or starts an address change. A change is admitted like a sign-in (captcha where it is on, the
 * requester's IP) and counted per account and per new address (attempt-limits.ts) before anything is written, so a
 * refused change leaves the name untouched too.
 */
export const updateAccount = async (
  ctx: CallerCtx,
  input: UpdateAccountBody,
  client: Client,
): Promise<AccountUpdated> => {
  const userId = ctx.caller.userId;
  const current = await getAccount(ctx, userId);
  const newEmail = input.email !== undefined && input.email !== current.email ? input.email : undefined;
  if (newEmail !== undefined) {
    await checkCaptcha(captchaFor(ctx.env), input.hcaptchaToken, client.ip);
    await countIpAttempt(ctx, client.ip);
    await countEmailChange(ctx, userId);
    await countEmailChangeMail(ctx, newEmail);
  }
  if (input.name !== undefined)
    await ctx.db
      .update(users)
      .set({ name: input.name, updatedAt: ctx.now() })
      .where(eq(users.id, userId))
      .run();
  let emailChange: { sentTo: string; expiresInSeconds: number } | undefined;
  if (newEmail !== undefined) {
    const mailer = mailerFor(ctx);
    if (await findAccountByEmail(ctx, newEmail)) await mailer.send(addressInUseMail(newEmail));
    else {
      const payload = { newEmail };
      const { code } = await issueCode(ctx, { email: newEmail, purpose: "email-change", userId, payload });
      await mailer.send(emailChangeCodeMail(newEmail, code, CODE_TTL_MS));
    }
    emailChange = { sentTo: newEmail, expiresInSeconds: CODE_TTL_MS / 1000 };
  }
  return { user: toAccount(await getAccount(ctx, userId)), ...(emailChange && { emailChange }) };
};

/** Applies a pending address change with the code sent to the new address; other sessions are signed out. */
export const confirmEmailChange = async (
  ctx: CallerCtx,
  input: { token: string },
): Promise<AccountUpdated> => {
  const userId = ctx.caller.userId;
  const spent = await consumeCode(ctx, { userId, purposes: ["email-change"], code: input.token });
  const newEmail = spent?.payload?.newEmail;
  if (typeof newEmail !== "string") throw new Unauthorized("Invalid or expired code");
  try {
    await ctx.db
      .update(users)
      .set({ email: newEmail, updatedAt: ctx.now() })
      .where(eq(users.id, userId))
      .run();
  } catch (e) {
    if (/UNIQUE/i.test(String(e))) throw new Conflict("This address belongs to another account now");
    throw e;
  }
  await revokeAllSessions(ctx, userId, ctx.caller.sessionId);
  return { user: toAccount(await getAccount(ctx, userId)) };
};

export const logout = async (ctx: CallerCtx): Promise<LoggedOut> => {
  if (!ctx.caller.sessionId)
    throw new ValidationFailed([{ field: "authorization", message: "not a session" }]);
  await revokeSession(ctx, ctx.caller.sessionId);
  return { loggedOut: true };
};
