/** The answers of the public health routes. */
import * as v from "valibot";
import { Timestamp } from "../lib/envelope.ts";

/** GET /health: the service is up. */
export const Health = v.object({
  status: v.literal("healthy"),
  timestamp: Timestamp,
  service: v.string(),
  version: v.string(),
  environment: v.pipe(v.string(), v.description("production or development")),
});
export type Health = v.InferOutput<typeof Health>;
