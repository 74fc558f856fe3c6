/**
 * How large a stored output may be and how it travels (src/storage/README.md, "Uploads in parts"). Cloudflare caps
 * a Worker request's body (100 MB on the Free and Pro plans, 500 MB at most) and workerd caps nothing locally, so
 * the caps live here, below the platform's: one request carries at most MAX_BODY_BYTES, a small file in one PUT,
 * anything up to MAX_OUTPUT_BYTES in parts (R2's multipart upload).
 */

const MiB = 2 ** 20;

/**
 * The largest output: 20 GiB, an hour of 4096x2160 at 47.7 Mbit/s on average. A video is at most an hour on the
 * paid plans and 4096 px a side; the renderer's x264 (`veryfast`, crf 20) stays below that rate on all but the
 * busiest 4K pictures, where the upload is refused at its start with this figure.
 */
export const MAX_OUTPUT_BYTES = 20 * 2 ** 30;

/** The largest body of one request, a single PUT or one part: well below the platform's 100 MB. */
export const MAX_BODY_BYTES = 64 * MiB;

/** R2's smallest part (every part but the last; R2 also wants them all the same size). */
export const MIN_PART_BYTES = 5 * MiB;

/** The part size when the uploader names none: the largest, so the fewest requests. */
const DEFAULT_PART_BYTES = MAX_BODY_BYTES;

/**
 * Parts of one upload (R2 allows 10,000): each is a request, the largest output takes 320 default parts, and parts
 * of 20.5 MiB or more reach it.
 */
export const MAX_PARTS = 1000;

/** An upload's layout: `parts` parts of `partSize` bytes, the last one the rest of `size`. */
export interface PartLayout {
  size: number;
  partSize: number;
  parts: number;
}

/** A request refused: its status and the envelope's sentence. */
export interface Refusal {
  status: 400 | 403 | 404 | 411 | 413;
  error: string;
}

export const isRefusal = (value: unknown): value is Refusal =>
  typeof value === "object" && value !== null && "error" in value && "status" in value;

/** The layout of `size` bytes in parts of `partSize`, or why there is none (pure). */
export const layoutParts = (size: number, partSize = DEFAULT_PART_BYTES): PartLayout | Refusal => {
  if (size > MAX_OUTPUT_BYTES)
    return { status: 413, error: `Upload too large: ${size} bytes, at most ${MAX_OUTPUT_BYTES} (20 GiB)` };
  if (partSize < MIN_PART_BYTES || partSize > MAX_BODY_BYTES)
    return { status: 400, error: `partSize must be from ${MIN_PART_BYTES} to ${MAX_BODY_BYTES} bytes` };
  const parts = Math.ceil(size / partSize);
  if (parts > MAX_PARTS)
    return {
      status: 400,
      error:
        `Too many parts: ${size} bytes in parts of ${partSize} make ${parts}, at most ${MAX_PARTS}; ` +
        `use parts of at least ${Math.ceil(size / MAX_PARTS)} bytes`,
    };
  return { size, partSize, parts };
};

/** The length part `n` (1-based) of `layout` must have: `partSize`, the last one the rest. */
export const partLength = (layout: PartLayout, n: number): number =>
  n < layout.parts ? layout.partSize : layout.size - (layout.parts - 1) * layout.partSize;

/**
 * Why `listed` (the part numbers a completion names) is not every part of `layout` once and in order, or null. R2
 * would complete an object of any subset of the parts uploaded, so a short list must be refused here.
 */
export const completionGap = (layout: PartLayout, listed: readonly number[]): string | null => {
  const seen = new Set<number>();
  for (const [i, partNumber] of listed.entries()) {
    if (partNumber > layout.parts)
      return `Part ${partNumber} is past the upload's last part (${layout.parts})`;
    if (seen.has(partNumber)) return `Part ${partNumber} is listed twice`;
    if (i > 0 && partNumber < listed[i - 1]!) return "Parts must be listed in ascending order";
    seen.add(partNumber);
  }
  const missing: number[] = [];
  for (let partNumber = 1; partNumber <= layout.parts && missing.length < 10; partNumber++)
    if (!seen.has(partNumber)) missing.push(partNumber);
  if (missing.length === 0) return null;
  const more = layout.parts - seen.size > missing.length ? ", ..." : "";
  return `Missing parts: ${missing.join(", ")}${more} (the upload has ${layout.parts})`;
};
