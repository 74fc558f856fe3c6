/**
 * /builder: a page to write a job config with completion and live validation, render it and see the result
 * (src/builder/assets, copied to static/builder at install and served through the ASSETS binding). The page only
 * calls the public API with the key its user types; its policy allows nothing but this origin.
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { GALLERY } from "../lib/openapi-examples.ts";
import { NotFound } from "../lib/errors.ts";

const FILES: Record<string, string> = {
  "": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "app.css": "text/css; charset=utf-8",
};

const POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const serve = async (c: import("hono").Context<AppEnv>, file: string) => {
  const type = FILES[file];
  if (type === undefined) throw new NotFound("File");
  const res = await c.env.ASSETS.fetch(new Request(`https://static.local/builder/${file || "index.html"}`));
  if (!res.ok) throw new NotFound("File");
  return new Response(res.body, {
    headers: { "content-type": type, "content-security-policy": POLICY, "cache-control": "no-cache" },
  });
};

export const builderRoutes = new Hono<AppEnv>()
  .get("/", (c) => serve(c, ""))
  .get("/examples.json", (c) => c.json(GALLERY))
  .get("/:file", (c) => serve(c, c.req.param("file")));
