/**
 * POST /api/v1/files/upload: a multipart form with `file` and optional `category` and `ttlHours`, streamed
 * into R2 (never buffered whole), sniffed, validated, measured and recorded. Nothing is kept on failure.
 */
import * as v from "valibot";
import type { Env } from "../env";
import { parseOrThrow } from "../lib/validate";
import { MAX_TTL_HOURS, MAX_UPLOAD_BYTES } from "./retention";
import { finalizeFile, newFileSlot, type FileRow } from "./store-file";
import { readUploadForm } from "./upload-form";

const UploadFields = v.object({
  category: v.optional(
    v.picklist(["image", "video", "audio", "font"], "category must be image, video, audio or font"),
  ),
  ttlHours: v.optional(
    v.pipe(
      v.string(),
      v.toNumber("ttlHours must be a number"),
      v.integer("ttlHours must be a whole number of hours"),
      v.minValue(1, "ttlHours must be at least 1"),
      v.maxValue(MAX_TTL_HOURS, `ttlHours must be at most ${MAX_TTL_HOURS}`),
    ),
  ),
});

export const uploadFile = async ({
  env,
  userId,
  body,
  boundary,
  maxBytes = MAX_UPLOAD_BYTES,
}: {
  env: Env;
  userId: string;
  body: ReadableStream<Uint8Array>;
  boundary: string;
  /** Only tests lower it. */
  maxBytes?: number;
}): Promise<FileRow> => {
  const slot = newFileSlot(userId);
  const form = await readUploadForm(body, boundary, {
    maxBytes,
    store: { bucket: env.FILES, keyFor: slot.keyFor },
  });
  let fields: v.InferOutput<typeof UploadFields>;
  try {
    fields = parseOrThrow(UploadFields, form.fields);
  } catch (e) {
    if (form.file.ingested.stored) await env.FILES.delete(form.file.ingested.stored.key);
    throw e;
  }
  return finalizeFile({
    env,
    userId,
    slot,
    ingested: form.file.ingested,
    name: form.file.name,
    declaredCategory: fields.category,
    ttlHours: fields.ttlHours,
    source: "upload",
  });
};
