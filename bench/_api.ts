/**
 * The service's API as the benchmarks that drive `npm start` call it (playhead.ts, long-split.ts): requests with an
 * API key that throw on any answer but 2xx, uploads of fixtures, and a job run to its end with its output in hand.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { performance } from "node:perf_hooks";

export interface Api {
  /** A request to the service with the current key; throws on an answer that is not 2xx. */
  call: (path: string, init?: RequestInit) => Promise<Response>;
  /** Uploads a file; its storage URL. */
  upload: (path: string) => Promise<string>;
  /** Creates a video job, polls it every `pollMs` to COMPLETED (throws if it fails) and downloads its output. */
  render: (config: object, pollMs: number) => Promise<{ jobId: string; seconds: number; output: Uint8Array }>;
}

/** The API at `base` with the key `key()` gives at each request (a bench may change accounts between rounds). */
export const serviceApi = (base: string, key: () => string): Api => {
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}${path}`, { ...init, headers: { "x-api-key": key(), ...init.headers } });
    if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  const upload = async (path: string) => {
    const form = new FormData();
    form.set("file", new File([readFileSync(path)], basename(path)));
    const res = await call("/api/v1/files/upload", { method: "POST", body: form });
    return ((await res.json()) as { data: { storageUrl: string } }).data.storageUrl;
  };
  const render = async (config: object, pollMs: number) => {
    const t0 = performance.now();
    const created = await call("/api/v1/jobs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "video", config }),
    });
    const { jobId } = ((await created.json()) as { data: { jobId: string } }).data;
    for (;;) {
      const job = (
        (await (await call(`/api/v1/jobs/${jobId}`)).json()) as {
          data: { status: string; outputFileId?: string; errorMessage?: string };
        }
      ).data;
      if (job.status === "FAILED") throw new Error(`job ${jobId} failed: ${job.errorMessage}`);
      if (job.status === "COMPLETED") {
        const output = new Uint8Array(
          await (await call(`/api/v1/files/${job.outputFileId}/download`)).arrayBuffer(),
        );
        return { jobId, seconds: (performance.now() - t0) / 1000, output };
      }
      await new Promise((r) => setTimeout(r, pollMs));
    }
  };
  return { call, upload, render };
};
