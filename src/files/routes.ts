/**
 * /api/v1/files (media permission: read for GET/HEAD, full for the rest). The download route also accepts
 * a signed link instead of an API key (see signed-link.ts).
 */
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import * as v from "valibot";
import { requireApiKey, requirePermission } from "../auth/api-key";
import type { AppEnv } from "../env";
import { ok } from "../lib/envelope";
import { PayloadTooLarge, UnsupportedMediaType } from "../lib/errors";
import { jsonBody, queryParams } from "../lib/validate";
import { deleteFile } from "./delete-file";
import { findOwnFile } from "./internal";
import { ListQuery, listFiles } from "./list-files";
import { boundaryOf } from "./multipart";
import { MAX_UPLOAD_BYTES } from "./retention";
import { toMediaFile, toMetadataView, toUploadResponse } from "./serialize";
import { serveFile } from "./serve-file";
import {
  checkDownloadSignature,
  createDownloadLink,
  DEFAULT_LINK_SECONDS,
  MAX_LINK_SECONDS,
  MIN_LINK_SECONDS,
} from "./signed-link";
import { uploadFile } from "./upload-file";
import { validateFile } from "./validate-file";

/** Multipart overhead allowed above the file itself when a Content-Length is declared. */
const FORM_OVERHEAD = 64 * 1024;

const LinkBody = v.object({
  expiresIn: v.optional(
    v.pipe(
      v.number("expiresIn must be a number of seconds"),
      v.integer("expiresIn must be a whole number of seconds"),
      v.minValue(MIN_LINK_SECONDS, `expiresIn must be at least ${MIN_LINK_SECONDS}`),
      v.maxValue(MAX_LINK_SECONDS, `expiresIn must be at most ${MAX_LINK_SECONDS} (7 days)`),
    ),
    DEFAULT_LINK_SECONDS,
  ),
});

const auth = [requireApiKey, requirePermission("media")] as const;

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
const keyOrSignature = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.query("signature") === undefined) {
    await auth[0](c, async () => {
      await auth[1](c, next);
    });
    return;
  }
  await checkDownloadSignature(
    c.env.STORAGE_SIGNING_SECRET,
    new URL(c.req.url).pathname,
    c.req.query("expires"),
    c.req.query("signature"),
  );
  await next();
});

export const fileRoutes = new Hono<AppEnv>()
  .post("/upload", ...auth, async (c) => {
    const row = await uploadFile({ env: c.env, userId: c.var.auth.userId, ...multipartOf(c.req.raw) });
    return ok(c, toUploadResponse(row), 201, "File uploaded");
  })
  .post("/validate", ...auth, async (c) => ok(c, await validateFile(multipartOf(c.req.raw))))
  .get("/", ...auth, async (c) =>
    ok(c, await listFiles({ env: c.env, userId: c.var.auth.userId, query: queryParams(c, ListQuery) })),
  )
  .get("/:fileId", ...auth, async (c) =>
    ok(c, toMediaFile(await findOwnFile(c.env, c.var.auth.userId, c.req.param("fileId")))),
  )
  .get("/:fileId/metadata", ...auth, async (c) =>
    ok(c, toMetadataView(await findOwnFile(c.env, c.var.auth.userId, c.req.param("fileId")))),
  )
  .on(["GET", "HEAD"], "/:fileId/download", keyOrSignature, async (c) => {
    // With a valid signature the link's issuer is the owner; without one the key's account must own the file.
    const owner = c.req.query("signature") === undefined ? c.var.auth.userId : null;
    return serveFile(c.env, await findOwnFile(c.env, owner, c.req.param("fileId")), c.req.raw);
  })
  .post("/:fileId/link", ...auth, async (c) => {
    const row = await findOwnFile(c.env, c.var.auth.userId, c.req.param("fileId"));
    const hasBody = (c.req.header("content-length") ?? "0") !== "0" || c.req.header("content-type");
    const { expiresIn } = hasBody ? await jsonBody(c, LinkBody) : { expiresIn: DEFAULT_LINK_SECONDS };
    const link = await createDownloadLink({
      secret: c.env.STORAGE_SIGNING_SECRET,
      origin: new URL(c.req.url).origin,
      row,
      expiresIn,
    });
    return ok(c, link, 201);
  })
  .delete("/:fileId", ...auth, async (c) =>
    ok(c, await deleteFile({ env: c.env, userId: c.var.auth.userId, id: c.req.param("fileId") })),
  );
