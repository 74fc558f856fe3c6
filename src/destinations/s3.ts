/**
 * The S3 requests of a delivery, signed with SigV4 by aws4fetch: one PUT for a file up to
 * MULTIPART_THRESHOLD_BYTES, a multipart upload (create, parts, complete; aborted on failure) for a larger one. Bodies
 * stream from R2 (whole, or one ranged read per part), never held in memory; R2's streams have a known length, so
 * each request carries its Content-Length. Payloads are sent UNSIGNED-PAYLOAD (their bytes cannot be hashed before
 * they stream); a single PUT carries R2's MD5 of the object as Content-MD5, so the service checks the bytes it got.
 * No request follows a redirect, and each has a deadline.
 */
import { AwsClient } from "aws4fetch";
import { toBase64 } from "@media-render/contract/crypto";
import { MAX_ERROR_BODY_BYTES, MULTIPART_THRESHOLD_BYTES, PART_BYTES, REQUEST_TIMEOUT_MS } from "./limits.ts";

/** What a delivery signs with and sends to. */
export interface Bucket {
  /** The origin requests go to (path-style: the endpoint; virtual-hosted: `<bucket>.<host>`). */
  origin: URL;
  /** Path-style addressing puts the bucket in the path. */
  bucketInPath: string | null;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** A file to upload: its R2 object and where it goes. */
export interface Upload {
  r2Key: string;
  key: string;
  contentType: string;
}

/**
 * An upload that failed, with what the service said (`Code: Message`) or why there was no answer. `permanent`: no
 * retry can help (the output is gone, the endpoint is refused).
 */
export class UploadFailed extends Error {
  readonly permanent: boolean;
  constructor(message: string, permanent = false) {
    super(message);
    this.permanent = permanent;
  }
}

const objectUrl = (bucket: Bucket, key: string, query = "") => {
  const path = [bucket.bucketInPath, ...key.split("/")]
    .filter((s) => s !== null)
    .map((s) => encodeURIComponent(s!))
    .join("/");
  return `${bucket.origin.origin}/${path}${query}`;
};

const clientOf = (bucket: Bucket) =>
  new AwsClient({
    accessKeyId: bucket.accessKeyId,
    secretAccessKey: bucket.secretAccessKey,
    service: "s3",
    region: bucket.region,
    // Retries are the delivery's own (a queue message per attempt); a stream cannot be sent twice anyway.
    retries: 0,
  });

/** The first bytes of an answer, as text. */
const head = async (res: Response): Promise<string> => {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < MAX_ERROR_BODY_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  const decoder = new TextDecoder();
  return chunks.map((c) => decoder.decode(c, { stream: true })).join("") + decoder.decode();
};

const tag = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];

/** What went wrong with `res`, in the service's words. */
const failure = async (what: string, res: Response): Promise<UploadFailed> => {
  if (res.status >= 300 && res.status < 400)
    return new UploadFailed(
      `${what}: the endpoint answered ${res.status}, a redirect (not followed): check the region and addressing`,
    );
  const xml = await head(res);
  const code = tag(xml, "Code");
  const message = tag(xml, "Message");
  return new UploadFailed(
    `${what}: ${res.status}${code ? ` ${code}` : ""}${message ? `: ${message}` : ` ${res.statusText}`}`.trim(),
  );
};

/** Sends one signed request with a deadline of REQUEST_TIMEOUT_MS plus a second per MiB of `bytes`. */
const send = async (
  client: AwsClient,
  what: string,
  url: string,
  init: RequestInit & { bytes?: number },
): Promise<Response> => {
  const { bytes = 0, ...rest } = init;
  const timeout = REQUEST_TIMEOUT_MS + Math.ceil(bytes / (1024 * 1024)) * 1000;
  const request = await client.sign(url, { ...rest, redirect: "manual" });
  try {
    return await fetch(request, { signal: AbortSignal.timeout(timeout) });
  } catch (e) {
    const reason =
      e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError")
        ? `no answer within ${Math.round(timeout / 1000)} s`
        : `could not reach the endpoint (${e instanceof Error ? e.message : String(e)})`;
    throw new UploadFailed(`${what}: ${reason}`);
  }
};

/** An R2 read of `r2Key` (whole, or `range`), failing when the object is gone. */
const read = async (files: R2Bucket, r2Key: string, range?: { offset: number; length: number }) => {
  const object = await files.get(r2Key, range ? { range } : undefined);
  if (!object) throw new UploadFailed("the output is no longer stored", true);
  return object;
};

const etagOf = (res: Response) => (res.headers.get("etag") ?? "").replace(/"/g, "");

/** Uploads `file` from R2 to `bucket`; returns its size and the ETag the service gave it. */
export const uploadFile = async (
  files: R2Bucket,
  bucket: Bucket,
  file: Upload,
  options: { threshold?: number; partBytes?: number } = {},
): Promise<{ size: number; etag: string }> => {
  const client = clientOf(bucket);
  const stat = await files.head(file.r2Key);
  if (!stat) throw new UploadFailed("the output is no longer stored", true);
  if (stat.size > (options.threshold ?? MULTIPART_THRESHOLD_BYTES))
    return {
      size: stat.size,
      etag: await multipart(files, client, bucket, file, stat.size, options.partBytes),
    };
  const object = await read(files, file.r2Key);
  const md5 = object.checksums.md5;
  const res = await send(client, `PUT ${file.key}`, objectUrl(bucket, file.key), {
    method: "PUT",
    body: object.body,
    bytes: object.size,
    headers: {
      "content-type": file.contentType,
      "content-length": String(object.size),
      ...(md5 && { "content-md5": toBase64(new Uint8Array(md5)) }),
    },
  });
  if (!res.ok) throw await failure(`PUT ${file.key}`, res);
  await res.body?.cancel();
  return { size: object.size, etag: etagOf(res) };
};

const multipart = async (
  files: R2Bucket,
  client: AwsClient,
  bucket: Bucket,
  file: Upload,
  size: number,
  partBytes = PART_BYTES,
): Promise<string> => {
  const what = `multipart upload of ${file.key}`;
  const created = await send(client, what, objectUrl(bucket, file.key, "?uploads"), {
    method: "POST",
    headers: { "content-type": file.contentType },
  });
  if (!created.ok) throw await failure(what, created);
  const uploadId = tag(await created.text(), "UploadId");
  if (!uploadId) throw new UploadFailed(`${what}: the service answered no UploadId`);
  const at = (query: string) =>
    objectUrl(bucket, file.key, `?${query}uploadId=${encodeURIComponent(uploadId)}`);
  try {
    const parts: string[] = [];
    for (let offset = 0, partNumber = 1; offset < size; offset += partBytes, partNumber++) {
      const length = Math.min(partBytes, size - offset);
      const part = await read(files, file.r2Key, { offset, length });
      const res = await send(client, `${what}, part ${partNumber}`, at(`partNumber=${partNumber}&`), {
        method: "PUT",
        body: part.body,
        bytes: length,
        headers: { "content-length": String(length) },
      });
      if (!res.ok) throw await failure(`${what}, part ${partNumber}`, res);
      await res.body?.cancel();
      parts.push(res.headers.get("etag") ?? "");
    }
    const xml = `<CompleteMultipartUpload>${parts
      .map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${etag}</ETag></Part>`)
      .join("")}</CompleteMultipartUpload>`;
    const done = await send(client, what, at(""), {
      method: "POST",
      body: xml,
      headers: { "content-type": "application/xml" },
    });
    // CompleteMultipartUpload may answer 200 with an <Error> body.
    const answer = done.ok ? await head(done) : "";
    if (!done.ok || answer.includes("<Error>"))
      throw done.ok
        ? new UploadFailed(`${what}: ${tag(answer, "Code")}: ${tag(answer, "Message")}`)
        : await failure(what, done);
    return (tag(answer, "ETag") ?? "").replace(/&quot;|"/g, "");
  } catch (e) {
    // Best effort: a part list left behind costs the user storage until their lifecycle rules clear it.
    await send(client, what, at(""), { method: "DELETE" })
      .then((r) => r.body?.cancel())
      .catch(() => undefined);
    throw e;
  }
};
