/** The answers of the public health routes. */
import * as v from "valibot";
import { Timestamp } from "../lib/envelope";

/** GET /health: the service is up. */
export const Health = v.object({
  status: v.literal("healthy"),
  timestamp: Timestamp,
  service: v.string(),
  version: v.string(),
  environment: v.pipe(v.string(), v.description("production or development")),
});
export type Health = v.InferOutput<typeof Health>;

/** GET /api/v1/webhooks/health: the renderer's callback route is up. */
export const CallbackHealth = v.object({
  status: v.literal("healthy"),
  timestamp: Timestamp,
  webhookEndpoint: v.pipe(v.string(), v.description("The callback's path")),
});
export type CallbackHealth = v.InferOutput<typeof CallbackHealth>;
