/**
 * Bindings and variables of the Worker, as declared in wrangler.toml.
 * Secrets are documented there and in docs/configuration.md; locally they come from .dev.vars.
 */
import type { DeliveryMessage } from "./destinations/messages.ts";
import type { RenderMessage } from "./queues/messages.ts";

export interface Env {
  DB: D1Database;
  FILES: R2Bucket;
  IMAGE_QUEUE: Queue<RenderMessage>;
  VIDEO_QUEUE: Queue<RenderMessage>;
  /** Uploads of completed jobs' outputs to their destinations (src/destinations/deliver.ts). */
  DELIVERY_QUEUE: Queue<DeliveryMessage>;
  BROWSER: Fetcher;
  /** static/ (catalogue fonts, html-layer libraries), see scripts/build-render-assets.mjs. */
  ASSETS: Fetcher;
  /** The ImageBrowser Durable Object (typed where it is used, image-browser.ts, to keep this module a leaf). */
  IMAGE_BROWSER: DurableObjectNamespace;
  /** One WebhookEndpoint Durable Object per v2 webhook endpoint (typed where used, webhooks/announce.ts). */
  WEBHOOK_ENDPOINTS: DurableObjectNamespace;
  /** One CredentialGate Durable Object per API key or session (typed where used, auth/credential-gate.ts). */
  CREDENTIAL_GATES: DurableObjectNamespace;
  /** Cloudflare Container binding of the renderer (production). */
  RENDERER?: DurableObjectNamespace;
  /** Cloudflare Email Service (production sign-in mail); locally mail goes to the outbox table. */
  EMAIL?: SendEmail;
  /** Workers AI (production): Whisper transcribes autoSubtitles' audio when TRANSCRIPTION_BACKEND is workers-ai. */
  AI?: Ai;

  ENVIRONMENT: string;
  SERVICE_NAME: string;
  SERVICE_VERSION: string;
  /** Base URLs of renderers running as plain processes, comma-separated (local runs and tests). */
  RENDERER_URL?: string;
  /** Base URL of the renderer that probes uploads locally (default: the first of RENDERER_URL). */
  RENDERER_PROBE_URL?: string;
  /** Browser Rendering sessions image jobs are spread over (image concurrency; see image-browser.ts). */
  IMAGE_BROWSERS?: string;
  /** Seconds an image capture may take before its html layers' `wait` (default 20; see image-browser.ts). */
  IMAGE_CAPTURE_SECONDS?: string;
  /** Render instances of the RENDERER Container binding (production; `max_instances` less one for probes). */
  RENDERER_INSTANCES?: string;
  /**
   * Parallel rendering's threshold: a video job whose planned length x width x height (seconds x pixels) reaches it
   * renders as chunks on several renderers (docs/parallel-rendering.md). Default: a minute of 1280x720.
   */
  PARALLEL_RENDER_MIN_WORK?: string;
  /**
   * The shortest chunk of a captioned job, in seconds (default 300: each boundary makes both chunks beside it
   * transcribe the caption part across it; docs/parallel-rendering.md).
   */
  PARALLEL_CAPTIONED_CHUNK_SECONDS?: string;
  /** "true": googleFont may name any family of the hosted catalogue (fetched once, cached in R2). */
  FONT_CATALOGUE_ONLINE?: string;
  /** Base URL at which the renderer reaches this Worker (signed storage URLs, callbacks). */
  PUBLIC_URL: string;
  /** autoSubtitles' speech recogniser: "workers-ai" (the AI binding) or "pocketsphinx" (offline, the default). */
  TRANSCRIPTION_BACKEND?: string;

  /** Sender of sign-in mail, e.g. "Media Render <noreply@example.com>". */
  MAIL_FROM?: string;
  /**
   * "true": register and login need a captcha token, checked with the vendor (HCAPTCHA_SECRET). Outside development
   * only "false" turns it off (lib/captcha-on.ts).
   */
  CAPTCHA_ENABLED?: string;
  /** The captcha's public site key, for the widget on the console's sign-in pages (with CAPTCHA_ENABLED). */
  HCAPTCHA_SITE_KEY?: string;
  /** Sign-in attempt limits per hour: codes sent to one address, and auth requests from one IP. */
  AUTH_EMAIL_LIMIT_PER_HOUR?: string;
  AUTH_IP_LIMIT_PER_HOUR?: string;
  /** Price of 1,000 prepaid tokens in cents (USD). */
  TOKEN_PACK_PRICE_CENTS?: string;

  RENDERER_SECRET: string;
  STORAGE_SIGNING_SECRET: string;
  /** HMAC key of the sign-in codes stored in D1. */
  AUTH_SECRET: string;
  /**
   * Key material (>= 32 characters) that seals secrets the service must read back: webhook signing secrets, storage
   * connections' secret access keys.
   */
  DATA_ENCRYPTION_KEY: string;
  HCAPTCHA_SECRET?: string;
  /** The payment provider (Stripe): API key, and the secret its webhooks are signed with. */
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  ADMIN_USER?: string;
  ADMIN_PASSWORD?: string;
}

export const isDevelopment = (env: Pick<Env, "ENVIRONMENT">): boolean => env.ENVIRONMENT === "development";
