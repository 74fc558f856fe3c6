/**
 * /api/v1/files (media permission: read for GET/HEAD, full for the rest): the routes on a stored file (its record,
 * metadata, bytes, links, deletion), after the multipart ones of upload-routes.ts. The download route also accepts
 * a signed link instead of an API key (see signed-link.ts).
 */
import { Hono, type Context } from "hono";
import { createMiddleware } from "hono/factory";
import * as v from "valibot";
import type { AppEnv } from "../app-env.ts";
import { callerCtx, requireKeyOrSession, requirePermission } from "../auth/api-key.ts";
import { Deleted, ok } from "../lib/envelope.ts";
import { jsonBody, queryParams } from "../lib/validate.ts";
import { deleteFile } from "./delete-file.ts";
import { findFile, getOwnFile } from "./lookup.ts";
import { ListQuery, listFiles } from "./list-files.ts";
import {
  DownloadLink,
  FileId,
  FileList,
  FileMetadata,
  MediaFile,
  toMediaFile,
  toMetadataView,
} from "./serialize.ts";
import { serveFile } from "./serve-file.ts";
import { checkDownloadSignature, createDownloadLink, DEFAULT_LINK_SECONDS, LinkBody } from "./signed-link.ts";
import { fileUploadRoutes } from "./upload-routes.ts";
import { describe, documented, type RouteDoc } from "../lib/openapi-route.ts";
import { EXAMPLES } from "@media-render/contract/examples";
import { tool } from "../lib/route-tool.ts";

const auth = [requireKeyOrSession, requirePermission("media")] as const;

const path = { fileId: FileId };

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

/** A signed link (expires + signature in the query) stands in for the API key on downloads. */
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

export const fileRoutes = new Hono<AppEnv>()
  .route("/", fileUploadRoutes)
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
