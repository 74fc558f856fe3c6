/**
 * `Idempotency-Key` on POST /api/v1/jobs and uploads (Stripe's convention): a client that retries a request it is
 * unsure about (a timeout, a dropped connection) with the same key gets the first request's answer instead of a
 * second job or file. Per account and operation; answers are kept IDEMPOTENCY_TTL_MS.
 *
 * - first use: the key is claimed (`running`), the request runs, a 2xx answer is stored with the request's
 *   fingerprint; an error frees the key again (the retry runs anew: nothing was created);
 * - the same key again with the same request: the stored answer, with `Idempotent-Replayed: true`;
 * - with another request: 409; while the first is still running: 409.
 */
import { and, eq, lt } from "drizzle-orm";
import type { CallerCtx, Ctx } from "../context.ts";
import { idempotencyKeys } from "../db/schema.ts";
import { Conflict, ValidationFailed } from "./errors.ts";

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/** A claim older than this is taken to belong to a request that died, and may be claimed again. */
const STALE_CLAIM_MS = 10 * 60_000;

export type IdempotencyScope = "jobs.create" | "files.upload" | "batches.create" | "templates.render";

export interface Answer {
  status: number;
  body: unknown;
}

/** The header's value, or undefined without one; 400 for a malformed one. */
export const idempotencyKeyOf = (header: string | undefined): string | undefined => {
  if (header === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(header))
    throw new ValidationFailed([
      {
        field: "Idempotency-Key",
        message: "must be 1 to 255 printable ASCII characters (a UUID is typical)",
        code: "INVALID_IDEMPOTENCY_KEY",
      },
    ]);
  return header;
};

type Claim = { kind: "run" } | { kind: "replay"; fingerprint: string; answer: Answer };

const where = (ctx: CallerCtx, scope: IdempotencyScope, key: string) =>
  and(
    eq(idempotencyKeys.userId, ctx.caller.userId),
    eq(idempotencyKeys.scope, scope),
    eq(idempotencyKeys.key, key),
  );

/** Claims `key` for a new request, or says what the earlier request with it answered. */
const claim = async (ctx: CallerCtx, scope: IdempotencyScope, key: string): Promise<Claim> => {
  const at = ctx.now();
  // A dead claim or an expired answer no longer holds the key.
  await ctx.db
    .delete(idempotencyKeys)
    .where(and(where(ctx, scope, key), lt(idempotencyKeys.expiresAt, at)))
    .run();
  await ctx.db
    .delete(idempotencyKeys)
    .where(
      and(
        where(ctx, scope, key),
        eq(idempotencyKeys.status, "running"),
        lt(idempotencyKeys.createdAt, at - STALE_CLAIM_MS),
      ),
    )
    .run();
  const inserted = await ctx.db
    .insert(idempotencyKeys)
    .values({
      userId: ctx.caller.userId,
      scope,
      key,
      status: "running",
      createdAt: at,
      expiresAt: at + IDEMPOTENCY_TTL_MS,
    })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length === 1) return { kind: "run" };
  const row = await ctx.db.query.idempotencyKeys.findFirst({ where: where(ctx, scope, key) });
  if (!row || row.status === "running")
    throw new Conflict("A request with this Idempotency-Key is still being processed; retry in a moment");
  return {
    kind: "replay",
    fingerprint: row.fingerprint ?? "",
    answer: { status: row.responseStatus ?? 200, body: JSON.parse(row.responseBody ?? "null") },
  };
};

/**
 * Runs `run` under `key` (or plainly without one). `fingerprint` of the request is known before (a JSON body) or
 * learnt while running (an upload's bytes): `run` returns it with its answer, and `fingerprintAgain` computes it
 * for a retry that must be compared.
 */
export const idempotent = async (
  ctx: CallerCtx,
  scope: IdempotencyScope,
  key: string | undefined,
  run: () => Promise<{ answer: Answer; fingerprint: string }>,
  fingerprintAgain: () => Promise<string>,
): Promise<Answer & { replayed: boolean }> => {
  if (key === undefined) return { ...(await run()).answer, replayed: false };
  const claimed = await claim(ctx, scope, key);
  if (claimed.kind === "replay") {
    if ((await fingerprintAgain()) !== claimed.fingerprint)
      throw new Conflict(
        "This Idempotency-Key was used for another request; use a new key for a new request",
      );
    return { ...claimed.answer, replayed: true };
  }
  try {
    const { answer, fingerprint } = await run();
    await ctx.db
      .update(idempotencyKeys)
      .set({
        status: "done",
        fingerprint,
        responseStatus: answer.status,
        responseBody: JSON.stringify(answer.body),
      })
      .where(where(ctx, scope, key))
      .run();
    return { ...answer, replayed: false };
  } catch (e) {
    // Nothing was created (errors leave no half state): the key is free for the retry.
    await ctx.db
      .delete(idempotencyKeys)
      .where(where(ctx, scope, key))
      .run()
      .catch(() => undefined);
    throw e;
  }
};

/** Cron: forgets answers older than a day. */
export const pruneIdempotencyKeys = async (ctx: Ctx): Promise<void> => {
  await ctx.db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, ctx.now())).run();
};
