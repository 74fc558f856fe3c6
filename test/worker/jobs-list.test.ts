import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { body, FULL, newAccount } from "./helpers.ts";
import { get, seedJob } from "./jobs-seed.ts";

type Item = Record<string, unknown> & { id: string; status: string; type: string };
type Page = {
  jobs: Item[];
  pagination: {
    page: number;
    limit: number;
    totalCount: number;
    totalPages: number;
    hasNextPage: boolean;
    hasPrevPage: boolean;
  };
};

const list = async (key: string, query = "") => {
  const res = await get(`/api/v1/jobs${query}`, key);
  return { status: res.status, b: await body<Page>(res) };
};

/** Five jobs one minute apart: oldest first in `ids`. */
const fiveJobs = async (userId: string) => {
  const t0 = Date.UTC(2026, 0, 10, 12);
  const specs = [
    { status: "COMPLETED", type: "IMAGE", startedAt: t0 + 1, completedAt: t0 + 5 },
    { status: "FAILED", type: "VIDEO", startedAt: t0 + 60_001, completedAt: t0 + 60_002 },
    { status: "PENDING", type: "IMAGE" },
    { status: "PROCESSING", type: "VIDEO", startedAt: t0 + 180_001 },
    { status: "CANCELLED", type: "IMAGE", completedAt: t0 + 240_009 },
  ] as const;
  const ids: string[] = [];
  for (const [i, s] of specs.entries())
    ids.push(await seedJob(userId, { ...s, createdAt: t0 + i * 60_000, updatedAt: t0 + (4 - i) * 60_000 }));
  return ids;
};

describe("GET /api/v1/jobs: happy path", () => {
  it("lists the caller's jobs newest first with the default page of 20 and the list item shape", async () => {
    const { key, userId } = await newAccount();
    const ids = await fiveJobs(userId);
    const { status, b } = await list(key);
    expect(status).toBe(200);
    expect(b.data!.jobs.map((j) => j.id)).toEqual([...ids].reverse());
    expect(b.data!.pagination).toEqual({
      page: 1,
      limit: 20,
      totalCount: 5,
      totalPages: 1,
      hasNextPage: false,
      hasPrevPage: false,
    });
    const item = b.data!.jobs[4]!;
    expect(Object.keys(item)).toEqual(
      expect.arrayContaining([
        "id",
        "type",
        "status",
        "outputFormat",
        "outputFileId",
        "tokensUsed",
        "errorMessage",
        "startedAt",
        "completedAt",
        "createdAt",
        "updatedAt",
      ]),
    );
    // The list item is the job without config, inputFileIds and priority.
    expect(item).not.toHaveProperty("config");
    expect(item).not.toHaveProperty("inputFileIds");
    expect(item).not.toHaveProperty("priority");
    expect(item.createdAt).toBe(new Date(Date.UTC(2026, 0, 10, 12)).toISOString());
  });

  it("pages: limit 2 gives 3 pages with next/prev flags", async () => {
    const { key, userId } = await newAccount();
    const ids = await fiveJobs(userId);
    const p2 = (await list(key, "?page=2&limit=2")).b.data!;
    expect(p2.jobs.map((j) => j.id)).toEqual([ids[2], ids[1]]);
    expect(p2.pagination).toEqual({
      page: 2,
      limit: 2,
      totalCount: 5,
      totalPages: 3,
      hasNextPage: true,
      hasPrevPage: true,
    });
    const p3 = (await list(key, "?page=3&limit=2")).b.data!;
    expect(p3.jobs.map((j) => j.id)).toEqual([ids[0]]);
    expect(p3.pagination.hasNextPage).toBe(false);
    const beyond = (await list(key, "?page=9&limit=2")).b.data!;
    expect(beyond.jobs).toEqual([]);
    expect(beyond.pagination).toMatchObject({
      page: 9,
      totalCount: 5,
      hasNextPage: false,
      hasPrevPage: true,
    });
  });

  it("filters by status and type (either letter case)", async () => {
    const { key, userId } = await newAccount();
    const ids = await fiveJobs(userId);
    expect((await list(key, "?status=FAILED")).b.data!.jobs.map((j) => j.id)).toEqual([ids[1]]);
    expect((await list(key, "?type=VIDEO")).b.data!.jobs.map((j) => j.id)).toEqual([ids[3], ids[1]]);
    expect((await list(key, "?type=image&status=pending")).b.data!.jobs.map((j) => j.id)).toEqual([ids[2]]);
    const none = (await list(key, "?type=VIDEO&status=COMPLETED")).b.data!;
    expect(none.jobs).toEqual([]);
    expect(none.pagination).toMatchObject({ totalCount: 0, totalPages: 0, hasNextPage: false });
  });

  it("sorts by each allowed column and order; never-started jobs sort last", async () => {
    const { key, userId } = await newAccount();
    const ids = await fiveJobs(userId);
    const order = async (q: string) => (await list(key, q)).b.data!.jobs.map((j) => j.id);
    expect(await order("?sortOrder=asc")).toEqual(ids);
    expect(await order("?sortBy=updatedAt&sortOrder=asc")).toEqual([...ids].reverse());
    expect(await order("?sortBy=startedAt&sortOrder=desc")).toEqual([
      ids[3],
      ids[1],
      ids[0],
      ...[ids[4], ids[2]].sort().reverse(),
    ]);
    expect((await order("?sortBy=startedAt&sortOrder=asc")).slice(0, 3)).toEqual([ids[0], ids[1], ids[3]]);
    expect((await order("?sortBy=completedAt&sortOrder=asc")).slice(0, 3)).toEqual([ids[0], ids[1], ids[4]]);
  });

  it("accepts a read-only key", async () => {
    const { key } = await newAccount({ permissions: [{ resource: "jobs", action: "read" }] });
    expect((await list(key)).status).toBe(200);
  });
});

describe("GET /api/v1/jobs: errors", () => {
  it.each([
    ["?page=0", "page"],
    ["?page=-1", "page"],
    ["?page=abc", "page"],
    ["?page=1.5", "page"],
    ["?limit=0", "limit"],
    ["?limit=101", "limit"],
    ["?limit=", "limit"],
    ["?status=DONE", "status"],
    ["?type=GIF", "type"],
    ["?sortBy=priority", "sortBy"],
    ["?sortBy=createdat", "sortBy"],
    ["?sortOrder=up", "sortOrder"],
  ])("answers 400 naming the parameter for %s", async (query, field) => {
    const { key } = await newAccount();
    const { status, b } = await list(key, query);
    expect(status).toBe(400);
    expect(b.success).toBe(false);
    expect(b.details?.errors?.[0]).toMatchObject({ field, code: "VALIDATION_ERROR" });
    expect(b.details!.errors![0]!.message).toContain(field);
  });

  it("answers 401 without a key", async () => {
    const res = await get("/api/v1/jobs");
    expect(res.status).toBe(401);
    expect(await body(res)).toEqual({ success: false, error: "Unauthorized" });
  });
});

describe("GET /api/v1/jobs: security", () => {
  it("never shows another account's jobs, whatever the filters", async () => {
    const a = await newAccount();
    const b = await newAccount();
    await fiveJobs(a.userId);
    const res = await list(b.key, "?limit=100");
    expect(res.b.data!.jobs).toEqual([]);
    expect(res.b.data!.pagination.totalCount).toBe(0);
  });

  it("answers 403 for a key without the jobs permission", async () => {
    const { key } = await newAccount({ permissions: FULL.filter((p) => p.resource === "media") });
    const res = await get("/api/v1/jobs", key);
    expect(res.status).toBe(403);
    expect(await body(res)).toEqual({ success: false, error: "Insufficient permissions" });
  });
});

describe("GET /api/v1/jobs?search=", () => {
  const setRow = (id: string, column: "config" | "error_message", value: string) =>
    env.DB.prepare(`UPDATE jobs SET ${column} = ?1 WHERE id = ?2`).bind(value, id).run();

  it("keeps the jobs whose id, config or error message contains the text, ASCII case aside", async () => {
    const { key, userId } = await newAccount();
    const [a, b, c] = [await seedJob(userId), await seedJob(userId), await seedJob(userId)];
    await seedJob(userId);
    await setRow(
      a!,
      "config",
      JSON.stringify({ width: 10, layers: [{ type: "text", text: "Summer Sale" }] }),
    );
    await setRow(b!, "error_message", "Font summer-x not found");
    const ids = async (q: string) =>
      (await list(key, `?search=${encodeURIComponent(q)}`)).b.data!.jobs.map((j) => j.id);
    expect(new Set(await ids("SUMMER"))).toEqual(new Set([a, b]));
    expect(await ids(c!.slice(4, 14))).toEqual([c]);
    expect(await ids("  Summer Sale  ")).toEqual([a]);
    expect((await list(key, "?search=summer&status=completed&limit=1")).b.data!.pagination.totalCount).toBe(
      2,
    );
    expect(await ids("nothing-like-this")).toEqual([]);
  });

  it("takes LIKE's wildcards literally", async () => {
    const { key, userId } = await newAccount();
    const [pct, plain] = [await seedJob(userId), await seedJob(userId)];
    await setRow(pct!, "config", JSON.stringify({ note: "50% off_now" }));
    await setRow(plain!, "config", JSON.stringify({ note: "500 offXnow" }));
    const ids = async (q: string) =>
      (await list(key, `?search=${encodeURIComponent(q)}`)).b.data!.jobs.map((j) => j.id);
    expect(await ids("0% off")).toEqual([pct]);
    expect(await ids("f_n")).toEqual([pct]);
    expect(await ids("%")).toEqual([pct]);
  });

  it("never finds another account's jobs, and refuses a search over 100 characters", async () => {
    const mine = await newAccount();
    const theirs = await newAccount();
    const id = await seedJob(theirs.userId);
    expect((await list(mine.key, `?search=${id}`)).b.data!.jobs).toEqual([]);
    const long = await list(mine.key, `?search=${"x".repeat(101)}`);
    expect(long.status).toBe(400);
    expect(long.b).toMatchObject({
      details: { errors: [{ field: "search", message: "search must be at most 100 characters" }] },
    });
  });
});
