/**
 * Limits on sign-in attempts (configuration, README "Accounts"): codes sent to one address per hour
 * (AUTH_EMAIL_LIMIT_PER_HOUR, production default 5) and sign-in requests from one IP per hour
 * (AUTH_IP_LIMIT_PER_HOUR, production default 60). Counted in the API's fixed-window counters under hashes of the
 * address and the IP. Over a limit: 429 with Retry-After; the answer does not depend on whether an account exists.
 */
import type { Ctx } from "../context";
import { sha256Hex } from "../contract/crypto";
import { RateLimited } from "../lib/errors";
import { hit, type Limit } from "../lib/rate-limit";

const HOUR = 3600_000;
const DEFAULT_EMAIL_LIMIT = 5;
const DEFAULT_IP_LIMIT = 60;

const perHour = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

const refuseIfOver = async (ctx: Ctx, limit: Limit, subject: string) => {
  const [outcome] = await hit(ctx.d1, await sha256Hex(subject), [limit], ctx.now());
  if (outcome && outcome.count > limit.limit)
    throw new RateLimited(Math.max(1, Math.ceil((outcome.resetAt - ctx.now()) / 1000)));
};

/** Counts one sign-in request from `ip` (the client address Cloudflare reports). */
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
