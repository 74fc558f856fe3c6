/**
 * Signed storage access, no API key: `GET|HEAD|PUT /storage/<key>?expires=&signature=`.
 * GET streams the R2 object (the renderer's inputs, users' expiring links); PUT stores a renderer output.
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { INERT_FILE_HEADERS } from "./inert-headers.ts";
import { errorBody } from "../lib/envelope.ts";
import { MOUNTS } from "../paths.ts";
import { verifyPath } from "./signed-url.ts";

export const storageRoutes = new Hono<AppEnv>();

/** Largest output the renderer may upload (a 300 s 4K video at a high bitrate stays well below). */
export const MAX_OUTPUT_BYTES = 2 * 1024 ** 3;

const check = async (c: import("hono").Context<AppEnv>, method: string) => {
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

storageRoutes.on(["GET", "HEAD"], "/*", async (c) => {
  const { result, key } = await check(c, "GET");
  if (result !== "valid")
    return c.json(errorBody(result === "expired" ? "Link expired" : "Invalid signature"), 403);
  const object = await c.env.FILES.get(key);
  if (!object) return c.json(errorBody("File not found"), 404);
  const headers = new Headers(INERT_FILE_HEADERS);
  object.writeHttpMetadata(headers);
  headers.set("content-length", String(object.size));
  headers.set("etag", object.httpEtag);
  headers.set("content-disposition", "attachment");
  return new Response(c.req.method === "HEAD" ? null : object.body, { headers });
});

storageRoutes.put("/*", async (c) => {
  const { result, key } = await check(c, "PUT");
  if (result !== "valid")
    return c.json(errorBody(result === "expired" ? "Link expired" : "Invalid signature"), 403);
  const length = Number(c.req.header("content-length"));
  if (!Number.isInteger(length) || length <= 0) return c.json(errorBody("Content-Length required"), 411);
  if (length > MAX_OUTPUT_BYTES) return c.json(errorBody("Upload too large"), 413);
  const body = c.req.raw.body;
  if (!body) return c.json(errorBody("Empty body"), 400);
  // A body with a known length streams straight into R2 (no buffering in the Worker).
  const stream = body.pipeThrough(new FixedLengthStream(length));
  const object = await c.env.FILES.put(key, stream, {
    httpMetadata: { contentType: c.req.header("content-type") ?? "application/octet-stream" },
  });
  return c.json({ success: true, data: { key, size: object?.size ?? length } }, 201);
});
