/**
 * Stores one uploaded file: the type is sniffed from the content (the name and declared type only have to agree
 * with it), the object goes to R2, and width/height/duration are read (images from their header, video and
 * audio with the renderer's ffprobe). A file that fails validation is not stored at all.
 */
import { getDb } from "../db/client";
import { FILE_CATEGORIES, mediaFiles, type FileCategory } from "../db/schema";
import type { Env } from "../env";
import { UnprocessableMedia, UpstreamFailure, ValidationFailed } from "../lib/errors";
import { newId } from "../lib/ids";
import { rendererFor } from "../runner/renderer-client";
import { keyOf, storageUrlFor } from "../storage/paths";
import { imageSize } from "./image-size";
import { nameAgrees, sniff } from "./sniff";

/** Largest upload accepted (bytes). */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
/** Files are deleted after this many hours unless `ttlHours` says otherwise (at most MAX_TTL_HOURS). */
export const DEFAULT_TTL_HOURS = 24;
export const MAX_TTL_HOURS = 720;

export interface UploadInput {
  file: File;
  category?: string;
  ttlHours?: number;
}

export const validateUpload = async (file: File, declaredCategory?: string) => {
  const head = new Uint8Array(await file.slice(0, 65536).arrayBuffer());
  const kind = sniff(head);
  const errors: string[] = [];
  if (file.size === 0) errors.push("File is empty");
  if (file.size > MAX_UPLOAD_BYTES) errors.push(`File is larger than ${MAX_UPLOAD_BYTES} bytes`);
  if (!kind) errors.push("Unsupported or unrecognised file content");
  if (kind && !nameAgrees(file.name, kind))
    errors.push(`File name "${file.name}" does not match its content (${kind.mimeType})`);
  if (declaredCategory && !(FILE_CATEGORIES as readonly string[]).includes(declaredCategory)) {
    errors.push(`Unknown category "${declaredCategory}" (use image, video, audio or font)`);
  } else if (kind && declaredCategory && declaredCategory !== kind.category) {
    errors.push(`Category "${declaredCategory}" does not match the file content (${kind.category})`);
  }
  return {
    kind,
    head,
    validationResult: {
      errors,
      isValid: errors.length === 0,
      fileSize: file.size,
      detectedMimeType: kind?.mimeType ?? "application/octet-stream",
    },
  };
};

export const uploadFile = async ({
  env,
  userId,
  input,
}: {
  env: Env;
  userId: string;
  input: UploadInput;
}) => {
  const { kind, head, validationResult } = await validateUpload(input.file, input.category);
  if (!kind || !validationResult.isValid) {
    throw new ValidationFailed(
      validationResult.errors.map((message) => ({ field: "file", message, code: "INVALID_FILE" })),
      "File validation failed",
    );
  }
  const id = newId();
  const at = Date.now();
  const category = kind.category as FileCategory;
  const storageUrl = storageUrlFor(category, userId, id, kind.ext, at);
  const key = keyOf(storageUrl);
  await env.FILES.put(key, input.file.stream(), { httpMetadata: { contentType: kind.mimeType } });

  let width: number | null = null;
  let height: number | null = null;
  let duration: number | null = null;
  if (category === "image") {
    const size = imageSize(kind.mimeType, head);
    width = size?.width ?? null;
    height = size?.height ?? null;
  } else if (category === "video" || category === "audio") {
    const object = await env.FILES.get(key);
    try {
      const probe = await rendererFor(env).probe(object!.body, object!.size, input.file.name);
      ({ width, height, duration } = probe);
    } catch (e) {
      if (e instanceof UnprocessableMedia) {
        await env.FILES.delete(key);
        throw new UnprocessableMedia(`The ${category} file cannot be read: ${e.message}`);
      }
      if (!(e instanceof UpstreamFailure)) throw e;
      // The file itself is fine; its metadata can be read later. Keep the upload.
      console.warn(JSON.stringify({ level: "warn", msg: "probe failed", fileId: id, error: e.message }));
    }
  }

  const ttlHours = Math.min(input.ttlHours ?? DEFAULT_TTL_HOURS, MAX_TTL_HOURS);
  const row = {
    id,
    userId,
    filename: storageUrl.split("/").pop()!,
    originalName: input.file.name,
    mimeType: kind.mimeType,
    size: input.file.size,
    width,
    height,
    duration,
    storageKey: key,
    storageUrl,
    category,
    metadata: { category, validationResult },
    source: "upload" as const,
    jobId: null,
    sourceUrl: null,
    expiresAt: at + ttlHours * 3600_000,
    createdAt: at,
    updatedAt: at,
  };
  try {
    await getDb(env.DB).insert(mediaFiles).values(row).run();
  } catch (e) {
    await env.FILES.delete(key); // no half state: an object without its row would never expire
    throw e;
  }
  return row;
};
