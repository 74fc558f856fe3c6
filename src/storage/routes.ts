/**
 * Signed storage access, no API key: `GET|HEAD|PUT|POST|DELETE /storage/<key>?expires=&signature=`.
 * GET streams the R2 object (the renderer's inputs, users' expiring links); PUT stores a renderer output in one
 * request, and the same PUT signature drives an upload in parts (src/storage/README.md, "Uploads in parts"):
 * `POST ?uploads&size=` starts it, `PUT ?uploadId=&partNumber=` stores a part, `POST ?uploadId=` with
 * `{"parts":[{"partNumber","etag"}]}` completes it, `DELETE ?uploadId=` aborts it.
 */
import { Hono, type Context } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../app-env.ts";
import { INERT_FILE_HEADERS } from "./inert-headers.ts";
import { errorBody } from "../lib/envelope.ts";
import { readTextBounded } from "../lib/body.ts";
import { parseJsonText } from "../lib/validate.ts";
import { MOUNTS } from "../paths.ts";
import { abortUpload, completeUpload, startUpload, storePart } from "./multipart.ts";
import { isRefusal, MAX_BODY_BYTES, MAX_PARTS, type Refusal } from "./parts.ts";
import { verifyPath, type SignatureCheck } from "./signed-url.ts";
import { openUpload } from "./upload-handle.ts";

export const storageRoutes = new Hono<AppEnv>();

type C = Context<AppEnv>;

const check = async (c: C, method: string) => {
  const path = new URL(c.req.url).pathname;
  const result = await verifyPath(
    c.env.STORAGE_SIGNING_SECRET,
    method,
    path,
    c.req.query("expires"),
    c.req.query("signature"),
  );
  return { result, key: decodeURIComponent(path.slice(MOUNTS.storage.length + 1)) };
};

const refuse = (c: C, r: Refusal) => c.json(errorBody(r.error), r.status);

const denied = (c: C, result: Exclude<SignatureCheck, "valid">) =>
  refuse(c, { status: 403, error: result === "expired" ? "Link expired" : "Invalid signature" });

/** The request's declared body length, or a 411 (every stored body streams with its exact length). */
const bodyLength = (c: C): number | Refusal => {
  const length = Number(c.req.header("content-length"));
  return Number.isInteger(length) && length > 0 && c.req.raw.body
    ? length
    : { status: 411, error: "Content-Length required" };
};

const contentType = (c: C) => c.req.header("content-type") ?? "application/octet-stream";

/** The upload the query's `uploadId` names for `key`, or a 404 (another key's, forged or malformed alike). */
const upload = async (c: C, key: string) => {
  const sealed = c.req.query("uploadId") ?? "";
  return (
    (await openUpload(c.env.STORAGE_SIGNING_SECRET, key, sealed)) ?? {
      status: 404 as const,
      error: "Upload not found for this file",
    }
  );
};

/** Parses `input` with `schema`, or a 400 saying what the first issue is. */
const parse = <S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> | Refusal => {
  const parsed = v.safeParse(schema, input);
  return parsed.success ? parsed.output : { status: 400, error: parsed.issues[0].message };
};

// At most 15 digits keeps a number exact; the bounds (MAX_OUTPUT_BYTES, part sizes) are the layout's (parts.ts).
const Bytes = (name: string) =>
  v.pipe(
    v.string(`${name} is required`),
    v.regex(/^[1-9]\d{0,14}$/, `${name} must be a whole number of bytes from 1`),
    v.transform(Number),
  );

const StartQuery = v.object(
  { size: Bytes("size"), partSize: v.optional(Bytes("partSize")) },
  "size is required (the file's bytes)",
);

const PartQuery = v.object(
  {
    partNumber: v.pipe(
      v.string("partNumber is required"),
      v.regex(/^[1-9]\d{0,5}$/, "partNumber must be a whole number from 1"),
      v.transform(Number),
    ),
  },
  "partNumber is required",
);

/** A completion lists every part once, in order: R2's etags are ~170 characters, 1 MiB holds 1,000 of 512. */
const COMPLETION_MAX_BYTES = 2 ** 20;
const PART_NUMBER = `each part needs its partNumber, from 1 to ${MAX_PARTS}`;
const ETAG = "each part needs the etag its upload answered";
const LIST = "parts must list every part of the upload: [{partNumber, etag}, ...]";
const Completion = v.object(
  {
    parts: v.pipe(
      v.array(
        v.object(
          {
            partNumber: v.pipe(
              v.number(PART_NUMBER),
              v.integer(PART_NUMBER),
              v.minValue(1, PART_NUMBER),
              v.maxValue(MAX_PARTS, PART_NUMBER),
            ),
            etag: v.pipe(v.string(ETAG), v.minLength(1, ETAG), v.maxLength(512, ETAG)),
          },
          "each part needs its partNumber and the etag its upload answered",
        ),
        LIST,
      ),
      v.minLength(1, LIST),
      v.maxLength(MAX_PARTS, `parts: at most ${MAX_PARTS}`),
    ),
  },
  LIST,
);

storageRoutes.on(["GET", "HEAD"], "/*", async (c) => {
  const { result, key } = await check(c, "GET");
  if (result !== "valid") return denied(c, result);
  const object = await c.env.FILES.get(key);
  if (!object) return c.json(errorBody("File not found"), 404);
  const headers = new Headers(INERT_FILE_HEADERS);
  object.writeHttpMetadata(headers);
  headers.set("content-length", String(object.size));
  headers.set("etag", object.httpEtag);
  headers.set("content-disposition", "attachment");
  // R2's body streams through (a multi-GB object is never held in the Worker).
  return new Response(c.req.method === "HEAD" ? null : object.body, { headers });
});

storageRoutes.put("/*", async (c) => {
  const { result, key } = await check(c, "PUT");
  if (result !== "valid") return denied(c, result);
  const length = bodyLength(c);
  if (c.req.query("uploadId") !== undefined) {
    const ref = await upload(c, key);
    if (isRefusal(ref)) return refuse(c, ref);
    const query = parse(PartQuery, c.req.query());
    if (isRefusal(query)) return refuse(c, query);
    if (isRefusal(length)) return refuse(c, length);
    const part = await storePart(c.env.FILES, key, ref, query.partNumber, length, c.req.raw.body!);
    return isRefusal(part) ? refuse(c, part) : c.json({ success: true, data: part }, 200);
  }
  if (isRefusal(length)) return refuse(c, length);
  if (length > MAX_BODY_BYTES)
    return refuse(c, {
      status: 413,
      error: `Upload too large for one request: ${length} bytes, at most ${MAX_BODY_BYTES}; upload it in parts (POST ?uploads)`,
    });
  // A body with a known length streams straight into R2 (no buffering in the Worker).
  const stream = c.req.raw.body!.pipeThrough(new FixedLengthStream(length));
  const object = await c.env.FILES.put(key, stream, { httpMetadata: { contentType: contentType(c) } });
  return c.json({ success: true, data: { key, size: object?.size ?? length } }, 201);
});

storageRoutes.post("/*", async (c) => {
  const { result, key } = await check(c, "PUT");
  if (result !== "valid") return denied(c, result);
  if (c.req.query("uploads") !== undefined) {
    const query = parse(StartQuery, c.req.query());
    if (isRefusal(query)) return refuse(c, query);
    const started = await startUpload(c.env.FILES, c.env.STORAGE_SIGNING_SECRET, key, {
      ...query,
      contentType: contentType(c),
    });
    return isRefusal(started) ? refuse(c, started) : c.json({ success: true, data: started }, 201);
  }
  if (c.req.query("uploadId") === undefined)
    return refuse(c, {
      status: 400,
      error: "POST starts an upload in parts (?uploads&size=) or completes one (?uploadId=)",
    });
  const ref = await upload(c, key);
  if (isRefusal(ref)) return refuse(c, ref);
  const body = parse(Completion, parseJsonText(await readTextBounded(c.req.raw, COMPLETION_MAX_BYTES)));
  if (isRefusal(body)) return refuse(c, body);
  const done = await completeUpload(c.env.FILES, key, ref, body.parts);
  return isRefusal(done) ? refuse(c, done) : c.json({ success: true, data: done }, 201);
});

// An abort only deletes what an upload left: an expired (but genuine) signature may still clean up.
storageRoutes.delete("/*", async (c) => {
  const { result, key } = await check(c, "PUT");
  if (result === "invalid") return denied(c, result);
  if (c.req.query("uploadId") === undefined)
    return refuse(c, { status: 400, error: "DELETE aborts an upload in parts (?uploadId=)" });
  const ref = await upload(c, key);
  if (isRefusal(ref)) return refuse(c, ref);
  await abortUpload(c.env.FILES, key, ref);
  return c.json({ success: true, data: { aborted: true } }, 200);
});
