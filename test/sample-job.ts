/** A finished image job as GET /api/v1/jobs/{id} answers it: the unit tests of the client and the contract checker. */
export const at = "2026-11-21T10:00:00.000Z";

export const job = {
  id: "job_1",
  type: "IMAGE",
  status: "COMPLETED",
  outputFormat: "png",
  outputFileId: "file_1",
  tokensUsed: 4,
  errorMessage: null,
  startedAt: at,
  completedAt: at,
  createdAt: at,
  updatedAt: at,
  progress: { percent: 100, stage: null },
  config: { width: 10 },
  inputFileIds: [],
  priority: 5,
  webhookUrl: null,
  metadata: { orderId: "A-1" },
};
