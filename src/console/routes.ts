/**
 * The web front end (web/, built by Vite into static/web by scripts/build-web.mjs) on the API's own origin:
 * - the console's pages: `/` (what the service is), `/sign-in`, `/sign-up`, `/terms` and everything under
 *   `/console`, each answered with the single-page app's index.html (its router draws the page);
 * - the build's files under `/web/` (hashed, cached for a year).
 * Only the build is public here: of the rest of the ASSETS folder, only the catalogue fonts and html libraries are
 * served, to the builder's preview (src/builder/routes.ts). Every answer carries a strict Content-Security-Policy:
 * scripts, styles, images, media and requests of this origin only (no inline script, no other host), except the
 * captcha vendor's widget where the captcha is on.
 */
import { Hono, type Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import { NotFound } from "../lib/errors.ts";
import { MOUNTS } from "../paths.ts";
import { contentSecurityPolicy } from "./policy.ts";

/**
 * Serves one file of the web build, with the policy; `page` files are never cached, hashed files for a year. The
 * build's files are open to any origin (CORS): the builder's preview runs sandboxed, with an opaque origin, and
 * module scripts load in CORS mode.
 */
const serveBuilt = async (
  c: Context<AppEnv>,
  path: string,
  page: boolean,
  policy = contentSecurityPolicy(c.env),
) => {
  const res = await c.env.ASSETS.fetch(new Request(`https://assets.local${MOUNTS.web}/${path}`));
  if (!res.ok) {
    if (page) throw new Error(`the web build is missing ${path}: run npm run setup (scripts/build-web.mjs)`);
    throw new NotFound("File");
  }
  const headers = new Headers(res.headers);
  headers.set("content-security-policy", policy);
  if (!page) headers.set("access-control-allow-origin", "*");
  headers.set(
    "cache-control",
    page || !path.startsWith("assets/") ? "no-cache" : "public, max-age=31536000, immutable",
  );
  return new Response(res.body, { status: 200, headers });
};

/**
 * Answers a page of the web build (e.g. the console's index.html), for routes outside this sub-app too, with the
 * console's policy unless the page needs its own.
 */
export const servePage = (c: Context<AppEnv>, file = "index.html", policy?: string) =>
  serveBuilt(c, file, true, policy);

const page = (c: Context<AppEnv>) => servePage(c);

export const consoleRoutes = new Hono<AppEnv>()
  .get("/", page)
  .get("/sign-in", page)
  .get("/sign-up", page)
  .get("/terms", page)
  .get(MOUNTS.console, page)
  .get(`${MOUNTS.console}/*`, page)
  .get(`${MOUNTS.web}/*`, (c) => {
    const path = c.req.path.slice(MOUNTS.web.length + 1);
    // Only plain file paths of the build: no traversal, no hidden files, no pages under another name.
    if (!/^[\w-]+(\/[\w.-]+)*\.\w+$/.test(path) || path.includes("..")) throw new NotFound("File");
    return serveBuilt(c, path, false);
  });
