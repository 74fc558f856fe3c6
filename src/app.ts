/** Builds the Hono app from the domain sub-apps. Every response, errors included, uses the spec's envelope. */
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./app-env.ts";
import { browserAuthRoutes } from "./accounts/browser-routes.ts";
import { accountRoutes, authRoutes } from "./accounts/routes.ts";
import { billingRoutes } from "./billing/routes.ts";
import { builderRoutes, renderAssetRoutes } from "./builder/routes.ts";
import { consoleRoutes } from "./console/routes.ts";
import { devRoutes } from "./dev/routes.ts";
import { llmsRoutes } from "./docs/llms-txt.ts";
import { docsRoutes } from "./docs/routes.ts";
import { fileRoutes } from "./files/routes.ts";
import { healthRoutes } from "./health/routes.ts";
import { jobRoutes } from "./jobs/routes.ts";
import { apiKeyRoutes } from "./keys/routes.ts";
import { notFound, onError } from "./lib/on-error.ts";
import { requestContext } from "./request-context.ts";
import { mcpRoutes } from "./mcp/routes.ts";
import { MOUNTS } from "./paths.ts";
import { rendererRoutes } from "./renderer/routes.ts";
import { schemaRoutes } from "./schemas/routes.ts";
import { storageRoutes } from "./storage/routes.ts";
import { batchRoutes } from "./templates/batch-routes.ts";
import { templateRoutes } from "./templates/routes.ts";
import { toolRoutes } from "./tools/routes.ts";
import { webhookRoutes } from "./webhooks/routes.ts";
import { storageConnectionRoutes } from "./destinations/routes.ts";

export const createApp = () => {
  const app = new Hono<AppEnv>();
  app.use(requestId(), secureHeaders({ crossOriginResourcePolicy: false }), requestContext);
  app.route(MOUNTS.health, healthRoutes);
  app.route(MOUNTS.storage, storageRoutes);
  app.route(MOUNTS.jobs, jobRoutes);
  app.route(MOUNTS.files, fileRoutes);
  app.route(MOUNTS.tools, toolRoutes);
  app.route(MOUNTS.schemas, schemaRoutes);
  app.route(MOUNTS.renderer, rendererRoutes);
  app.route(MOUNTS.auth, authRoutes);
  app.route(MOUNTS.auth, browserAuthRoutes);
  app.route(MOUNTS.account, accountRoutes);
  app.route(MOUNTS.apiKeys, apiKeyRoutes);
  app.route(MOUNTS.billing, billingRoutes);
  app.route(MOUNTS.webhooksV2, webhookRoutes);
  app.route(MOUNTS.storageConnections, storageConnectionRoutes);
  app.route(MOUNTS.templates, templateRoutes);
  app.route(MOUNTS.batches, batchRoutes);
  app.route(MOUNTS.dev, devRoutes);
  app.route(
    MOUNTS.docs,
    docsRoutes(() => app),
  );
  app.route(
    MOUNTS.mcp,
    mcpRoutes(() => app),
  );
  app.route(MOUNTS.llms, llmsRoutes);
  app.route(MOUNTS.builder, builderRoutes);
  app.route(MOUNTS.render, renderAssetRoutes);
  app.route("/", consoleRoutes);
  app.notFound(notFound);
  app.onError(onError);
  return app;
};
