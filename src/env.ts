/**
 * Bindings and variables of the Worker, as declared in wrangler.toml.
 * Secrets are documented there and in the README; locally they come from .dev.vars.
 */
import type { ImageBrowser } from "./render/image/image-browser";
import type { RenderMessage } from "./queues/messages";

export interface Env {
  DB: D1Database;
  FILES: R2Bucket;
  IMAGE_QUEUE: Queue<RenderMessage>;
  VIDEO_QUEUE: Queue<RenderMessage>;
  BROWSER: Fetcher;
  /** static/ (catalogue fonts, html-layer libraries), see scripts/build-render-assets.mjs. */
  ASSETS: Fetcher;
  IMAGE_BROWSER: DurableObjectNamespace<ImageBrowser>;
  /** Cloudflare Container binding of the renderer (production). */
  RENDERER?: DurableObjectNamespace;

  ENVIRONMENT: string;
  SERVICE_NAME: string;
  SERVICE_VERSION: string;
  /** Base URL of a renderer running as a plain process (local runs and tests). */
  RENDERER_URL?: string;
  /** "true": catalogFont may name any family of the hosted catalogue (fetched once, cached in R2). */
  FONT_CATALOGUE_ONLINE?: string;
  /** Base URL at which the renderer reaches this Worker (signed storage URLs, callbacks). */
  PUBLIC_URL: string;

  RUNNER_SECRET: string;
  STORAGE_SIGNING_SECRET: string;
  ADMIN_USER?: string;
  ADMIN_PASSWORD?: string;
}

/** Hono's environment type for this app: bindings plus per-request variables set by middleware. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    auth: import("./auth/api-key").AuthContext;
  };
}

export const isProduction = (env: Pick<Env, "ENVIRONMENT">): boolean => env.ENVIRONMENT === "production";
