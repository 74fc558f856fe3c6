/** /api/v1/files: upload and download (media permission). */
import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import * as v from "valibot";
import { requireApiKey, requirePermission } from "../auth/api-key";
import { getDb } from "../db/client";
import { mediaFiles } from "../db/schema";
import type { AppEnv } from "../env";
import { ok } from "../lib/envelope";
import { NotFound, PayloadTooLarge, UnsupportedMediaType, ValidationFailed } from "../lib/errors";
import { parseOrThrow } from "../lib/validate";
import { toUploadResponse } from "./serialize";
import { MAX_TTL_HOURS, MAX_UPLOAD_BYTES, uploadFile } from "./upload-file";

const UploadFields = v.object({
  file: v.instance(File, "Field `file` must be a file"),
  category: v.optional(
    v.picklist(["image", "video", "audio", "font"], "category must be image, video, audio or font"),
  ),
  ttlHours: v.optional(
    v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1), v.maxValue(MAX_TTL_HOURS)),
  ),
});

/** Multipart overhead allowed above the file itself. */
const FORM_OVERHEAD = 64 * 1024;

export const fileRoutes = new Hono<AppEnv>()
  .use(requireApiKey, requirePermission("media"))
  .post("/upload", async (c) => {
    if (!(c.req.header("content-type") ?? "").startsWith("multipart/form-data")) {
      throw new UnsupportedMediaType("Content-Type must be multipart/form-data with a `file` field");
    }
    const length = Number(c.req.header("content-length") ?? "0");
    if (length > MAX_UPLOAD_BYTES + FORM_OVERHEAD) throw new PayloadTooLarge(MAX_UPLOAD_BYTES);
    let form: FormData;
    try {
      form = await c.req.formData();
    } catch {
      throw new ValidationFailed([
        { field: "file", message: "Malformed multipart body", code: "INVALID_MULTIPART" },
      ]);
    }
    const fields = parseOrThrow(UploadFields, Object.fromEntries(form.entries()));
    if (fields.file.size > MAX_UPLOAD_BYTES) throw new PayloadTooLarge(MAX_UPLOAD_BYTES);
    const row = await uploadFile({ env: c.env, userId: c.var.auth.userId, input: fields });
    return ok(c, toUploadResponse(row), 201, "File uploaded");
  })
  .get("/:fileId/download", async (c) => {
    const row = await getDb(c.env.DB).query.mediaFiles.findFirst({
      where: and(eq(mediaFiles.id, c.req.param("fileId")), eq(mediaFiles.userId, c.var.auth.userId)),
    });
    if (!row) throw new NotFound("File");
    const object = await c.env.FILES.get(row.storageKey);
    if (!object) throw new NotFound("File");
    return new Response(object.body, {
      headers: {
        "content-type": row.mimeType,
        "content-length": String(object.size),
        "content-disposition": `attachment; filename="${row.originalName.replace(/["\\\r\n]/g, "_")}"`,
        etag: object.httpEtag,
      },
    });
  });
