/**
 * E-mailed 6-digit sign-in codes. Only an HMAC of the code (keyed with AUTH_SECRET and bound to the address and
 * the code's id) is stored. A code is single use, dies after CODE_TTL_MS, and is burnt after MAX_CODE_ATTEMPTS
 * wrong tries; a new code for the same address and purpose replaces the open one. Every check is a guarded D1
 * update, so two concurrent tries of the right code spend it once.
 */
import { and, desc, eq, gt, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Ctx } from "../context.ts";
import { hmacHex, timingSafeEqual } from "@media-render/contract/crypto";
import { authCodes, type CodePurpose } from "../db/schema.ts";
import { newId } from "../lib/ids.ts";

export const CODE_TTL_MS = 10 * 60_000;
export const MAX_CODE_ATTEMPTS = 5;

/** A uniformly random 6-digit code (rejection sampling keeps 000000..999999 equally likely). */
const randomCode = (): string => {
  const buf = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buf);
    if (buf[0]! < 4_294_000_000) return String(buf[0]! % 1_000_000).padStart(6, "0");
  }
};

const codeHash = (ctx: Ctx, id: string, email: string, code: string) =>
  hmacHex(ctx.env.AUTH_SECRET, `${id}\n${email}\n${code}`);

export interface IssuedCode {
  code: string;
  expiresAt: number;
}

/** Creates a code for `email` (lower case) and closes any open one of the same purpose. */
export const issueCode = async (
  ctx: Ctx,
  input: { email: string; purpose: CodePurpose; userId?: string | null; payload?: Record<string, unknown> },
): Promise<IssuedCode> => {
  const at = ctx.now();
  const id = newId("code");
  const code = randomCode();
  const expiresAt = at + CODE_TTL_MS;
  await ctx.db.batch([
    ctx.db
      .update(authCodes)
      .set({ consumedAt: at })
      .where(
        and(
          eq(authCodes.email, input.email),
          eq(authCodes.purpose, input.purpose),
          isNull(authCodes.consumedAt),
        ),
      ),
    ctx.db.insert(authCodes).values({
      id,
      email: input.email,
      purpose: input.purpose,
      codeHash: await codeHash(ctx, id, input.email, code),
      userId: input.userId ?? null,
      payload: input.payload ?? null,
      attempts: 0,
      expiresAt,
      createdAt: at,
    }),
  ]);
  return { code, expiresAt };
};

export type CodeRow = typeof authCodes.$inferSelect;

/**
 * Spends the open code of `email` (or of account `userId`) among `purposes` when `code` is right; counts a wrong
 * try otherwise. Returns the spent row, or null for every kind of failure alike (no code, wrong, expired, burnt,
 * already used).
 */
export const consumeCode = async (
  ctx: Ctx,
  input: ({ email: string } | { userId: string }) & { purposes: readonly CodePurpose[]; code: string },
): Promise<CodeRow | null> => {
  const at = ctx.now();
  const open = await ctx.db.query.authCodes.findFirst({
    where: and(
      "email" in input ? eq(authCodes.email, input.email) : eq(authCodes.userId, input.userId),
      inArray(authCodes.purpose, [...input.purposes]),
      isNull(authCodes.consumedAt),
      gt(authCodes.expiresAt, at),
      lt(authCodes.attempts, MAX_CODE_ATTEMPTS),
    ),
    orderBy: desc(authCodes.createdAt),
  });
  if (!open) return null;
  const right = timingSafeEqual(await codeHash(ctx, open.id, open.email, input.code), open.codeHash);
  const still = and(
    eq(authCodes.id, open.id),
    isNull(authCodes.consumedAt),
    gt(authCodes.expiresAt, at),
    lt(authCodes.attempts, MAX_CODE_ATTEMPTS),
  );
  if (!right) {
    // Counted in SQL, so concurrent wrong tries each count; the last allowed one burns the code.
    await ctx.db
      .update(authCodes)
      .set({
        attempts: sql`${authCodes.attempts} + 1`,
        consumedAt: sql`CASE WHEN ${authCodes.attempts} + 1 >= ${MAX_CODE_ATTEMPTS} THEN ${at} ELSE NULL END`,
      })
      .where(still)
      .run();
    return null;
  }
  const spent = await ctx.db.update(authCodes).set({ consumedAt: at }).where(still).returning();
  return spent[0] ?? null;
};

/** Cron: removes codes that can no longer be used. */
export const pruneCodes = async (ctx: Ctx): Promise<void> => {
  await ctx.db
    .delete(authCodes)
    .where(lt(authCodes.expiresAt, ctx.now() - CODE_TTL_MS))
    .run();
};
