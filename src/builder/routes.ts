/**
 * The visual builder (web/builder.html, web/src/builder; built by scripts/build-web.mjs like the console):
 * - `/builder`: the editor, under the console's policy plus one frame: its preview page;
 * - `/builder/preview`: the page the editor's canvas shows, where the image compile step the service renders with
 *   (@media-render/image-page, packages/image-page/src/compile-html.ts) draws the config in the browser. It runs users' html layers, so it is
 *   sandboxed by its own policy (an opaque origin: no cookie, no storage, no access to the editor's page) and that
 *   policy is the image page's (`pagePolicy`): no connection anywhere, pictures only from blob: and data: URLs;
 * `renderAssetRoutes` serves the bundled fonts and html libraries (static/render) that the preview loads, as the
 * image browser serves them to the service's renders, open to the preview's opaque origin (CORS).
 */
import { Hono, type Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import { contentSecurityPolicy } from "../console/policy.ts";
import { servePage } from "../console/routes.ts";
import { pagePolicy } from "@media-render/image-page/compile-html";
import { NotFound } from "../lib/errors.ts";
import { MOUNTS } from "../paths.ts";

/** Where the editor embeds its preview. */
const PREVIEW_PATH = `${MOUNTS.builder}/preview`;

/**
 * The preview's policy: the image page's, with this origin serving fonts and libraries and stored files reaching the
 * page as blob: URLs the page makes itself; sandboxed (scripts only: no same origin, forms, popups or navigation of
 * the editor) and embeddable by this origin's pages only.
 */
const previewPolicy = (origin: string): string =>
  [
    pagePolicy({ static: origin, asset: () => "", assetSources: "blob:" }),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
    "sandbox allow-scripts",
  ].join(";");

export const builderRoutes = new Hono<AppEnv>()
  .get("/", (c) =>
    servePage(
      c,
      "builder.html",
      contentSecurityPolicy(c.env, { frames: [`${new URL(c.req.url).origin}${PREVIEW_PATH}`] }),
    ),
  )
  .get("/preview", (c) => servePage(c, "builder-preview.html", previewPolicy(new URL(c.req.url).origin)));

/** The files under static/render the preview may load: catalogue fonts (woff2) and html-layer libraries. */
const RENDER_FILE = /^\/(?:fonts\/[a-z0-9-]+\/\d{3}-[a-z0-9-]+\.woff2|lib\/[a-z0-9-]+\.js)$/;

const serveRenderAsset = async (c: Context<AppEnv>) => {
  const path = c.req.path.slice(MOUNTS.render.length);
  if (!RENDER_FILE.test(path)) throw new NotFound("File");
  const res = await c.env.ASSETS.fetch(new Request(`https://assets.local${MOUNTS.render}${path}`));
  if (!res.ok) throw new NotFound("File");
  return new Response(res.body, {
    headers: {
      "content-type": res.headers.get("content-type") ?? "application/octet-stream",
      "cache-control": "public, max-age=86400",
      "access-control-allow-origin": "*",
      "x-content-type-options": "nosniff",
    },
  });
};

export const renderAssetRoutes = new Hono<AppEnv>().get("/*", serveRenderAsset);
