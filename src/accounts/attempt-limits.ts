/**
 * Limits on sign-in attempts (configuration, docs/security-and-limits.md): codes sent to one address per hour
 * (AUTH_EMAIL_LIMIT_PER_HOUR, production default 5) and sign-in requests from one IP per hour
 * (AUTH_IP_LIMIT_PER_HOUR, production default 60). Counted in the API's fixed-window counters under hashes of the
 * address and the IP. Over a limit: 429 with Retry-After; the answer does not depend on whether an account exists.
 *
 * An address change (PATCH /api/v1/account) mails the new address. It counts against the requester: its IP (the
 * sign-in IP limit) and its account (EMAIL_CHANGES_PER_ACCOUNT), and the mails one address receives this way are
 * counted on their own (EMAIL_CHANGE_MAILS_PER_ADDRESS). It never touches the new address's sign-in counter, so
 * asking to move onto someone's address cannot lock them out of signing in.
 */
import type { Ctx } from "../context.ts";
import { sha256Hex } from "@media-render/contract/crypto";
import { RateLimited } from "../lib/errors.ts";
import { hit, type Limit } from "../lib/rate-limit.ts";

const HOUR = 3600_000;
const DEFAULT_EMAIL_LIMIT = 5;
const DEFAULT_IP_LIMIT = 60;

const perHour = (value: string | undefined, fallback: number) => {
  const limit = Number(value);
  return Number.isInteger(limit) && limit > 0 ? limit : fallback;
};

const refuseIfOver = async (ctx: Ctx, limit: Limit, subject: string) => {
  const [outcome] = await hit(ctx.d1, await sha256Hex(subject), [limit], ctx.now());
  if (outcome && outcome.count > limit.limit)
    throw new RateLimited(Math.max(1, Math.ceil((outcome.resetAt - ctx.now()) / 1000)));
};

/** Address changes one account may ask for per hour. */
export const EMAIL_CHANGES_PER_ACCOUNT = 5;
/** Address-change mails (a code, or "address in use") one address receives per hour, whoever asks. */
export const EMAIL_CHANGE_MAILS_PER_ADDRESS = 5;

/** Counts one sign-in or address-change request from `ip` (the client address Cloudflare reports). */
export const countIpAttempt = (ctx: Ctx, ip: string) =>
  refuseIfOver(
    ctx,
    { name: "auth-ip", limit: perHour(ctx.env.AUTH_IP_LIMIT_PER_HOUR, DEFAULT_IP_LIMIT), windowMs: HOUR },
    ip,
  );

/** Counts one code sent to `email`. */
export const countEmailAttempt = (ctx: Ctx, email: string) =>
  refuseIfOver(
    ctx,
    {
      name: "auth-email",
      limit: perHour(ctx.env.AUTH_EMAIL_LIMIT_PER_HOUR, DEFAULT_EMAIL_LIMIT),
      windowMs: HOUR,
    },
    email,
  );

/** Counts one address change asked for by the account `userId`. */
export const countEmailChange = (ctx: Ctx, userId: string) =>
  refuseIfOver(ctx, { name: "email-change", limit: EMAIL_CHANGES_PER_ACCOUNT, windowMs: HOUR }, userId);

/** Counts one address-change mail to `email` (apart from the address's sign-in codes). */
export const countEmailChangeMail = (ctx: Ctx, email: string) =>
  refuseIfOver(
    ctx,
    { name: "email-change-mail", limit: EMAIL_CHANGE_MAILS_PER_ADDRESS, windowMs: HOUR },
    email,
  );
