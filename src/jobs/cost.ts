/**
 * Final token cost of a completed job (spec: Events, token rules).
 * - image: 2 + 1 per layer;
 * - video: 10 + 2 per started second of the reported output duration (partial seconds round up),
 *   or the reserved estimate when the renderer reports no duration.
 * The lifecycle caps the charge at the reserve.
 */
export const finalCost = (
  job: { type: "IMAGE" | "VIDEO"; config: Record<string, unknown>; tokensReserved: number },
  videoDuration?: number | null,
): number => {
  if (job.type === "IMAGE") {
    const layers = Array.isArray(job.config.layers) ? job.config.layers.length : 0;
    return 2 + layers;
  }
  if (videoDuration == null || !Number.isFinite(videoDuration) || videoDuration < 0)
    return job.tokensReserved;
  // Round to milliseconds first so 3.0000001 s of float noise does not cost another second.
  return 10 + 2 * Math.ceil(Math.round(videoDuration * 1000) / 1000);
};
