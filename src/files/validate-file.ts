/**
 * POST /api/v1/files/validate: the same checks as an upload, on the same multipart form, storing nothing;
 * POST /api/v1/files/validate/{image|video|audio} also requires that category.
 * Answers the spec's "File validation result": `validation` and `uploadedFile`.
 */
import type { FileCategory } from "../db/schema.ts";
import { MAX_UPLOAD_BYTES } from "./retention.ts";
import type { FileValidation } from "./serialize.ts";
import { readUploadForm } from "./upload-form.ts";
import { validationOf } from "./validation.ts";

export const validateFile = async ({
  body,
  boundary,
  expected,
}: {
  body: ReadableStream<Uint8Array>;
  boundary: string;
  /** The category the file must be (POST /api/v1/files/validate/{image|video|audio}, JsonCut's routes). */
  expected?: FileCategory;
}): Promise<FileValidation> => {
  // The same bound as uploads: an oversized file is refused with 413 while streaming, like an upload.
  const form = await readUploadForm(body, boundary, { maxBytes: MAX_UPLOAD_BYTES });
  const { ingested, name, declaredType } = form.file;
  const result = validationOf({
    name,
    size: ingested.size,
    kind: ingested.kind,
    declaredCategory: form.fields.category,
    expected,
    maxBytes: MAX_UPLOAD_BYTES,
  });
  return {
    validation: {
      isValid: result.isValid,
      fileSize: result.fileSize,
      fileType: ingested.kind?.ext ?? "unknown",
      detectedMimeType: result.detectedMimeType,
      errors: result.errors,
      category: ingested.kind?.category ?? "unknown",
    },
    uploadedFile: {
      originalName: name,
      mimetype: declaredType ?? "application/octet-stream",
      size: ingested.size,
    },
  };
};
