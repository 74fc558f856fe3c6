/** Builds the Hono app from the domain sub-apps. Every response, errors included, uses the spec's envelope. */
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./app-env";
import { browserAuthRoutes } from "./accounts/browser-routes";
import { accountRoutes, authRoutes } from "./accounts/routes";
import { billingRoutes } from "./billing/routes";
import { builderRoutes, renderAssetRoutes } from "./builder/routes";
import { consoleRoutes } from "./console/routes";
import { devRoutes } from "./dev/routes";
import { docsRoutes } from "./docs/routes";
import { fileRoutes } from "./files/routes";
import { healthRoutes } from "./health/routes";
import { jobRoutes } from "./jobs/routes";
import { apiKeyRoutes } from "./keys/routes";
import { notFound, onError } from "./lib/on-error";
import { requestContext } from "./lib/request-context";
import { mcpRoutes } from "./mcp/routes";
import { MOUNTS } from "./paths";
import { runnerRoutes } from "./runner-callback/routes";
import { schemaRoutes } from "./schemas/routes";
import { storageRoutes } from "./storage/routes";
import { batchRoutes, templateRoutes } from "./templates/routes";
import { toolRoutes } from "./tools/routes";
import { webhookRoutes } from "./webhooks/routes";

export const createApp = () => {
  const app = new Hono<AppEnv>();
  app.use(requestId(), secureHeaders({ crossOriginResourcePolicy: false }), requestContext);
  app.route(MOUNTS.health, healthRoutes);
  app.route(MOUNTS.storage, storageRoutes);
  app.route(MOUNTS.jobs, jobRoutes);
  app.route(MOUNTS.files, fileRoutes);
  app.route(MOUNTS.tools, toolRoutes);
  app.route(MOUNTS.schemas, schemaRoutes);
  app.route(MOUNTS.runnerWebhooks, runnerRoutes);
  app.route(MOUNTS.auth, authRoutes);
  app.route(MOUNTS.auth, browserAuthRoutes);
  app.route(MOUNTS.account, accountRoutes);
  app.route(MOUNTS.apiKeys, apiKeyRoutes);
  app.route(MOUNTS.billing, billingRoutes);
  app.route(MOUNTS.webhooksV2, webhookRoutes);
  app.route(MOUNTS.templates, templateRoutes);
  app.route(MOUNTS.batches, batchRoutes);
  app.route(MOUNTS.dev, devRoutes);
  app.route(
    MOUNTS.docs,
    docsRoutes(() => app),
  );
  app.route(MOUNTS.mcp, mcpRoutes);
  app.route(MOUNTS.builder, builderRoutes);
  app.route(MOUNTS.render, renderAssetRoutes);
  app.route("/", consoleRoutes);
  app.notFound(notFound);
  app.onError(onError);
  return app;
};
