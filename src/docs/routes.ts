/**
 * /api/v1/user-api/docs: the OpenAPI document (no key: it describes, it grants nothing) and its UI, Swagger UI
 * from the swagger-ui-dist npm package served through the ASSETS binding (no CDN; works offline). The UI page is
 * answered under the console's Content-Security-Policy (scripts, styles and requests of this origin only, no inline
 * script, no framing), like every other page of this origin.
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { contentSecurityPolicy } from "../console/policy.ts";
import { NotFound } from "../lib/errors.ts";
import { MOUNTS } from "../paths.ts";
import { openApiDocument } from "./openapi.ts";

const UI_FILES: Record<string, string> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
};

const UI_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Media rendering service API</title>
<link rel="stylesheet" href="${MOUNTS.docs}/ui/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="${MOUNTS.docs}/ui/swagger-ui-bundle.js"></script>
<script src="${MOUNTS.docs}/ui/init.js"></script>
</body>
</html>
`;

/** Swagger UI's start: the document beside this page; "Try it out" sends the key the user enters. */
const UI_INIT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(MOUNTS.docs)},
  dom_id: "#docs",
  deepLinking: true,
  persistAuthorization: false,
  tryItOutEnabled: false,
});
`;

/** Routes of the docs; `app` is the whole API, described at request time (the document is built once per isolate). */
export const docsRoutes = (app: () => Hono<AppEnv>) => {
  let cached: { origin: string; doc: Promise<unknown> } | undefined;
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      const origin = new URL(c.req.url).origin;
      if (cached?.origin !== origin) cached = { origin, doc: openApiDocument(app(), origin) };
      c.header("cache-control", "public, max-age=300");
      return c.json(await cached.doc);
    })
    .get("/ui", (c) => {
      c.header("content-security-policy", contentSecurityPolicy(c.env, { captcha: false }));
      return c.html(UI_PAGE);
    })
    .get("/ui/init.js", (c) => c.body(UI_INIT, 200, { "content-type": "text/javascript; charset=utf-8" }))
    .get("/ui/:file", async (c) => {
      const file = c.req.param("file");
      const type = UI_FILES[file];
      if (!type) throw new NotFound("File");
      const res = await c.env.ASSETS.fetch(new Request(`https://static.local/docs/${file}`));
      if (!res.ok) throw new NotFound("File");
      return new Response(res.body, {
        headers: { "content-type": type, "cache-control": "public, max-age=86400" },
      });
    });
};
