/**
 * A loopback stand-in for the Worker as the renderer sees it: it takes the PUT of a finished file and the signed
 * status callbacks, and lets a test wait for a job's final report.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Report {
  jobId: string;
  status: string;
  attempt?: number;
  error?: string;
  retryable?: boolean;
  metadata?: { stage?: string; progress?: number };
}

export interface WorkerStandIn {
  base: string;
  reports: Report[];
  /** The first non-processing report of `jobId` (optionally of one attempt). */
  final(jobId: string, attempt?: number): Promise<Report>;
  /** Resolves when a processing report of `jobId` names `stage`. */
  stage(jobId: string, stage: string): Promise<void>;
  close(): Promise<void>;
}

export async function startWorkerStandIn(): Promise<WorkerStandIn> {
  const reports: Report[] = [];
  const waiters: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/callback") {
        reports.push(JSON.parse(Buffer.concat(chunks).toString()) as Report);
        for (const w of waiters.splice(0)) w();
      }
      res.end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const until = <T>(find: () => T | undefined): Promise<T> =>
    new Promise((resolve) => {
      const check = () => {
        const found = find();
        if (found !== undefined) resolve(found);
        else waiters.push(check);
      };
      check();
    });
  return {
    base,
    reports,
    final: (jobId, attempt) =>
      until(() =>
        reports.find(
          (r) =>
            r.jobId === jobId &&
            r.status !== "processing" &&
            (attempt === undefined || r.attempt === attempt),
        ),
      ),
    stage: (jobId, stage) =>
      until(() =>
        reports.some((r) => r.jobId === jobId && r.metadata?.stage === stage) ? true : undefined,
      ).then(() => {}),
    close: () => new Promise((r) => server.close(() => r())),
  };
}
