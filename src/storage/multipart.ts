/**
 * Uploads in parts through R2's multipart upload on the FILES binding: start, store a part, complete, abort
 * (src/storage/README.md, "Uploads in parts"). Every part streams into R2 with its exact length (FixedLengthStream),
 * never buffered, and is checked against the layout sealed into the upload id before a byte is read.
 */
import { completionGap, isRefusal, layoutParts, partLength, type Refusal } from "./parts.ts";
import { newNonce, sealUpload, type UploadRef } from "./upload-handle.ts";

/** R2's error codes (the number workerd puts at the end of the message of an R2 binding's error). */
const NO_SUCH_UPLOAD = 10024;
const INVALID_PART = 10025;

const r2Code = (error: unknown): number | null => {
  const match = /\((\d+)\)\s*$/.exec(error instanceof Error ? error.message : "");
  return match ? Number(match[1]) : null;
};

const GONE: Refusal = { status: 404, error: "Upload not found: it was completed or aborted" };

/** Starts an upload of `size` bytes to `key` in parts of `partSize` (the default when absent). */
export const startUpload = async (
  files: R2Bucket,
  secret: string,
  key: string,
  input: { size: number; partSize?: number; contentType: string },
): Promise<Refusal | { uploadId: string; partSize: number; parts: number }> => {
  const layout = layoutParts(input.size, input.partSize);
  if (isRefusal(layout)) return layout;
  const nonce = newNonce();
  const upload = await files.createMultipartUpload(key, {
    httpMetadata: { contentType: input.contentType },
    customMetadata: { upload: nonce },
  });
  const ref = { ...layout, nonce, r2Id: upload.uploadId };
  return { uploadId: await sealUpload(secret, key, ref), partSize: layout.partSize, parts: layout.parts };
};

/** Stores part `partNumber` of `ref` from `body`, whose declared length must be the part's exactly. */
export const storePart = async (
  files: R2Bucket,
  key: string,
  ref: UploadRef,
  partNumber: number,
  length: number,
  body: ReadableStream,
): Promise<Refusal | { partNumber: number; etag: string }> => {
  if (partNumber > ref.parts)
    return { status: 400, error: `Part ${partNumber} is past the upload's last part (${ref.parts})` };
  const expected = partLength(ref, partNumber);
  if (length > expected)
    return {
      status: 413,
      error: `Part too large: ${length} bytes, part ${partNumber} of this upload is ${expected}`,
    };
  if (length !== expected)
    return { status: 400, error: `Part ${partNumber} of this upload is ${expected} bytes, not ${length}` };
  try {
    const part = await files
      .resumeMultipartUpload(key, ref.r2Id)
      .uploadPart(partNumber, body.pipeThrough(new FixedLengthStream(length)));
    return { partNumber: part.partNumber, etag: part.etag };
  } catch (error) {
    if (r2Code(error) === NO_SUCH_UPLOAD) return GONE;
    throw error;
  }
};

/**
 * Completes `ref` from every one of its parts, listed once and in order. A completion replayed after it succeeded
 * (its answer lost) answers the same, recognised by the object's nonce and size.
 */
export const completeUpload = async (
  files: R2Bucket,
  key: string,
  ref: UploadRef,
  parts: readonly R2UploadedPart[],
): Promise<Refusal | { key: string; size: number }> => {
  const gap = completionGap(
    ref,
    parts.map((p) => p.partNumber),
  );
  if (gap) return { status: 400, error: gap };
  try {
    const object = await files.resumeMultipartUpload(key, ref.r2Id).complete([...parts]);
    return { key, size: object.size };
  } catch (error) {
    const code = r2Code(error);
    if (code === INVALID_PART)
      return { status: 400, error: "A listed part was not uploaded, or its etag is not its latest upload's" };
    if (code !== NO_SUCH_UPLOAD) throw error;
    const head = await files.head(key);
    if (head?.customMetadata?.upload === ref.nonce && head.size === ref.size) return { key, size: head.size };
    return GONE;
  }
};

/** Aborts `ref`: its parts are deleted. Done again, or after its completion, it changes nothing. */
export const abortUpload = async (files: R2Bucket, key: string, ref: UploadRef): Promise<void> => {
  try {
    await files.resumeMultipartUpload(key, ref.r2Id).abort();
  } catch (error) {
    if (r2Code(error) !== NO_SUCH_UPLOAD) throw error;
  }
};
