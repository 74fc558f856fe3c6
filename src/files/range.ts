/** HTTP range requests (RFC 9110 section 14): one byte range per request; anything else gets the whole file. */

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/**
 * Parses a `Range` header against a representation of `size` bytes. Returns the range, "unsatisfiable"
 * (answer 416), or null to ignore the header (malformed, another unit, or several ranges: RFC 9110 lets a
 * server ignore Range and send 200 with the whole file).
 */
export const parseRange = (
  header: string | null | undefined,
  size: number,
): ByteRange | "unsatisfiable" | null => {
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header ?? "");
  if (!match) return null;
  const [, a = "", b = ""] = match;
  if (a === "" && b === "") return null;
  if (a === "") {
    const suffix = Number(b);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(a);
  if (b !== "" && Number(b) < start) return null; // syntactically invalid: ignore the header
  if (start >= size) return "unsatisfiable";
  const end = b === "" ? size - 1 : Number(b);
  return { start, end: Math.min(end, size - 1) };
};

/** Whether an `If-None-Match` list matches `etag` (weak comparison, RFC 9110 section 13.1.2). */
export const etagMatches = (header: string | null | undefined, etag: string): boolean => {
  if (!header) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, "");
  return header.trim() === "*" || header.split(",").some((t) => bare(t) === bare(etag));
};
