/**
 * GET /api/v1/jobs: the caller's jobs, filtered and sorted exactly as the spec's query table says.
 * Status and type filters accept any letter case (`image` as created, `IMAGE` as shown); every other
 * value is a 400 naming the parameter. `search` (not in the spec; the console's search box) keeps the jobs whose id,
 * config or error message contains the text, case-insensitively for ASCII: a scan of the caller's own rows (the
 * user_id index narrows it), fine for the thousands of jobs an account keeps, not a full-text index.
 */
import { and, asc, count, desc, eq, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import * as v from "valibot";
import type { CallerCtx } from "../context.ts";
import { JOB_STATUSES, JOB_TYPES, jobs } from "../db/schema.ts";
import type { JobList } from "./schemas.ts";
import { toListItem } from "./serialize.ts";

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_SEARCH_LENGTH = 100;
const SORT_COLUMNS = {
  createdAt: jobs.createdAt,
  updatedAt: jobs.updatedAt,
  startedAt: jobs.startedAt,
  completedAt: jobs.completedAt,
} as const;

/** A page number or size in a query string: a whole number from `min` to `max`, `fallback` when left out. */
export const pageParam = (name: string, min: number, max: number, fallback: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,9}$/, `${name} must be an integer between ${min} and ${max}`),
      v.transform(Number),
      v.minValue(min, `${name} must be an integer between ${min} and ${max}`),
      v.maxValue(max, `${name} must be an integer between ${min} and ${max}`),
    ),
    String(fallback),
  );

const upperPicklist = <T extends string>(name: string, options: readonly T[]) =>
  v.optional(
    v.pipe(
      v.string(),
      v.description(`${options.join(", ")} (any letter case)`),
      v.transform((s) => s.toUpperCase()),
      v.picklist(options, `${name} must be one of ${options.join(", ")}`),
    ),
  );

/** The query string of the job list (all values arrive as strings). */
export const ListJobsQuery = v.object({
  page: pageParam("page", 1, 1_000_000, 1),
  limit: pageParam("limit", 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
  status: upperPicklist("status", JOB_STATUSES),
  type: upperPicklist("type", JOB_TYPES),
  sortBy: v.optional(
    v.picklist(
      Object.keys(SORT_COLUMNS) as (keyof typeof SORT_COLUMNS)[],
      `sortBy must be one of ${Object.keys(SORT_COLUMNS).join(", ")}`,
    ),
    "createdAt",
  ),
  search: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(MAX_SEARCH_LENGTH, `search must be at most ${MAX_SEARCH_LENGTH} characters`),
      v.description("Jobs whose id, config or error message contains this text (ASCII case-insensitive)"),
    ),
  ),
  sortOrder: v.optional(
    v.pipe(
      v.string(),
      v.description("asc or desc (any letter case)"),
      v.transform((s) => s.toLowerCase()),
      v.picklist(["asc", "desc"], "sortOrder must be asc or desc"),
    ),
    "desc",
  ),
});
export type ListJobsQuery = v.InferOutput<typeof ListJobsQuery>;

export const listJobs = async (ctx: CallerCtx, query: ListJobsQuery): Promise<JobList> => {
  const { db } = ctx;
  const filters: SQL[] = [eq(jobs.userId, ctx.caller.userId)];
  if (query.status) filters.push(eq(jobs.status, query.status));
  if (query.type) filters.push(eq(jobs.type, query.type));
  if (query.search) {
    // LIKE's own wildcards in the text match themselves.
    const pattern = `%${query.search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    const contains = (column: AnyColumn) => sql`${column} LIKE ${pattern} ESCAPE '\\'`;
    filters.push(or(contains(jobs.id), contains(jobs.config), contains(jobs.errorMessage))!);
  }
  const where = and(...filters);
  const column = SORT_COLUMNS[query.sortBy];
  const order = query.sortOrder === "asc" ? asc : desc;
  // One D1 round trip for the page and its count.
  const [rows, [total]] = await db.batch([
    db
      .select()
      .from(jobs)
      .where(where)
      // Jobs that never started/completed sort last in both directions; the id breaks ties so pages are stable.
      .orderBy(sql`${column} IS NULL`, order(column), order(jobs.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(jobs).where(where),
  ]);
  const totalCount = total?.n ?? 0;
  const totalPages = Math.ceil(totalCount / query.limit);
  return {
    jobs: rows.map(toListItem),
    pagination: {
      page: query.page,
      limit: query.limit,
      totalCount,
      totalPages,
      hasNextPage: query.page < totalPages,
      hasPrevPage: query.page > 1,
    },
  };
};
