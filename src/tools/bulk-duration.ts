/**
 * The bulk duration tools: up to the plan's `bulkDurationMax` files (5 free, 300 paid) per request,
 * 1 token per file. Every file in an accepted request is attempted, so the whole request is charged up
 * front in one atomic spend (402 when the balance is short, nothing charged); failed files are charged too,
 * because each was fetched or read. Results keep the input order; files are measured concurrently with a
 * bound (R2 reads are cheap, the ffprobe fallback runs on two cores, so it has its own smaller bound).
 */
import { spendTokens } from "../billing/spend-tokens.ts";
import { planOf } from "../accounts/lookup.ts";
import type { CallerCtx } from "../context.ts";
import { filesByStoragePath } from "../files/lookup.ts";
import { DomainError, NotFound, ValidationFailed } from "../lib/errors.ts";
import { formatDuration } from "../media/format-duration.ts";
import { storedDurationUs, toResult, urlDurationUs } from "./measure-duration.ts";
import type { BulkDurationResult, BulkItemResult, Target } from "./schemas.ts";

/** Files measured at once. */
export const BULK_CONCURRENCY = 16;

/** Runs `work` over `items` with at most `limit` in flight, keeping results in input order. */
export const mapBounded = async <T, R>(
  items: T[],
  limit: number,
  work: (item: T, i: number) => Promise<R>,
) => {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
};

export const bulkDuration = async (
  ctx: CallerCtx,
  { kind, files }: { kind: "video" | "audio"; files: Target[] },
): Promise<BulkDurationResult> => {
  const { bulkDurationMax: max, displayName: plan } = await planOf(ctx, ctx.caller.userId);
  if (files.length > max) {
    throw new ValidationFailed(
      [
        {
          field: "files",
          message: `At most ${max} files per request on the ${plan} plan (got ${files.length})`,
          code: "TOO_MANY_FILES",
        },
      ],
      "Too many files",
    );
  }
  await spendTokens(ctx, {
    userId: ctx.caller.userId,
    amount: files.length,
    note: `bulk ${kind} duration: ${files.length} files`,
  });
  const rows = await filesByStoragePath(
    ctx,
    files.flatMap((f) => ("path" in f ? [f.path] : [])),
  );
  const results = await mapBounded(files, BULK_CONCURRENCY, async (target): Promise<BulkItemResult> => {
    const originalPath = "path" in target ? target.path : target.url;
    try {
      let us: number;
      if ("url" in target) us = await urlDurationUs(ctx, target.url);
      else {
        const row = rows.get(target.path);
        if (!row) throw new NotFound("File");
        us = await storedDurationUs(ctx, row);
      }
      return { success: true, ...toResult(us, target) };
    } catch (e) {
      if (!(e instanceof DomainError))
        console.error(
          JSON.stringify({ level: "error", msg: "bulk duration", originalPath, error: String(e) }),
        );
      const error =
        e instanceof ValidationFailed
          ? (e.errors[0]?.message ?? e.message)
          : e instanceof DomainError
            ? e.message
            : "Internal error";
      return { success: false, error, originalPath };
    }
  });
  const ok = results.filter((r): r is Extract<BulkItemResult, { success: true }> => r.success);
  const totalDurationMs = ok.reduce((sum, r) => sum + r.durationMs, 0);
  return {
    results,
    summary: {
      total: results.length,
      successful: ok.length,
      failed: results.length - ok.length,
      totalDurationMs,
      totalDurationFormatted: formatDuration(totalDurationMs, true),
    },
  };
};
