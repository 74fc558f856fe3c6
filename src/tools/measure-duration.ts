/**
 * Duration of one stored file or public URL. A stored file's duration was measured when it was uploaded (the row's
 * `duration`); otherwise the container parsers of src/media answer in-process for
 * mp4/m4a/mov, mp3, webm/mkv, wav and flac; anything else (and any file they cannot vouch for) goes to the
 * renderer's ffprobe, so the answer always equals ffprobe's format.duration.
 */
import type { CallerCtx, Ctx } from "../context.ts";
import { filesByStoragePath } from "../files/lookup.ts";
import type { FileRow } from "../files/store-file.ts";
import { NotFound, UnprocessableMedia } from "../lib/errors.ts";
import { bufferSource, r2Source } from "../media/byte-source.ts";
import { readDurationUs } from "../media/duration.ts";
import { formatDuration } from "../media/format-duration.ts";
import { readBody, safeFetch } from "../net/safe-fetch.ts";
import type { DurationResult, Target } from "./schemas.ts";

/** Largest remote file the URL variant downloads (it is read into memory, never stored). */
export const MAX_URL_BYTES = 50 * 1024 * 1024;

const fromProbe = async (
  ctx: Ctx,
  body: ReadableStream | ArrayBuffer,
  size: number,
  name: string,
): Promise<number> => {
  const probe = await ctx.renderer.probe(body, size, name);
  if (probe.duration === null || !(probe.duration > 0))
    throw new UnprocessableMedia("The file has no duration (not a video or audio file)");
  return Math.round(probe.duration * 1_000_000);
};

/** Microseconds of a stored file (the row must already be the caller's). */
export const storedDurationUs = async (ctx: Ctx, row: FileRow): Promise<number> => {
  const bucket = ctx.env.FILES;
  if (row.category !== "video" && row.category !== "audio")
    throw new UnprocessableMedia(
      `${row.storageUrl} is ${row.category === "image" ? "an" : "a"} ${row.category} file, not video or audio`,
    );
  // Measured at upload (the renderer's probe: ffprobe's format.duration, in seconds to the microsecond) and
  // immutable with the file: no read at all. Files whose probe failed then are read now.
  if (row.duration !== null && row.duration > 0) return Math.round(row.duration * 1_000_000);
  const us = await readDurationUs(r2Source(bucket, row.storageKey, row.size));
  if (us !== null) return us;
  const object = await bucket.get(row.storageKey);
  if (!object) throw new NotFound("File");
  return fromProbe(ctx, object.body, object.size, row.originalName);
};

/** Microseconds of a public URL, downloaded through the SSRF guard into memory. */
export const urlDurationUs = async (
  ctx: Ctx,
  url: string,
  /** Transport stand-in for tests; production uses the global fetch. */
  fetcher?: (request: Request) => Promise<Response>,
): Promise<number> => {
  const bytes = await readBody(await safeFetch(url, { maxBytes: MAX_URL_BYTES, fetcher }));
  if (bytes.byteLength === 0) throw new UnprocessableMedia("The remote file is empty");
  const us = await readDurationUs(bufferSource(bytes));
  if (us !== null) return us;
  const name = decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "") || "remote";
  return fromProbe(ctx, bytes.slice().buffer as ArrayBuffer, bytes.byteLength, name);
};

export const toResult = (us: number, target: Target): DurationResult => {
  const durationMs = Math.round(us / 1000);
  return "path" in target
    ? {
        durationMs,
        durationFormatted: formatDuration(durationMs),
        source: "storage",
        originalPath: target.path,
      }
    : { durationMs, durationFormatted: formatDuration(durationMs), source: "url", originalPath: target.url };
};

/** The single-file tool: 404 for an unknown path, 422 for a file without a readable duration. */
export const measureDuration = async (ctx: CallerCtx, target: Target): Promise<DurationResult> => {
  if ("url" in target) return toResult(await urlDurationUs(ctx, target.url), target);
  const row = (await filesByStoragePath(ctx, [target.path])).get(target.path);
  if (!row) throw new NotFound("File");
  return toResult(await storedDurationUs(ctx, row), target);
};
