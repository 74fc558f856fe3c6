/**
 * A loopback stand-in for the Worker as the renderer sees it: it serves input files (`GET /files/<fixture>`, from
 * the shared fixtures, or bytes a test gave it with `serve`), counts every request it got, keeps the PUTs of finished files and the signed status callbacks, and lets a test wait
 * for a job's final report.
 */
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { FIXTURES } from "../video/media-helpers.ts";

export interface Report {
  jobId: string;
  status: string;
  attempt?: number;
  /** A chunk's report: its index. */
  chunk?: number;
  error?: string;
  retryable?: boolean;
  fault?: string;
  metadata?: { stage?: string; progress?: number; [key: string]: unknown };
}

/** A file the renderer PUT: its Content-Type and bytes. */
export interface Put {
  type?: string;
  bytes: Buffer;
}

export interface WorkerStandIn {
  base: string;
  reports: Report[];
  /** PUT bodies by path (without the query). */
  puts: Map<string, Put>;
  /** The first non-processing report of `jobId` (optionally of one attempt). */
  final(jobId: string, attempt?: number): Promise<Report>;
  /** The first report `find` accepts, once it arrives. */
  report(find: (r: Report) => boolean): Promise<Report>;
  /** Resolves when a processing report of `jobId` names `stage`. */
  stage(jobId: string, stage: string): Promise<void>;
  /** Serves `bytes` at `GET /files/<name>` (before the fixture of that name). */
  serve(name: string, bytes: Uint8Array): void;
  /** Every request's method and path, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** `extra`: more files served at `/files/<name>` besides the fixtures (a captions file, a shader a test wrote). */
export const startWorkerStandIn = async (extra: Record<string, string> = {}): Promise<WorkerStandIn> => {
  const reports: Report[] = [];
  const puts = new Map<string, Put>();
  const waiters: (() => void)[] = [];
  const served = new Map<string, Uint8Array>(
    Object.entries(extra).map(([name, text]) => [name, new TextEncoder().encode(text)]),
  );
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const path = req.url!.split("?")[0]!;
      requests.push(`${req.method} ${path}`);
      if (req.method === "GET" && path.startsWith("/files/")) {
        const name = path.slice("/files/".length);
        try {
          res.end(served.get(name) ?? (await readFile(join(FIXTURES, name))));
        } catch {
          res.statusCode = 404;
          res.end();
        }
        return;
      }
      if (req.method === "PUT")
        puts.set(path, { type: req.headers["content-type"], bytes: Buffer.concat(chunks) });
      if (req.method === "POST" && path === "/callback") {
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
    puts,
    final: (jobId, attempt) =>
      until(() =>
        reports.find(
          (r) =>
            r.jobId === jobId &&
            r.status !== "processing" &&
            (attempt === undefined || r.attempt === attempt),
        ),
      ),
    report: (find) => until(() => reports.find(find)),
    stage: (jobId, stage) =>
      until(() =>
        reports.some((r) => r.jobId === jobId && r.metadata?.stage === stage) ? true : undefined,
      ).then(() => {}),
    serve: (name, bytes) => void served.set(name, bytes),
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
};
