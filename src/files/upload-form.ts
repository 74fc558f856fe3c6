/**
 * Reads an upload form (`file` plus small text fields such as `category`, `ttlHours`) from a multipart body
 * as it streams: the file part is piped into `ingest` (sniffed, counted, optionally stored in R2) while the
 * multipart reader is still running, so the file is never held in memory.
 */
import { ValidationFailed } from "../lib/errors.ts";
import { ingest, type IngestOptions, type Ingested } from "./ingest.ts";
import { readMultipart, type PartSink } from "./multipart.ts";

/** Longest value of a text field. */
const MAX_FIELD_BYTES = 1024;

export interface UploadForm {
  fields: Record<string, string>;
  file: { name: string; declaredType: string | null; ingested: Ingested };
}

const invalid = (field: string, message: string, code = "VALIDATION_ERROR") =>
  new ValidationFailed([{ field, message, code }]);

export const readUploadForm = async (
  body: ReadableStream<Uint8Array>,
  boundary: string,
  opts: IngestOptions,
): Promise<UploadForm> => {
  const fields: Record<string, string> = {};
  let file: { name: string; declaredType: string | null; ingesting: Promise<Ingested> } | null = null;
  let fileWriter: WritableStreamDefaultWriter<Uint8Array> | null = null;
  try {
    await readMultipart(body, boundary, (info): PartSink => {
      if (info.filename !== null) {
        if (info.name !== "file") throw invalid(info.name, "Files are only accepted in the field `file`");
        if (file) throw invalid("file", "Send one file per upload");
        const pipe = new TransformStream<Uint8Array, Uint8Array>();
        const writer = pipe.writable.getWriter();
        fileWriter = writer;
        file = {
          name: info.filename || "upload",
          declaredType: info.contentType,
          ingesting: ingest(pipe.readable, opts),
        };
        file.ingesting.catch(() => undefined); // awaited below; this only avoids an unhandled rejection meanwhile
        return { write: (chunk) => writer.write(chunk), close: () => writer.close() };
      }
      const name = info.name;
      const decoder = new TextDecoder();
      let text = "";
      return {
        write: (chunk) => {
          text += decoder.decode(chunk, { stream: true });
          if (text.length > MAX_FIELD_BYTES) throw invalid(name, `Field \`${name}\` is too long`);
        },
        close: () => {
          fields[name] = text + decoder.decode();
        },
      };
    });
  } catch (e) {
    const pending = file as { ingesting: Promise<Ingested> } | null;
    if (pending) {
      // Stop the ingest (it may be waiting for bytes) and report its own error when it failed first
      // (413, storage): the multipart reader then only saw a broken pipe.
      await (fileWriter as WritableStreamDefaultWriter<Uint8Array> | null)?.abort(e).catch(() => undefined);
      const outcome = await pending.ingesting.then(
        (ingested) => ({ ingested }),
        (inner: unknown) => ({ inner }),
      );
      if ("inner" in outcome) throw outcome.inner;
      if (outcome.ingested.stored && opts.store)
        await opts.store.bucket.delete(outcome.ingested.stored.key).catch(() => undefined);
    }
    throw e;
  }
  const done = file as { name: string; declaredType: string | null; ingesting: Promise<Ingested> } | null;
  if (!done) throw invalid("file", "Field `file` must be a file", "MISSING_FILE");
  return {
    fields,
    file: { name: done.name, declaredType: done.declaredType, ingested: await done.ingesting },
  };
};
