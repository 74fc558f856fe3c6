/**
 * The /api/v1/files routes that take a file's bytes in a multipart form (media permission: full): the upload,
 * the checks that store nothing (/validate and JsonCut's /validate/{image|video|audio}), and the types an upload may
 * have. routes.ts mounts them before the routes on a stored file.
 */
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../app-env.ts";
import { callerCtx, requireKeyOrSession, requirePermission } from "../auth/api-key.ts";
import { answer, envelope, ok } from "../lib/envelope.ts";
import { idempotencyKeyOf, idempotent } from "../lib/idempotency.ts";
import { PayloadTooLarge, UnsupportedMediaType } from "../lib/errors.ts";
import { NoQuery, queryParams } from "../lib/validate.ts";
import { importFromUrl } from "./import-url.ts";
import { boundaryOf } from "./multipart.ts";
import { MAX_UPLOAD_BYTES } from "./retention.ts";
import { FileValidation, toUploadResponse, UploadedFile } from "./serialize.ts";
import { SupportedFileTypes, supportedFileTypes } from "./supported-types.ts";
import { uploadFile, uploadFingerprint } from "./upload-file.ts";
import { validateFile } from "./validate-file.ts";
import { describe } from "../lib/openapi-route.ts";
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

/** The fields of an upload's multipart form, as the OpenAPI document shows them. */
const UPLOAD_FIELDS = {
  file: { type: "string", format: "binary" },
  ttlHours: { type: "integer", minimum: 1, maximum: 720, default: 24 },
};

/** What a file validation answers, on each of its routes. */
const VALIDATION_OK = {
  status: 200,
  description: "`validation` (isValid, the detected type, the reasons) and `uploadedFile`",
  data: FileValidation,
} as const;

/** upload_from_url's arguments: a public URL stands for the multipart upload an agent cannot send. */
const UrlInput = v.strictObject({
  url: v.pipe(v.string("url must be a string"), v.url("url must be an http(s) URL"), v.maxLength(2048)),
  ttlHours: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(720))),
});

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
        ok: VALIDATION_OK,
        rateLimit: "general",
        mcp: false,
      }),
      async (c) => ok(c, await validateFile({ ...multipartOf(c.req.raw), expected: kind })),
    );
  return routes;
};

export const fileUploadRoutes = new Hono<AppEnv>()
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
      ok: VALIDATION_OK,
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
  );
