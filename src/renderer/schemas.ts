/** The answer of the renderer callback's public health route. */
import * as v from "valibot";
import { Timestamp } from "../lib/envelope.ts";

/** GET /api/v1/webhooks/health: the renderer's callback route is up. */
export const CallbackHealth = v.object({
  status: v.literal("healthy"),
  timestamp: Timestamp,
  webhookEndpoint: v.pipe(v.string(), v.description("The callback's path")),
});
export type CallbackHealth = v.InferOutput<typeof CallbackHealth>;
