/** Fetch-or-throw helpers of the files domain. Every lookup is scoped to the owner. */
import { and, eq } from "drizzle-orm";
import { getDb } from "../db/client";
import { mediaFiles } from "../db/schema";
import type { Env } from "../env";
import { Gone, NotFound } from "../lib/errors";
import { iso } from "../lib/time";
import type { FileRow } from "./store-file";

/**
 * The caller's file `id`. A file past its `expiresAt` (the cron has not swept it yet) and a deleted file that
 * was a job's output answer 410 Gone with a reason; anything else unknown is a 404.
 */
export const findOwnFile = async (
  env: Env,
  userId: string | null,
  id: string,
  at = Date.now(),
): Promise<FileRow> => {
  const row = await getDb(env.DB).query.mediaFiles.findFirst({
    where:
      userId === null ? eq(mediaFiles.id, id) : and(eq(mediaFiles.id, id), eq(mediaFiles.userId, userId)),
  });
  if (row && (row.expiresAt === null || row.expiresAt > at)) return row;
  if (row) throw new Gone(`File ${id} expired at ${iso(row.expiresAt)} and is being deleted`);
  const job = await env.DB.prepare(
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
