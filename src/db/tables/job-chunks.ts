/** Chunks of a video job rendered in parallel (docs/parallel-rendering.md, src/jobs/chunks.ts). */
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { updatedAt } from "./columns.ts";
import { jobs } from "./jobs.ts";

export const CHUNK_STATUSES = ["PENDING", "RENDERING", "DONE", "JOINED"] as const;
export type ChunkStatus = (typeof CHUNK_STATUSES)[number];

export const jobChunks = sqliteTable(
  "job_chunks",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    /** 0 .. count - 1: the chunk's frames are chunk `idx` of `count` of the timeline's (the renderer's chunkWindow). */
    idx: integer("idx").notNull(),
    count: integer("count").notNull(),
    /** PENDING (waiting for a renderer), RENDERING (handed over), DONE (segment stored), JOINED (join handed over). */
    status: text("status", { enum: CHUNK_STATUSES }).notNull(),
    /** Hand-overs of this chunk (its reports echo the latest; older ones change nothing). */
    attempts: integer("attempts").notNull().default(0),
    /** The pool instance holding the latest hand-over (told to cancel it when its lease lapses). */
    instance: text("instance"),
    percent: integer("percent").notNull().default(0),
    /**
     * Renderer time of every hand-over of the chunk: each render's own report of it (finished, or failed by the
     * infrastructure), a silent one's wall time from its hand-over to its lease lapsing. It counts in the job's
     * `render_ms`, and in its `failed_render_ms` when the job fails by its own fault.
     */
    renderMs: integer("render_ms").notNull().default(0),
    /** When the latest hand-over was accepted (its time counts if it goes silent). */
    startedAt: integer("started_at"),
    /** The chunk's lease: every report of its renderer moves it (src/queues/dispatch-chunks.ts watches it). */
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.jobId, table.idx] })],
);
