/**
 * Posters and thumbnails (config `poster`, `thumbnails`): image outputs the renderer stores beside the video at
 * paths fixed by the job id (`<jobId>.poster.png`, `<jobId>.thumb-001.jpg`..., `<jobId>.thumbnails.jpg` and its
 * `.vtt`). A completed job records each as a media_files row (source "output", owned by the job's account,
 * expiring with the video; idempotent on the storage URL) and the job's answer lists them (`frames`), like captions.
 */
import { and, gt, lt } from "drizzle-orm";
import { THUMBNAILS_MAX_COUNT } from "@media-render/contract/config/limits";
import { FRAME_DEFAULTS, thumbnailTimes } from "@media-render/contract/config/outputs";
import { fileExtension, type FormatFor } from "@media-render/contract/output-formats";
import type { Ctx } from "../context.ts";
import { mediaFiles, type jobs } from "../db/schema.ts";
import { downloadPath } from "../paths.ts";
import { keyOf } from "../storage/paths.ts";
import { outputRow } from "./output.ts";
import type { Frames } from "./schemas.ts";
import { storedVideoConfig } from "./stored-config.ts";

type JobRow = typeof jobs.$inferSelect;
type FrameKind = "poster" | "thumbnail" | "sprite" | "sprite-vtt";

/** One file a job's frames config asks for. */
export interface FrameFile {
  kind: FrameKind;
  /** The suffix after the job id, e.g. `.thumb-003.jpg`. */
  suffix: string;
  ext: string;
  /** Seconds into the video (poster, thumbnails). */
  time?: number;
}

interface FramesConfig {
  poster?: { time: number; format?: FormatFor<"frame"> };
  thumbnails?: { count?: number; interval?: number; format?: FormatFor<"frame">; sprite?: boolean };
}

/** The files of `config`'s poster and thumbnails for a video of `duration` s, in listing order. */
export const frameFiles = (config: FramesConfig, duration: number): FrameFile[] => {
  const out: FrameFile[] = [];
  const { poster, thumbnails } = config;
  if (poster) {
    const ext = fileExtension(poster.format ?? FRAME_DEFAULTS.poster);
    out.push({ kind: "poster", suffix: `.poster.${ext}`, ext, time: poster.time });
  }
  if (thumbnails) {
    const ext = fileExtension(thumbnails.format ?? FRAME_DEFAULTS.thumbnails);
    thumbnailTimes(thumbnails, duration).forEach((time, i) =>
      out.push({ kind: "thumbnail", suffix: `.thumb-${String(i + 1).padStart(3, "0")}.${ext}`, ext, time }),
    );
    if (thumbnails.sprite) {
      out.push({ kind: "sprite", suffix: `.thumbnails.${ext}`, ext });
      out.push({ kind: "sprite-vtt", suffix: ".thumbnails.vtt", ext: "vtt" });
    }
  }
  return out;
};

/** `/output/<YYYY-MM-DD of creation>/<userId>/<jobId><suffix>`, beside the video. */
export const frameStorageUrl = (job: Pick<JobRow, "id" | "userId" | "createdAt">, suffix: string): string =>
  `/output/${new Date(job.createdAt).toISOString().slice(0, 10)}/${job.userId}/${job.id}${suffix}`;

/** The frames a job's config asks for; null when none (or the job is an image). */
const framesOf = (job: JobRow): FramesConfig | null => {
  if (job.type !== "VIDEO") return null;
  const { poster, thumbnails } = storedVideoConfig(job);
  return poster !== undefined || thumbnails !== undefined ? { poster, thumbnails } : null;
};

/** Records the frame files the renderer stored for `job` (those missing in storage are skipped). */
export const recordFrameOutputs = async (ctx: Ctx, job: JobRow, duration: number): Promise<void> => {
  const frames = framesOf(job);
  if (!frames) return;
  const rows = [];
  for (const file of frameFiles(frames, duration)) {
    const storageUrl = frameStorageUrl(job, file.suffix);
    const head = await ctx.env.FILES.head(keyOf(storageUrl));
    if (!head) continue;
    const metadata = { frame: { kind: file.kind, ...(file.time !== undefined && { time: file.time }) } };
    const category = file.ext === "vtt" ? "unknown" : "image";
    rows.push(
      outputRow(job, { size: head.size }, ctx.now(), { storageUrl, ext: file.ext, category, metadata }),
    );
  }
  // D1 binds at most 100 parameters a statement: one row at a time.
  for (const row of rows)
    await ctx.db.insert(mediaFiles).values(row).onConflictDoNothing({ target: mediaFiles.storageUrl }).run();
};

/** Every storage key a job's frames may use (for deleting the files of a render that finished too late). */
export const frameKeys = (job: JobRow): string[] => {
  const config = framesOf(job);
  if (!config) return [];
  // The most thumbnails any length could give: the count, or the cap.
  const most = config.thumbnails && {
    ...config.thumbnails,
    interval: undefined,
    count: config.thumbnails.count ?? THUMBNAILS_MAX_COUNT,
  };
  return frameFiles({ ...config, thumbnails: most }, 1).map((f) => keyOf(frameStorageUrl(job, f.suffix)));
};

/**
 * The `frames` block of a job's answer: null unless the config asked for a poster or thumbnails; once completed,
 * each stored file with its kind, time, id and download path.
 */
export const framesOfJob = async (ctx: Ctx, job: JobRow): Promise<Frames | null> => {
  if (!framesOf(job)) return null;
  if (job.status !== "COMPLETED") return { status: "pending", files: [] };
  // A range over media_files_storage_url_unique: every file named `<jobId>.*` beside the video.
  const base = frameStorageUrl(job, ".");
  const rows = await ctx.db.query.mediaFiles.findMany({
    where: and(gt(mediaFiles.storageUrl, base), lt(mediaFiles.storageUrl, `${base}\uffff`)),
  });
  const files = rows
    .flatMap((row) => {
      const frame = row.metadata.frame as { kind: FrameKind; time?: number } | undefined;
      if (!frame) return [];
      return [
        {
          kind: frame.kind,
          time: frame.time ?? null,
          fileId: row.id,
          mimeType: row.mimeType,
          size: row.size,
          downloadUrl: downloadPath(row.id),
          name: row.storageUrl.slice(base.length - 1),
        },
      ];
    })
    // By name: the poster, the thumbnails in order (`.thumb-001`...), the sprite, its WebVTT.
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  return { status: "done", files: files.map(({ name: _name, ...f }) => f) };
};
