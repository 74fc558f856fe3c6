/**
 * Untrusted input parsed on a worker thread, not the renderer's main thread: a parser that a crafted file keeps busy
 * (or makes allocate) then stops at its time limit or heap ceiling, while the main thread goes on answering requests
 * and sending every held job's heartbeat (a blocked event loop lets the leases lapse and the Worker hands every job
 * of the renderer over).
 */
import { Worker } from "node:worker_threads";

/** What a worker module posts once: its result, or why it has none. */
export type WorkerAnswer<T> = { ok: true; value: T } | { ok: false; error: string };

export interface WorkerTaskOptions {
  /** What the task is, starting its errors ("captionsFile: reading the file"). */
  what: string;
  /** The longest it may take, start-up included (ms). */
  timeMs: number;
  /** The worker's heap ceiling (MB). */
  heapMb: number;
  signal?: AbortSignal;
}

/**
 * Runs the worker module at `url` with `input` as its workerData, resolving with the value it posts; rejects with
 * its error, or when it overruns `timeMs` or `heapMb` (the worker is terminated then), or when `signal` aborts.
 */
export const runWorkerTask = <T>(url: URL, input: unknown, options: WorkerTaskOptions): Promise<T> =>
  new Promise((resolve, reject) => {
    const worker = new Worker(url, {
      workerData: input,
      resourceLimits: {
        maxOldGenerationSizeMb: options.heapMb,
        maxYoungGenerationSizeMb: Math.min(16, options.heapMb),
      },
    });
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      settle();
    };
    const timer = setTimeout(
      () => finish(() => reject(new Error(`${options.what} took longer than ${options.timeMs / 1000} s`))),
      options.timeMs,
    );
    const onAbort = () =>
      finish(() => reject(options.signal!.reason ?? new Error(`${options.what} was stopped`)));
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    worker.once("message", (answer: WorkerAnswer<T>) =>
      finish(() =>
        answer.ok ? resolve(answer.value) : reject(new Error(`${options.what} failed: ${answer.error}`)),
      ),
    );
    worker.once("error", (e: Error & { code?: string }) =>
      finish(() =>
        reject(
          new Error(
            e.code === "ERR_WORKER_OUT_OF_MEMORY"
              ? `${options.what} needed more than ${options.heapMb} MB of memory`
              : `${options.what} failed: ${e.message}`,
          ),
        ),
      ),
    );
    worker.once("exit", (code) =>
      finish(() => reject(new Error(`${options.what} stopped (exit code ${code})`))),
    );
  });
