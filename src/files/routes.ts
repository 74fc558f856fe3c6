/**
 * /api/v1/files (media permission: read for GET/HEAD, full for the rest). The download route also accepts
 * a signed link instead of an API key (see signed-link.ts).
 */
import { Hono, type Context } from "hono";
import { createMiddleware } from "hono/factory";
import * as v from "valibot";
import type { AppEnv } from "../app-env.ts";
import { callerCtx, requireKeyOrSession, requirePermission } from "../auth/api-key.ts";
import { answer, Deleted, envelope, ok } from "../lib/envelope.ts";
import { idempotencyKeyOf, idempotent } from "../lib/idempotency.ts";
import { PayloadTooLarge, UnsupportedMediaType } from "../lib/errors.ts";
import { jsonBody, NoQuery, queryParams } from "../lib/validate.ts";
import { deleteFile } from "./delete-file.ts";
import { importFromUrl } from "./import-url.ts";
import { findFile, getOwnFile } from "./lookup.ts";
import { ListQuery, listFiles } from "./list-files.ts";
import { boundaryOf } from "./multipart.ts";
import { MAX_UPLOAD_BYTES } from "./retention.ts";
import {
  DownloadLink,
  FileId,
  FileList,
  FileMetadata,
  FileValidation,
  MediaFile,
  toMediaFile,
  toMetadataView,
  toUploadResponse,
  UploadedFile,
} from "./serialize.ts";
import { serveFile } from "./serve-file.ts";
import { SupportedFileTypes, supportedFileTypes } from "./supported-types.ts";
import { checkDownloadSignature, createDownloadLink, DEFAULT_LINK_SECONDS, LinkBody } from "./signed-link.ts";
import { uploadFile, uploadFingerprint } from "./upload-file.ts";
import { validateFile } from "./validate-file.ts";
import { describe, documented, type RouteDoc } from "../lib/openapi-route.ts";
import { EXAMPLES } from "@media-render/contract/examples";
import { tool } from "../lib/route-tool.ts";

/** Multipart overhead allowed above the file itself when a Content-Length is declared. */
const FORM_OVERHEAD = 64 * 1024;

const auth = [requireKeyOrSession, requirePermission("media")] as const;

/** The multipart body of an upload request: 415 for another type, 413 for a declared length over the limit. */
const multipartOf = (req: Request) => {
  const boundary = boundaryOf(req.headers.get("content-type") ?? undefined);
  if (!boundary)
    throw new UnsupportedMediaType("Content-Type must be multipart/form-data with a `file` field");
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_UPLOAD_BYTES + FORM_OVERHEAD) throw new PayloadTooLarge(MAX_UPLOAD_BYTES);
  if (!req.body) throw new UnsupportedMediaType("The request has no body");
  return { body: req.body, boundary };
};

/** A signed link (expires + signature in the query) stands in for the API key on downloads. */
const UPLOAD_FIELDS = {
  file: { type: "string", format: "binary" },
  ttlHours: { type: "integer", minimum: 1, maximum: 720, default: 24 },
};

const path = { fileId: FileId };

/** upload_from_url's arguments: a public URL stands for the multipart upload an agent cannot send. */
const UrlInput = v.strictObject({
  url: v.pipe(v.string("url must be a string"), v.url("url must be an http(s) URL"), v.maxLength(2048)),
  ttlHours: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(720))),
});

/** A file's bytes, whatever its type (the file's own Content-Type is sent). */
const BYTES = { "*/*": { schema: { type: "string", contentMediaType: "application/octet-stream" } } };

/** The headers every download answer carries. */
const FILE_HEADERS = {
  ETag: {
    description: "The stored object's entity tag (If-None-Match, If-Range)",
    schema: { type: "string" },
  },
  "Accept-Ranges": { description: "`bytes`: single byte ranges are served", schema: { type: "string" } },
};

const DOWNLOAD_DOC = {
  operationId: { GET: "downloadFile", HEAD: "headFile" },
  tag: "Files",
  summary: "Download a file's bytes",
  description:
    "With your API key or a session, or with a signed link's `expires` and `signature` (no key). HEAD answers " +
    "the same headers without the body.",
  path,
  ok: {
    status: 200,
    description: "The file, with its Content-Type, Content-Length and Content-Disposition",
    content: BYTES,
    headers: FILE_HEADERS,
  },
  also: {
    206: {
      description: "The requested byte range (`Range: bytes=start-end`), with its Content-Range",
      content: BYTES,
      headers: FILE_HEADERS,
    },
    304: { description: "Not modified (`If-None-Match` matched the ETag)", headers: FILE_HEADERS },
  },
  errors: [401, 403, 410, 416, 429],
  rateLimit: "general",
  mcp: false,
} satisfies RouteDoc;

const keyOrSignature = documented(
  createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.query("signature") === undefined) {
      await auth[0](c, async () => {
        await auth[1](c, next);
      });
      return;
    }
    await checkDownloadSignature(c.var.ctx, {
      path: new URL(c.req.url).pathname,
      expires: c.req.query("expires"),
      signature: c.req.query("signature"),
    });
    await next();
  }),
  { security: [{ apiKey: [] }, { session: [] }, { signedLink: [] }], errors: [] },
);

/** A signed download link of the caller's file (POST .../link and its JsonCut name .../public-link). */
const downloadLink = async (c: Context<AppEnv>) => {
  const ctx = callerCtx(c);
  const row = await getOwnFile(ctx, c.req.param("fileId")!);
  const hasBody = (c.req.header("content-length") ?? "0") !== "0" || c.req.header("content-type");
  const { expiresIn } = hasBody ? await jsonBody(c, LinkBody) : { expiresIn: DEFAULT_LINK_SECONDS };
  return ok(c, await createDownloadLink(ctx, { origin: new URL(c.req.url).origin, row, expiresIn }), 201);
};

/** The kinds JsonCut's file validation routes name (one fixed path each). */
const FILE_KINDS = ["image", "video", "audio"] as const;

/** POST /validate/{image|video|audio}: POST /validate that also requires the kind. */
const validateKindRoutes = () => {
  const routes = new Hono<AppEnv>();
  for (const kind of FILE_KINDS)
    routes.post(
      `/validate/${kind}`,
      ...auth,
      describe({
        operationId: `validate${kind[0]!.toUpperCase()}${kind.slice(1)}File`,
        tag: "Files",
        summary: `Check ${kind === "image" ? "an image" : `a${kind === "audio" ? "n" : ""} ${kind}`} file without storing it`,
        description: `JsonCut's route: as POST /api/v1/files/validate, and the content must be ${kind} (an error in \`validation.errors\` otherwise).`,
        body: { multipart: UPLOAD_FIELDS },
        ok: {
          status: 200,
          description: "`validation` (isValid, the detected type, the reasons) and `uploadedFile`",
          data: FileValidation,
        },
        rateLimit: "general",
        mcp: false,
      }),
      async (c) => ok(c, await validateFile({ ...multipartOf(c.req.raw), expected: kind })),
    );
  return routes;
};

export const fileRoutes = new Hono<AppEnv>()
  .post(
    "/upload",
    ...auth,
    describe({
      operationId: "uploadFile",
      tag: "Files",
      summary: "Upload a file",
      description:
        "multipart/form-data with a `file` (at most 100 MiB; type sniffed from the content) and optional `ttlHours` " +
        "(1 to 720, default 24). Send `Idempotency-Key` to make a retry safe.",
      body: { multipart: UPLOAD_FIELDS },
      idempotent: true,
      ok: {
        status: 201,
        description: "The stored file: `id`, `storageUrl` (use it as a layer's path), metadata",
        data: UploadedFile,
      },
      errors: [422, 502],
      rateLimit: "general",
      mcp: {
        upload_from_url: tool({
          description:
            "Store a public http(s) file (image, video, audio, font) for use in configs: answers its storageUrl. " +
            "Private addresses are refused.",
          input: UrlInput,
          run: async (ctx, { url, ttlHours }) =>
            toUploadResponse(await importFromUrl(ctx, { userId: ctx.caller.userId, url, ttlHours })),
        }),
      },
    }),
    async (c) => {
      const ctx = callerCtx(c);
      const key = idempotencyKeyOf(c.req.header("idempotency-key"));
      const form = multipartOf(c.req.raw);
      const run = async () => {
        const { row, fingerprint } = await uploadFile(ctx, form);
        return {
          answer: { status: 201, body: envelope(toUploadResponse(row), "File uploaded") },
          fingerprint,
        };
      };
      return answer(
        c,
        await idempotent(ctx, "files.upload", key, run, () => uploadFingerprint(form.body, form.boundary)),
      );
    },
  )
  .post(
    "/validate",
    ...auth,
    describe({
      operationId: "validateFile",
      tag: "Files",
      summary: "Check a file without storing it",
      body: { multipart: UPLOAD_FIELDS },
      ok: {
        status: 200,
        description: "`validation` (isValid, the detected type, the reasons) and `uploadedFile`",
        data: FileValidation,
      },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await validateFile(multipartOf(c.req.raw))),
  )
  .route("/", validateKindRoutes())
  .get(
    "/supported-types",
    ...auth,
    describe({
      operationId: "getSupportedFileTypes",
      tag: "Files",
      summary: "The file types uploads may have",
      description:
        "Per category, the extensions a file may be named with and its MIME types (the content decides; the " +
        "name and a declared category must agree with it), and the size limit.",
      query: NoQuery,
      ok: { status: 200, description: "`categories` and `maxFileSize`", data: SupportedFileTypes },
      rateLimit: "general",
      mcp: false,
    }),
    (c) => {
      queryParams(c, NoQuery);
      return ok(c, supportedFileTypes());
    },
  )
  .get(
    "/",
    ...auth,
    describe({
      operationId: "listFiles",
      tag: "Files",
      summary: "List your files",
      query: ListQuery,
      ok: {
        status: 200,
        description: "`files`, newest first, with `total`, `page`, `per_page`",
        data: FileList,
      },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await listFiles(callerCtx(c), queryParams(c, ListQuery))),
  )
  .get(
    "/:fileId",
    ...auth,
    describe({
      operationId: "getFile",
      tag: "Files",
      summary: "Read a file's record",
      path,
      ok: { status: 200, description: "The file", data: MediaFile },
      errors: [410],
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, toMediaFile(await getOwnFile(callerCtx(c), c.req.param("fileId")))),
  )
  .get(
    "/:fileId/metadata",
    ...auth,
    describe({
      operationId: "getFileMetadata",
      tag: "Files",
      summary: "Read a file's media metadata",
      path,
      ok: {
        status: 200,
        description: "Dimensions, duration, codecs as measured at upload",
        data: FileMetadata,
      },
      errors: [410],
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, toMetadataView(await getOwnFile(callerCtx(c), c.req.param("fileId")))),
  )
  .on(["GET", "HEAD"], "/:fileId/download", keyOrSignature, describe(DOWNLOAD_DOC), async (c) => {
    // With a valid signature the link's issuer is the owner; without one the key's account must own the file.
    const ctx = c.var.ctx;
    const owner = c.req.query("signature") === undefined ? callerCtx(c).caller.userId : null;
    return serveFile(ctx, await findFile(ctx, c.req.param("fileId"), owner), c.req.raw);
  })
  .post(
    "/:fileId/link",
    ...auth,
    describe({
      operationId: "createDownloadLink",
      tag: "Files",
      summary: "Create a signed download link",
      description:
        "Anyone holding the link can download the file until it expires (60 s to 7 days, default 1 hour; never " +
        "past the file's own expiry). The body may be left out.",
      path,
      body: LinkBody,
      bodyOptional: true,
      bodyExample: EXAMPLES.link,
      ok: {
        status: 201,
        description: "`url`, `expiresAt`",
        data: DownloadLink,
        example: EXAMPLES.downloadLink,
      },
      errors: [410],
      rateLimit: "general",
      mcp: {
        get_download_link: tool({
          description:
            "A signed link that downloads a file (a job's output) without a key, for expiresIn seconds.",
          input: v.strictObject({ fileId: FileId, ...LinkBody.entries }),
          run: async (ctx, { fileId, expiresIn }, origin) =>
            createDownloadLink(ctx, { origin, row: await getOwnFile(ctx, fileId), expiresIn }),
        }),
      },
    }),
    (c) => downloadLink(c),
  )
  .post(
    "/:fileId/public-link",
    ...auth,
    describe({
      operationId: "createPublicLink",
      tag: "Files",
      summary: "Create a public (signed) download link",
      description:
        "JsonCut's name for POST /api/v1/files/{fileId}/link: the same body (optional `expiresIn`, 60 s to 7 days, " +
        "default 1 hour; never past the file's own expiry) and answer.",
      path,
      body: LinkBody,
      bodyOptional: true,
      ok: { status: 201, description: "`url`, `expiresAt`", data: DownloadLink },
      errors: [410],
      rateLimit: "general",
      mcp: false,
    }),
    (c) => downloadLink(c),
  )
  .delete(
    "/:fileId",
    ...auth,
    describe({
      operationId: "deleteFile",
      tag: "Files",
      summary: "Delete a file",
      description: "A file an open job reads is refused (400) until the job has finished.",
      path,
      ok: { status: 200, description: "`id`, `deleted`", data: Deleted },
      errors: [400, 410],
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await deleteFile(callerCtx(c), c.req.param("fileId"))),
  );
