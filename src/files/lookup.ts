/** Fetch-or-throw helpers of the files domain. Every lookup is scoped to the owner. */
import { and, eq, inArray } from "drizzle-orm";
import type { CallerCtx, Ctx } from "../context.ts";
import { mediaFiles } from "../db/schema.ts";
import { Gone, NotFound } from "../lib/errors.ts";
import { iso } from "../lib/time.ts";
import type { FileRow } from "./store-file.ts";

/**
 * The file `id` of `userId` (null: of any account, for a signed link whose issuer owned it). A file past its
 * `expiresAt` (the cron has not swept it yet) and a deleted file that was a job's output answer 410 Gone with a
 * reason; anything else unknown is a 404.
 */
/**
 * The caller's files by storage path (uploads referenced in configs and tool requests), in one query per 90
 * paths: D1 caps the bound parameters of a statement at 100.
 */
export const filesByStoragePath = async (
  ctx: CallerCtx,
  paths: readonly string[],
): Promise<Map<string, FileRow>> => {
  const unique = [...new Set(paths)];
  const rows: FileRow[] = [];
  for (let i = 0; i < unique.length; i += 90) {
    rows.push(
      ...(await ctx.db.query.mediaFiles.findMany({
        where: and(
          eq(mediaFiles.userId, ctx.caller.userId),
          inArray(mediaFiles.storageUrl, unique.slice(i, i + 90)),
        ),
      })),
    );
  }
  return new Map(rows.map((r) => [r.storageUrl, r]));
};

/** The caller's own file `id` (see findFile). */
export const getOwnFile = (ctx: CallerCtx, id: string): Promise<FileRow> =>
  findFile(ctx, id, ctx.caller.userId);

export const findFile = async (ctx: Ctx, id: string, userId: string | null): Promise<FileRow> => {
  const at = ctx.now();
  const row = await ctx.db.query.mediaFiles.findFirst({
    where:
      userId === null ? eq(mediaFiles.id, id) : and(eq(mediaFiles.id, id), eq(mediaFiles.userId, userId)),
  });
  if (row && (row.expiresAt === null || row.expiresAt > at)) return row;
  if (row) throw new Gone(`File ${id} expired at ${iso(row.expiresAt)} and is being deleted`);
  const job = await ctx.d1
    .prepare(
      `SELECT id FROM jobs WHERE output_file_id = ?1 ${userId === null ? "" : "AND user_id = ?2"} LIMIT 1`,
    )
    .bind(...(userId === null ? [id] : [id, userId]))
    .first<{ id: string }>();
  if (job)
    throw new Gone(
      `The output of job ${job.id} is no longer stored (it expired or was deleted); create the job again to render it anew`,
    );
  throw new NotFound("File");
};
