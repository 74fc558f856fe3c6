/**
 * Turns an ingested stream into a media file: validates it (content type, name, category), reads its
 * width/height/duration (images from their header, video and audio with the renderer's ffprobe) and inserts
 * the row. A file that fails validation is removed from R2: no object without its row, no row without its object.
 */
import { readImageHeader } from "@media-render/contract/media/image-header";
import type { Ctx } from "../context.ts";
import { mediaFiles, type FileCategory } from "../db/schema.ts";
import { UnprocessableMedia, UpstreamFailure, ValidationFailed } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { storageUrlFor } from "../storage/paths.ts";
import type { Ingested } from "./ingest.ts";
import { expiryAt, MAX_UPLOAD_BYTES } from "./retention.ts";
import type { Sniffed } from "./sniff.ts";
import { validationOf } from "./validation.ts";

export type FileRow = typeof mediaFiles.$inferSelect;

/** A fresh id and the storage key a file of `kind` will get. */
export const newFileSlot = (userId: string, at: number) => {
  const id = newId();
  return {
    id,
    at,
    keyFor: (kind: Sniffed) => storageUrlFor(kind.category, userId, id, kind.ext, at).slice(1),
  };
};

const readMetadata = async (ctx: Ctx, ingested: Ingested, kind: Sniffed, key: string, name: string) => {
  if (kind.category === "image") {
    // Display size (EXIF orientation applied), as browsers and the renderers draw the picture.
    const size = readImageHeader(ingested.head);
    return { width: size?.width ?? null, height: size?.height ?? null, duration: null };
  }
  if (kind.category !== "video" && kind.category !== "audio")
    return { width: null, height: null, duration: null };
  const object = await ctx.env.FILES.get(key);
  if (!object) throw new UpstreamFailure("The stored file vanished before it could be probed");
  try {
    const probe = await ctx.renderer.probe(object.body, object.size, name);
    return { width: probe.width, height: probe.height, duration: probe.duration };
  } catch (e) {
    if (e instanceof UnprocessableMedia)
      throw new UnprocessableMedia(`The ${kind.category} file cannot be read: ${e.message}`);
    if (!(e instanceof UpstreamFailure)) throw e;
    // The file itself is fine; its metadata can be read later (the duration tools do). Keep it.
    console.warn(JSON.stringify({ level: "warn", msg: "probe failed", key, error: e.message }));
    return { width: null, height: null, duration: null };
  }
};

/**
 * Largest pictures accepted (issue: a small, very compressible 20000x20000 PNG made decoders allocate gigabytes).
 * A picture or a video frame past them is refused at upload; the renderers then never meet one.
 */
export const MAX_IMAGE_PIXELS = 100_000_000;
export const MAX_VIDEO_FRAME_PIXELS = 8192 * 4320;

const refuseTooManyPixels = (kind: Sniffed, meta: { width: number | null; height: number | null }) => {
  if (meta.width === null || meta.height === null) return;
  const pixels = meta.width * meta.height;
  const max = kind.category === "video" ? MAX_VIDEO_FRAME_PIXELS : MAX_IMAGE_PIXELS;
  if (pixels > max)
    throw new ValidationFailed(
      [
        {
          field: "file",
          message: `The ${kind.category === "video" ? "video's frames are" : "picture is"} ${meta.width}x${meta.height} (${Math.round(pixels / 1e6)} megapixels); at most ${max / 1e6} megapixels are accepted`,
          code: "TOO_MANY_PIXELS",
        },
      ],
      "File validation failed",
    );
};

export interface FinalizeInput {
  userId: string;
  slot: { id: string; at: number };
  ingested: Ingested;
  name: string;
  declaredCategory?: string;
  expected?: FileCategory;
  ttlHours?: number;
  source: "upload" | "url";
  sourceUrl?: string;
}

export const finalizeFile = async (ctx: Ctx, input: FinalizeInput): Promise<FileRow> => {
  const { ingested, slot } = input;
  const key = ingested.stored?.key ?? null;
  try {
    const validationResult = validationOf({
      name: input.name,
      size: ingested.size,
      kind: ingested.kind,
      declaredCategory: input.declaredCategory,
      expected: input.expected,
      maxBytes: MAX_UPLOAD_BYTES,
    });
    const kind = ingested.kind;
    if (!validationResult.isValid || !kind || !key) {
      throw new ValidationFailed(
        validationResult.errors.map((message) => ({ field: "file", message, code: "INVALID_FILE" })),
        "File validation failed",
      );
    }
    const meta = await readMetadata(ctx, ingested, kind, key, input.name);
    refuseTooManyPixels(kind, meta);
    const storageUrl = `/${key}`;
    const row: FileRow = {
      id: slot.id,
      userId: input.userId,
      filename: storageUrl.split("/").pop()!,
      originalName: input.name,
      mimeType: kind.mimeType,
      size: ingested.size,
      ...meta,
      storageKey: key,
      storageUrl,
      category: kind.category,
      metadata: { category: kind.category, validationResult },
      source: input.source,
      jobId: null,
      sourceUrl: input.sourceUrl ?? null,
      expiresAt: expiryAt(slot.at, input.ttlHours),
      createdAt: slot.at,
      updatedAt: slot.at,
    };
    await ctx.db.insert(mediaFiles).values(row).run();
    return row;
  } catch (e) {
    if (key) await ctx.env.FILES.delete(key).catch(() => undefined);
    throw e;
  }
};
