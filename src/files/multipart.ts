/**
 * A streaming multipart/form-data reader (RFC 7578 over RFC 2046). Workers' `formData()` buffers the whole
 * body (a 150 MiB upload took ~1 GB of workerd memory), so the body is scanned chunk by chunk and each part's
 * bytes are handed to a sink as they arrive; at most one delimiter's length of a part is ever held back.
 */
import { ValidationFailed } from "../lib/errors.ts";

export interface PartInfo {
  /** The form field name. */
  name: string;
  /** The file name for file parts; null for plain fields. */
  filename: string | null;
  /** The part's declared Content-Type, if any. */
  contentType: string | null;
}

/** Receives one part's bytes. Throwing from `write` aborts the whole read with that error. */
export interface PartSink {
  write(chunk: Uint8Array): Promise<void> | void;
  close(): Promise<void> | void;
}

const MAX_HEADER_BYTES = 8 * 1024;
const MAX_PARTS = 20;
const enc = new TextEncoder();
const dec = new TextDecoder();

const malformed = (message: string) =>
  new ValidationFailed([{ field: "file", message, code: "INVALID_MULTIPART" }], "Malformed multipart body");

/** The boundary of a `multipart/form-data` Content-Type, or null. */
export const boundaryOf = (contentType: string | undefined): string | null => {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
};

const indexOf = (hay: Uint8Array, needle: Uint8Array, from = 0): number => {
  const first = needle[0]!;
  for (
    let i = hay.indexOf(first, from);
    i >= 0 && i + needle.length <= hay.length;
    i = hay.indexOf(first, i + 1)
  ) {
    let j = 1;
    while (j < needle.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
};

const concat = (before: Uint8Array, after: Uint8Array): Uint8Array => {
  if (!before.length) return after;
  const out = new Uint8Array(before.length + after.length);
  out.set(before);
  out.set(after, before.length);
  return out;
};

/** Parses `Content-Disposition: form-data; name="x"; filename="y"` and Content-Type from a header block. */
export const parsePartHeaders = (block: string): PartInfo => {
  let disposition = "";
  let contentType: string | null = null;
  for (const line of block.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-disposition") disposition = value;
    if (name === "content-type") contentType = value;
  }
  if (!/^form-data\b/i.test(disposition)) throw malformed("Each part needs Content-Disposition: form-data");
  const param = (key: string) => {
    const match = new RegExp(`;\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, "i").exec(disposition);
    return match ? (match[1] ?? match[2] ?? "").replace(/\\(.)/g, "$1") : null;
  };
  const name = param("name");
  if (name === null) throw malformed("A part has no field name");
  const star = /;\s*filename\*=UTF-8''([^;\s]+)/i.exec(disposition)?.[1];
  let filename = param("filename");
  if (star) {
    try {
      filename = decodeURIComponent(star);
    } catch {
      /* keep the plain filename */
    }
  }
  return { name, filename, contentType };
};

/**
 * Reads `body` part by part. `onPart` is called when a part's headers are complete and returns the sink for
 * its bytes. Resolves when the closing delimiter has been read; throws ValidationFailed on malformed input.
 */
export const readMultipart = async (
  body: ReadableStream<Uint8Array>,
  boundary: string,
  onPart: (info: PartInfo) => PartSink | Promise<PartSink>,
): Promise<void> => {
  // Every delimiter is CRLF "--" boundary; the first one may lack the CRLF, so one is prepended.
  const delimiter = enc.encode(`\r\n--${boundary}`);
  let buf: Uint8Array = enc.encode("\r\n");
  let state: "preamble" | "after-delimiter" | "headers" | "body" | "done" = "preamble";
  let sink: PartSink | null = null;
  let parts = 0;
  const reader = body.getReader();
  let eof = false;
  try {
    while (state !== "done") {
      let progressed = true;
      while (progressed && state !== "done") {
        progressed = false;
        if (state === "preamble") {
          const at = indexOf(buf, delimiter);
          if (at >= 0) {
            buf = buf.subarray(at + delimiter.length);
            state = "after-delimiter";
            progressed = true;
          } else if (buf.length > MAX_HEADER_BYTES) throw malformed("No multipart boundary found");
        } else if (state === "after-delimiter") {
          if (buf.length >= 2 && buf[0] === 0x2d && buf[1] === 0x2d) state = "done";
          else {
            const eol = indexOf(buf, enc.encode("\r\n"));
            if (eol >= 0) {
              // Transport padding (spaces, tabs) may follow a delimiter.
              if (dec.decode(buf.subarray(0, eol)).trim() !== "") throw malformed("Garbage after a boundary");
              buf = buf.subarray(eol + 2);
              state = "headers";
              progressed = true;
            } else if (buf.length > 256) throw malformed("Garbage after a boundary");
          }
        } else if (state === "headers") {
          const end = indexOf(buf, enc.encode("\r\n\r\n"));
          const empty = buf.length >= 2 && buf[0] === 0x0d && buf[1] === 0x0a; // a part without headers
          if (end >= 0 || empty) {
            if (++parts > MAX_PARTS) throw malformed(`At most ${MAX_PARTS} parts are accepted`);
            const block = empty ? "" : dec.decode(buf.subarray(0, end));
            buf = buf.subarray(empty ? 2 : end + 4);
            sink = await onPart(parsePartHeaders(block));
            state = "body";
            progressed = true;
          } else if (buf.length > MAX_HEADER_BYTES) throw malformed("Part headers are too long");
        } else if (state === "body") {
          const at = indexOf(buf, delimiter);
          if (at >= 0) {
            if (at > 0) await sink!.write(buf.slice(0, at));
            await sink!.close();
            sink = null;
            buf = buf.subarray(at + delimiter.length);
            state = "after-delimiter";
            progressed = true;
          } else if (buf.length >= delimiter.length) {
            // Hold back what could be the start of a delimiter split across chunks.
            const keep = delimiter.length - 1;
            await sink!.write(buf.slice(0, buf.length - keep));
            buf = buf.slice(buf.length - keep);
          }
        }
      }
      if ((state as string) === "done") break;
      if (eof) throw malformed("The multipart body ended before its closing boundary");
      const { done, value } = await reader.read();
      if (done) eof = true;
      else buf = concat(buf, value);
    }
  } catch (e) {
    await reader.cancel().catch(() => undefined); // stop the client's upload early
    throw e;
  }
  reader.releaseLock();
};
