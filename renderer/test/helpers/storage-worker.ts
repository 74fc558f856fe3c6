/**
 * The Worker's signed storage route (src/storage/routes.ts) running in workerd with a local R2 bucket, started by
 * wrangler's own dev harness: what the renderer's uploads and downloads meet in `npm start`, without the rest of the
 * service. Two test-only paths beside it: `/__sign?method=&key=&ttl=&base=` answers a signed URL made by the Worker's
 * own signer, `/__object?key=` the stored object's size, SHA-256 (streamed) and type, or 404.
 * Everything wrangler writes (its config, bundle and local state) is in a temporary folder, never the checkout.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { unstable_startWorker } from "wrangler";

const STORAGE = fileURLToPath(new URL("../../../src/storage/", import.meta.url));
// The Worker's Hono and error mapping, so the route answers exactly as it does inside the service's app.
const NODE_MODULES = fileURLToPath(new URL("../../../node_modules/", import.meta.url));
const LIB = fileURLToPath(new URL("../../../src/lib/", import.meta.url));

const entry = () => `
import { Hono } from ${JSON.stringify(`${NODE_MODULES}hono/dist/index.js`)};
import { notFound, onError } from ${JSON.stringify(`${LIB}on-error.ts`)};
import { storageRoutes } from ${JSON.stringify(`${STORAGE}routes.ts`)};
import { signedStorageUrl } from ${JSON.stringify(`${STORAGE}signed-url.ts`)};

const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
const app = new Hono();
app.get("/__sign", async (c) => {
  const q = c.req.query();
  const opts = { secret: c.env.STORAGE_SIGNING_SECRET, baseUrl: q.base ?? new URL(c.req.url).origin, method: q.method };
  return c.text(await signedStorageUrl(opts, q.key, Number(q.ttl ?? 600)));
});
app.get("/__object", async (c) => {
  const object = await c.env.FILES.get(c.req.query("key"));
  if (!object) return c.json(null, 404);
  const digest = new crypto.DigestStream("SHA-256");
  await object.body.pipeTo(digest);
  return c.json({ size: object.size, sha256: hex(await digest.digest), type: object.httpMetadata?.contentType });
});
app.route("/storage", storageRoutes);
app.notFound(notFound);
app.onError(onError);
export default app;
`;

export interface StorageWorker {
  /** http://127.0.0.1:<port> */
  base: string;
  /** A signed URL of `key` (at `base`, default the Worker's own), valid `ttl` seconds. */
  sign(method: "GET" | "PUT", key: string, opts?: { ttl?: number; base?: string }): Promise<string>;
  /** The object stored at `key`, or null. */
  object(key: string): Promise<{ size: number; sha256: string; type?: string } | null>;
  close(): Promise<void>;
}

export const startStorageWorker = async (): Promise<StorageWorker> => {
  const dir = await mkdtemp(join(tmpdir(), "storage-worker-"));
  await writeFile(join(dir, "entry.ts"), entry());
  await writeFile(
    join(dir, "wrangler.json"),
    JSON.stringify({
      name: "storage-test",
      main: "entry.ts",
      // As wrangler.toml: not newer than the bundled workerd.
      compatibility_date: "2026-08-01",
      compatibility_flags: ["nodejs_compat"],
      r2_buckets: [{ binding: "FILES", bucket_name: "files" }],
      vars: { STORAGE_SIGNING_SECRET: randomBytes(16).toString("hex") },
    }),
  );
  const cfFetch = process.env.CLOUDFLARE_CF_FETCH_ENABLED;
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false"; // offline: no Request.cf download (read as workerd starts)
  const worker = await unstable_startWorker({
    config: join(dir, "wrangler.json"),
    dev: {
      server: { hostname: "127.0.0.1", port: 0 },
      inspector: false,
      persist: join(dir, "state"),
      watch: false,
      logLevel: "error",
    },
  });
  let base: string;
  try {
    await worker.ready;
    base = (await worker.url).origin;
  } finally {
    if (cfFetch === undefined) delete process.env.CLOUDFLARE_CF_FETCH_ENABLED;
    else process.env.CLOUDFLARE_CF_FETCH_ENABLED = cfFetch;
  }
  return {
    base,
    sign: async (method, key, opts = {}) => {
      const q = new URLSearchParams({
        method,
        key,
        ttl: String(opts.ttl ?? 600),
        ...(opts.base && { base: opts.base }),
      });
      return (await fetch(`${base}/__sign?${q}`)).text();
    },
    object: async (key) => {
      const res = await fetch(`${base}/__object?${new URLSearchParams({ key })}`);
      return res.status === 404
        ? null
        : ((await res.json()) as { size: number; sha256: string; type?: string });
    },
    close: async () => {
      await worker.dispose();
      await rm(dir, { recursive: true, force: true });
    },
  };
};
