/** Entry point: wires the HTTP app, the queue consumers and the crons, and exports the Durable Object classes. */
import { createApp } from "./app";
import type { Env } from "./env";
import { handleQueue } from "./queues/consumer";
import { handleScheduled } from "./scheduled";

export { CredentialGate } from "./auth/credential-gate";
export { ImageBrowser } from "./image-renderer/image-browser";
export { RendererContainer } from "./renderer/container";
export { WebhookEndpoint } from "./webhooks/endpoint-object";

const app = createApp();

export default {
  fetch: app.fetch,
  queue: handleQueue,
  scheduled: handleScheduled,
} satisfies ExportedHandler<Env, unknown>;
