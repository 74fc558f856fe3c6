/** GET /api/v1/files: the caller's live files, newest first, paginated (the generic `total` shape). */
import { and, count, desc, eq, gt, isNull, or } from "drizzle-orm";
import * as v from "valibot";
import type { CallerCtx } from "../context.ts";
import { queryInt } from "../lib/validate.ts";
import { FILE_CATEGORIES, mediaFiles } from "../db/schema.ts";
import { toMediaFile, type FileList } from "./serialize.ts";

export const ListQuery = v.object({
  page: queryInt("page", 1, 1_000_000, 1),
  per_page: queryInt("per_page", 1, 100, 20),
  category: v.optional(v.picklist(FILE_CATEGORIES, `category must be one of ${FILE_CATEGORIES.join(", ")}`)),
});

export const listFiles = async (
  ctx: CallerCtx,
  query: v.InferOutput<typeof ListQuery>,
): Promise<FileList> => {
  const { db } = ctx;
  // Files past their expiry are gone for the user even before the cron removes them.
  const where = and(
    eq(mediaFiles.userId, ctx.caller.userId),
    or(isNull(mediaFiles.expiresAt), gt(mediaFiles.expiresAt, ctx.now())),
    query.category ? eq(mediaFiles.category, query.category) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(mediaFiles)
      .where(where)
      .orderBy(desc(mediaFiles.createdAt), desc(mediaFiles.id))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page),
    db.select({ n: count() }).from(mediaFiles).where(where),
  ]);
  return { files: rows.map(toMediaFile), total: total?.n ?? 0, page: query.page, per_page: query.per_page };
};
