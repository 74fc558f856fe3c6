/** GET /api/v1/files: the caller's live files, newest first, paginated (the generic `total` shape). */
import { and, count, desc, eq, gt, isNull, or } from "drizzle-orm";
import * as v from "valibot";
import type { CallerCtx } from "../context.ts";
import { queryInt } from "../lib/validate.ts";
import { FILE_CATEGORIES, mediaFiles } from "../db/schema.ts";
import { toMediaFile, type FileList } from "./serialize.ts";

/** The page size when neither `per_page` nor `limit` is given. */
const DEFAULT_PER_PAGE = 20;

/** A page size in the query (no default here: `per_page` and its alias `limit` are told apart below). */
const pageSize = (name: string, description: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.description(description),
      v.toNumber(`${name} must be a number`),
      v.integer(`${name} must be a whole number`),
      v.minValue(1, `${name} must be at least 1`),
      v.maxValue(100, `${name} must be at most 100`),
    ),
  );

/**
 * `per_page` is the spec's page size; `limit` is the name JsonCut's clients send (and the jobs list's), read the
 * same way. Both at once must agree.
 */
export const ListQuery = v.pipe(
  v.object({
    page: queryInt("page", 1, 1_000_000, 1),
    per_page: pageSize("per_page", `Files per page, 1 to 100 (default ${DEFAULT_PER_PAGE})`),
    limit: pageSize("limit", "The same as per_page (JsonCut's name for it)"),
    category: v.optional(
      v.picklist(FILE_CATEGORIES, `category must be one of ${FILE_CATEGORIES.join(", ")}`),
    ),
  }),
  v.forward(
    v.check(
      (q) => q.limit === undefined || q.per_page === undefined || q.limit === q.per_page,
      "limit and per_page name the same page size: give one, or the same value",
    ),
    ["limit"],
  ),
);

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
  const perPage = query.per_page ?? query.limit ?? DEFAULT_PER_PAGE;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(mediaFiles)
      .where(where)
      .orderBy(desc(mediaFiles.createdAt), desc(mediaFiles.id))
      .limit(perPage)
      .offset((query.page - 1) * perPage),
    db.select({ n: count() }).from(mediaFiles).where(where),
  ]);
  return { files: rows.map(toMediaFile), total: total?.n ?? 0, page: query.page, per_page: perPage };
};
