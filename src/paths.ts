/**
 * Where each domain is mounted: the one list `app.ts` mounts and every other module builds links from
 * (signed download links, the renderer's callback URL, storage URLs).
 */
import { CALLBACK_PATH, SPEAK_PATH, TRANSCRIBE_PATH } from "@media-render/contract/wire";

export const MOUNTS = {
  health: "/health",
  storage: "/storage",
  jobs: "/api/v1/jobs",
  files: "/api/v1/files",
  tools: "/api/v1/tools",
  schemas: "/api/v1/schemas",
  /** The renderer's status callback and its health route (the spec's paths; src/renderer/routes.ts). */
  renderer: "/api/v1/webhooks",
  auth: "/api/v1/auth",
  account: "/api/v1/account",
  apiKeys: "/api/v1/api-keys",
  billing: "/api/v1/billing",
  /** The OpenAPI document and its UI. */
  docs: "/api/v1/user-api/docs",
  /** The builder page and its preview page. */
  builder: "/builder",
  /** The bundled fonts and html-layer libraries (static/render) the builder's preview draws with. */
  render: "/render",
  /** The console's pages (besides `/`, `/sign-in`, `/sign-up`, `/terms`; src/console/routes.ts). */
  console: "/console",
  /** The web build's files (web/, built into static/web). */
  web: "/web",
  /** v2 templates and their batches. */
  templates: "/api/v2/templates",
  batches: "/api/v2/batches",
  /** The MCP endpoint (Streamable HTTP). */
  mcp: "/mcp",
  /** The config-writing guide for agents (plain text, https://llmstxt.org). */
  llms: "/llms.txt",
  /** v2 render webhooks (customer endpoints, deliveries). */
  webhooksV2: "/api/v2/webhooks",
  /** v2 storage connections: the S3-compatible buckets jobs deliver their outputs to. */
  storageConnections: "/api/v2/storage-connections",
  /** Local helpers (outbox, stand-in checkout), development only. */
  dev: "/dev",
} as const;

/**
 * The paths the console's router draws (each path and everything under it, but `/` itself only), answered with the
 * web build's index.html (src/console/routes.ts).
 */
export const CONSOLE_PAGES = ["/", "/sign-in", "/sign-up", "/terms", MOUNTS.console] as const;

/** The callback route inside its mount (the full path is the contract's, which the renderer posts to). */
export const CALLBACK_ROUTE = CALLBACK_PATH.slice(MOUNTS.renderer.length);
if (`${MOUNTS.renderer}${CALLBACK_ROUTE}` !== CALLBACK_PATH)
  throw new Error("the renderer callback path must live under the renderer's mount");

/** Workers AI transcription for the renderer (autoSubtitles), inside the same mount. */
export const TRANSCRIBE_ROUTE = TRANSCRIBE_PATH.slice(MOUNTS.renderer.length);
/** Workers AI speech for the renderer (`speech` layers), inside the same mount. */
export const SPEAK_ROUTE = SPEAK_PATH.slice(MOUNTS.renderer.length);

/** `GET` of a file's bytes (API key or signed link). */
export const downloadPath = (fileId: string) => `${MOUNTS.files}/${encodeURIComponent(fileId)}/download`;
