/**
 * GET /api/v2/batches/{id}/output and /manifest. The ZIP is built while it streams (client-zip: each entry is
 * pulled from R2 only when the archive reaches it, stored without recompression, CRC computed on the fly), so
 * the Worker holds one chunk at a time whatever the batch's size. Entries are named by the batch's name column
 * (else `row-<n>`), made safe for file systems and unique. Outputs expire like any job output: expired ones are
 * left out, and a batch with none left answers 410.
 */
import { downloadZip } from "client-zip";
import type { CallerCtx } from "../context.ts";
import type { JobStatus } from "../db/schema.ts";
import { Conflict, Gone } from "../lib/errors.ts";
import { visibleFileName } from "../lib/file-name.ts";
import { iso } from "../lib/time.ts";
import { getOwnedBatch } from "./lookup.ts";
import type { BatchManifest, ManifestEntry } from "./schemas.ts";

interface OutputRow {
  row: number;
  name: string | null;
  jobId: string;
  status: JobStatus;
  error: string | null;
  fileId: string | null;
  storageKey: string | null;
  filename: string | null;
  expiresAt: number | null;
  createdAt: number | null;
}

const outputs = async (ctx: CallerCtx, batchId: string) =>
  (
    await ctx.d1
      .prepare(
        `SELECT j.batch_row AS row, j.batch_name AS name, j.id AS jobId, j.status, j.error_message AS error,
           f.id AS fileId, f.storage_key AS storageKey, f.filename, f.expires_at AS expiresAt, f.created_at AS createdAt
         FROM jobs j LEFT JOIN media_files f ON f.id = j.output_file_id AND f.user_id = j.user_id
         WHERE j.batch_id = ?1 AND j.user_id = ?2 ORDER BY j.batch_row`,
      )
      .bind(batchId, ctx.caller.userId)
      .all<OutputRow>()
  ).results;

/**
 * A name safe in any file system and honest on screen: no separators, control or reserved characters, no
 * bidirectional overrides or other invisible format characters (visibleFileName), no leading dots.
 */
const safe = (name: string) =>
  // 120 characters by code point, so an emoji at the cut is dropped whole rather than halved.
  [
    ...visibleFileName(name.replace(/[/\\:*?"<>|]+/g, "_"))
      .replace(/^[.\s]+/, "")
      .trim(),
  ]
    .slice(0, 120)
    .join("");

/** Entry names of the rows with a live output, unique within the archive. */
const entryNames = (rows: readonly OutputRow[], now: number): Map<number, string> => {
  const names = new Map<number, string>();
  const used = new Set<string>();
  for (const output of rows) {
    if (!isLive(output, now)) continue;
    const ext = output.filename?.split(".").pop() ?? "bin";
    const base = (output.name && safe(output.name)) || `row-${output.row}`;
    let name = `${base}.${ext}`;
    if (used.has(name.toLowerCase())) name = `${base}-row-${output.row}.${ext}`;
    used.add(name.toLowerCase());
    names.set(output.row, name);
  }
  return names;
};

const isLive = (output: OutputRow, now: number) =>
  output.status === "COMPLETED" &&
  output.storageKey !== null &&
  (output.expiresAt === null || output.expiresAt > now);

/** The streamed ZIP of a finished batch's live outputs. */
export const batchZip = async (ctx: CallerCtx, batchId: string): Promise<Response> => {
  const batch = await getOwnedBatch(ctx, batchId);
  if (batch.status === "RUNNING")
    throw new Conflict("The batch is still running; its ZIP is ready when it ends", { status: batch.status });
  const rows = await outputs(ctx, batchId);
  const now = ctx.now();
  const names = entryNames(rows, now);
  if (!names.size) throw new Gone("The batch has no unexpired outputs");
  const files = ctx.env.FILES;
  const entries = async function* () {
    for (const output of rows) {
      const name = names.get(output.row);
      if (!name) continue;
      const object = await files.get(output.storageKey!);
      if (!object) continue; // expired and deleted since the query
      yield { name, input: object.body, size: object.size, lastModified: new Date(output.createdAt ?? now) };
    }
  };
  const zip = downloadZip(entries(), { buffersAreUTF8: true });
  return new Response(zip.body, {
    headers: {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="${batch.id}.zip"`,
      "cache-control": "private, no-store",
    },
  });
};

/** row -> job -> file -> status, rejected rows included. */
export const batchManifest = async (ctx: CallerCtx, batchId: string): Promise<BatchManifest> => {
  const batch = await getOwnedBatch(ctx, batchId);
  const rows = await outputs(ctx, batchId);
  const names = entryNames(rows, ctx.now());
  const entries: ManifestEntry[] = [
    ...rows.map((output) => ({
      row: output.row,
      name: output.name,
      jobId: output.jobId,
      status: output.status,
      fileId: output.fileId,
      zipEntry: names.get(output.row) ?? null,
      error: output.error,
    })),
    ...batch.rejected.map((rejectedRow) => ({
      row: rejectedRow.row,
      name: rejectedRow.name,
      jobId: null,
      status: "REJECTED" as const,
      fileId: null,
      zipEntry: null,
      error: rejectedRow.errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join("; "),
    })),
  ].sort((a, b) => a.row - b.row);
  return { batchId: batch.id, status: batch.status, createdAt: iso(batch.createdAt)!, entries };
};

const COLUMNS = ["row", "name", "jobId", "status", "fileId", "zipEntry", "error"] as const;

/** One CSV cell (RFC 4180 quoting; a leading = + - @ is defused so spreadsheets never run it as a formula). */
const cell = (value: unknown): string => {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

export const manifestCsv = (entries: readonly ManifestEntry[]): string =>
  [COLUMNS.join(","), ...entries.map((e) => COLUMNS.map((c) => cell(e[c])).join(","))].join("\r\n") + "\r\n";
