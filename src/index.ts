/** Entry point: wires the HTTP app, the queue consumers and the crons, and exports the Durable Object classes. */
import { createApp } from "./app.ts";
import type { Env } from "./env.ts";
import { handleQueue } from "./queues/consumer.ts";
import { handleScheduled } from "./scheduled.ts";

export { CredentialGate } from "./auth/credential-gate.ts";
export { ImageBrowser } from "./image-renderer/image-browser.ts";
export { RendererContainer } from "./renderer/container.ts";
export { WebhookEndpoint } from "./webhooks/endpoint-object.ts";

const app = createApp();

export default {
  fetch: app.fetch,
  queue: handleQueue,
  scheduled: handleScheduled,
} satisfies ExportedHandler<Env, unknown>;
