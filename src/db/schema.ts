/**
 * D1 schema (drizzle). Dates are epoch milliseconds. Every owned table carries `user_id`, and every
 * query of an owned table filters by it: another account's row is a 404, never a 403.
 * Each index names the query it serves. Migrations: `npm run db:generate` (drizzle-kit), committed.
 */
export * from "./tables/accounts";
export * from "./tables/auth";
export * from "./tables/billing";
export * from "./tables/files";
export * from "./tables/jobs";
export * from "./tables/rate-limits";
export * from "./tables/webhooks";
export * from "./tables/templates";
