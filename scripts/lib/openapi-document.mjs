// The OpenAPI document exactly as the Worker builds it (src/docs/openapi.ts on the app of src/app.ts), built in
// Node: the Worker's TypeScript bundled by esbuild as wrangler bundles it for workerd (as scripts/key.mjs does for
// its verbs), with the modules only workerd provides stubbed; describing routes never calls them. Origin
// http://127.0.0.1:8787, as `npm start` serves it. test/worker/docs.test.ts holds client/openapi.json (written
// from this) to what the Worker itself serves.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export const LOCAL_ORIGIN = "http://127.0.0.1:8787";

/** Modules of the Workers runtime: any name imported from them is an inert class. */
const WORKERD_ONLY = /^(cloudflare:.*|@cloudflare\/(containers|puppeteer))$/;
const STUB =
  "module.exports = new Proxy({}, { get: (_, name) => (name === '__esModule' ? false : class {}) });";

/** The document the Worker serves at `origin`. */
export const servedDocument = async (root, origin = LOCAL_ORIGIN) => {
  const { build } = await import("esbuild");
  const out = mkdtempSync(join(tmpdir(), "mrs-openapi-"));
  try {
    const entry = join(out, "document.mjs");
    await build({
      stdin: {
        contents: `import { createApp } from ${JSON.stringify(join(root, "src/app.ts"))};
          import { openApiDocument } from ${JSON.stringify(join(root, "src/docs/openapi.ts"))};
          export const document = (origin) => openApiDocument(createApp(), origin);`,
        resolveDir: root,
        loader: "ts",
      },
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: entry,
      logLevel: "error",
      // Bundled CommonJS packages call require() for Node's own modules.
      banner: {
        js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
      },
      plugins: [
        {
          name: "workerd-only",
          setup(pluginBuild) {
            pluginBuild.onResolve({ filter: WORKERD_ONLY }, (args) => ({
              path: args.path,
              namespace: "workerd-only",
            }));
            pluginBuild.onLoad({ filter: /.*/, namespace: "workerd-only" }, () => ({
              contents: STUB,
              loader: "js",
            }));
          },
        },
      ],
    });
    const { document } = await import(pathToFileURL(entry).href);
    return JSON.parse(JSON.stringify(await document(origin)));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
};
