/**
 * A job run from the builder, through the public API as any client runs one: POST /api/v1/jobs, then its event
 * stream until it ends. Resolves to the finished job and the URL of its output (the session cookie authorises the
 * download); rejects with the ApiError of a refused job, or an Error saying why it failed.
 */
import { api, data, downloadUrl, followJob } from "../../shared/api.ts";
import type { CreateJobBody, Job } from "../../shared/api-types.ts";
import type { Doc } from "../model/store.ts";
import { withoutConditions } from "../service-code.ts";

export interface JobProgress {
  jobId: string;
  status: Job["status"];
  percent: number;
  stage: string | null;
}

export interface FinishedJob {
  job: Job;
  outputUrl: string;
}

export const runJob = async (
  doc: Doc,
  onProgress: (progress: JobProgress) => void,
  signal?: AbortSignal,
): Promise<FinishedJob> => {
  // A job knows no template conditions: every layer renders (a template render keeps the ones that hold).
  const created = await data(
    api.POST("/api/v1/jobs", {
      body: { type: doc.type, config: withoutConditions(doc.config) } as CreateJobBody,
    }),
  );
  const jobId = created.jobId;
  onProgress({ jobId, status: "PENDING", percent: 0, stage: null });
  const job = await new Promise<Job>((resolve, reject) => {
    let retries = 0;
    const stop = followJob(
      jobId,
      (event) => {
        if (event.event === "progress")
          onProgress({
            jobId,
            status: event.data.status,
            percent: event.data.progress?.percent ?? 0,
            stage: event.data.progress?.stage ?? null,
          });
        else resolve(event.data);
      },
      (reconnecting) => {
        if (!reconnecting || ++retries > 5) {
          stop();
          reject(new Error("The job's progress stream was lost: see the job in the console"));
        }
      },
    );
    signal?.addEventListener("abort", () => (stop(), reject(new DOMException("Stopped", "AbortError"))), {
      once: true,
    });
  });
  if (job.status !== "COMPLETED" || !job.outputFileId)
    throw new Error(
      job.status === "FAILED"
        ? `The render failed: ${job.errorMessage ?? "no reason given"}`
        : `The job ended ${job.status.toLowerCase()}`,
    );
  onProgress({ jobId, status: job.status, percent: 100, stage: null });
  return { job, outputUrl: downloadUrl(job.outputFileId) };
};
