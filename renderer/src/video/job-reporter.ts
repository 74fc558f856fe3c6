/**
 * A video job's reports to the Worker: progress at most once a second, a heartbeat (which renews the job's lease)
 * when nothing else was sent, and the final report once the previous one is out (run-job.ts).
 */
import {
  HEARTBEAT_INTERVAL_MS,
  type RenderVideoRequest,
  type StatusReport,
} from "@media-render/contract/wire";
import type { AppDeps } from "../deps.ts";
import { joinPercent } from "./chunks.ts";
import { sendCallback } from "./delivery.ts";

const PROGRESS_INTERVAL_MS = 1000;

/** Sends a job's reports: progress at most once a second, a heartbeat when nothing else was sent, the final one. */
export class Reporter {
  private lastSent = 0;
  private percent = 0;
  private stage = "queued";
  private inFlight: Promise<unknown> = Promise.resolve();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly deps: AppDeps;
  private readonly job: RenderVideoRequest;

  constructor(deps: AppDeps, job: RenderVideoRequest) {
    this.deps = deps;
    this.job = job;
    this.heartbeat = setInterval(() => {
      if (Date.now() - this.lastSent >= HEARTBEAT_INTERVAL_MS - 250) this.send();
    }, HEARTBEAT_INTERVAL_MS / 2);
    this.heartbeat.unref();
  }

  base(status: StatusReport["status"]): StatusReport {
    return {
      jobId: this.job.jobId,
      status,
      type: "video",
      timestamp: new Date().toISOString(),
      ...(this.job.attempt === undefined ? {} : { attempt: this.job.attempt }),
      ...(this.job.chunk && { chunk: this.job.chunk.index }),
    };
  }

  progress(percent: number, stage: string): void {
    this.percent = joinPercent(this.job, percent);
    this.stage = stage;
    if (Date.now() - this.lastSent >= PROGRESS_INTERVAL_MS) this.send();
  }

  private send(): void {
    this.lastSent = Date.now();
    const report = { ...this.base("processing"), metadata: { progress: this.percent, stage: this.stage } };
    this.inFlight = sendCallback(this.job.callbackUrl, this.deps.config.rendererSecret, report, 0);
  }

  async final(report: StatusReport | null): Promise<void> {
    clearInterval(this.heartbeat);
    await this.inFlight.catch(() => {});
    if (report) await sendCallback(this.job.callbackUrl, this.deps.config.rendererSecret, report, 4);
  }
}
