/**
 * POST /api/v1/files/upload: a multipart form with `file` and optional `category` and `ttlHours`, streamed
 * into R2 (never buffered whole), sniffed, validated, measured and recorded. Nothing is kept on failure.
 */
import * as v from "valibot";
import type { CallerCtx } from "../context.ts";
import { sha256Hex } from "@media-render/contract/crypto";
import { parseOrThrow } from "../lib/validate.ts";
import { MAX_TTL_HOURS, MAX_UPLOAD_BYTES } from "./retention.ts";
import { finalizeFile, newFileSlot, type FileRow } from "./store-file.ts";
import { readUploadForm, type UploadForm } from "./upload-form.ts";

const UploadFields = v.object({
  category: v.optional(
    v.picklist(
      ["image", "video", "audio", "font", "shader", "captions"],
      "category must be image, video, audio, font, shader or captions",
    ),
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

/** What identifies an upload for Idempotency-Key: the file's bytes, its name and the form's fields. */
const fingerprintOf = (form: UploadForm) =>
  sha256Hex(JSON.stringify([form.file.name, form.file.ingested.sha256, Object.entries(form.fields).sort()]));

/** The fingerprint of a retried upload, read without storing anything (to compare with the first one's). */
export const uploadFingerprint = async (
  body: ReadableStream<Uint8Array>,
  boundary: string,
): Promise<string> =>
  fingerprintOf(await readUploadForm(body, boundary, { maxBytes: MAX_UPLOAD_BYTES, digest: true }));

export const uploadFile = async (
  ctx: CallerCtx,
  {
    body,
    boundary,
    maxBytes = MAX_UPLOAD_BYTES,
  }: {
    body: ReadableStream<Uint8Array>;
    boundary: string;
    /** Only tests lower it. */
    maxBytes?: number;
  },
): Promise<{ row: FileRow; fingerprint: string }> => {
  const { env } = ctx;
  const userId = ctx.caller.userId;
  const slot = newFileSlot(userId, ctx.now());
  const form = await readUploadForm(body, boundary, {
    maxBytes,
    store: { bucket: env.FILES, keyFor: slot.keyFor },
    digest: true,
  });
  let fields: v.InferOutput<typeof UploadFields>;
  try {
    fields = parseOrThrow(UploadFields, form.fields);
  } catch (e) {
    if (form.file.ingested.stored) await env.FILES.delete(form.file.ingested.stored.key);
    throw e;
  }
  const row = await finalizeFile(ctx, {
    userId,
    slot,
    ingested: form.file.ingested,
    name: form.file.name,
    declaredCategory: fields.category,
    ttlHours: fields.ttlHours,
    source: "upload",
  });
  return { row, fingerprint: await fingerprintOf(form) };
};
