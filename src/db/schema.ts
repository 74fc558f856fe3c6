/**
 * D1 schema (drizzle). Dates are epoch milliseconds. Every owned table carries `user_id`, and every
 * query of an owned table filters by it: another account's row is a 404, never a 403.
 * Each index names the query it serves. Migrations: `npm run db:generate` (drizzle-kit), committed.
 */
export * from "./tables/accounts.ts";
export * from "./tables/auth.ts";
export * from "./tables/billing.ts";
export * from "./tables/files.ts";
export * from "./tables/jobs.ts";
export * from "./tables/rate-limits.ts";
export * from "./tables/webhooks.ts";
export * from "./tables/templates.ts";
export * from "./tables/job-chunks.ts";
export * from "./tables/destinations.ts";
