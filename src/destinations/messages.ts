/** Bodies of the deliver-outputs queue's messages, validated by its consumer (a queue is a trust boundary too). */
import * as v from "valibot";

/** Make an attempt at delivery `deliveryId` (src/destinations/deliver.ts). */
export const DeliveryMessage = v.object({ kind: v.literal("deliver"), deliveryId: v.string() });
export type DeliveryMessage = v.InferOutput<typeof DeliveryMessage>;
