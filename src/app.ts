/** Builds the Hono app from the domain sub-apps. Every response, errors included, uses the spec's envelope. */
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./env";
import { fileRoutes } from "./files/routes";
import { healthRoutes } from "./health/routes";
import { jobRoutes } from "./jobs/routes";
import { notFound, onError } from "./lib/on-error";
import { rateLimit } from "./lib/rate-limit";
import { runnerRoutes } from "./runner/routes";
import { schemaRoutes } from "./schemas/routes";
import { storageRoutes } from "./storage/routes";
import { toolRoutes } from "./tools/routes";

export const createApp = () => {
  const app = new Hono<AppEnv>();
  app.use(requestId(), secureHeaders({ crossOriginResourcePolicy: false }));
  app.use("/api/*", rateLimit);
  app.route("/health", healthRoutes);
  app.route("/storage", storageRoutes);
  app.route("/api/v1/jobs", jobRoutes);
  app.route("/api/v1/files", fileRoutes);
  app.route("/api/v1/tools", toolRoutes);
  app.route("/api/v1/schemas", schemaRoutes);
  app.route("/api/v1/webhooks", runnerRoutes);
  app.notFound(notFound);
  app.onError(onError);
  return app;
};
