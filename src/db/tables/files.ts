/** Stored files: uploads, URL imports and job outputs. */
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns.ts";
import { users } from "./accounts.ts";

export const FILE_CATEGORIES = ["image", "video", "audio", "font", "shader", "captions", "unknown"] as const;
export type FileCategory = (typeof FILE_CATEGORIES)[number];

/** Every stored file: uploads, files imported from public URLs for a job, and job outputs. */
export const mediaFiles = sqliteTable(
  "media_files",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    originalName: text("original_name").notNull(),
    mimeType: text("mime_type").notNull(),
    size: integer("size").notNull(),
    width: integer("width"),
    height: integer("height"),
    duration: real("duration"),
    /** Key of the R2 object. */
    storageKey: text("storage_key").notNull(),
    /** Relative path used in job configs, e.g. `/image/2026-11-21/<user>/<file>.png`. */
    storageUrl: text("storage_url").notNull(),
    category: text("category", { enum: FILE_CATEGORIES }).notNull(),
    /** JSON: `{ category, validationResult, ... }` as shown to clients. */
    metadata: text("metadata", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    source: text("source", { enum: ["upload", "url", "output"] }).notNull(),
    /** For outputs: the job that produced the file. For URL imports: the public URL. */
    jobId: text("job_id"),
    sourceUrl: text("source_url"),
    expiresAt: integer("expires_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // File listing, newest first, per owner (optionally by category).
    index("media_files_user_created_idx").on(table.userId, table.createdAt),
    index("media_files_user_category_idx").on(table.userId, table.category),
    // Resolving `path` references in job configs and duration tools.
    uniqueIndex("media_files_storage_url_unique").on(table.storageUrl),
    // The expiry cron scans due rows.
    index("media_files_expires_idx").on(table.expiresAt),
  ],
);
