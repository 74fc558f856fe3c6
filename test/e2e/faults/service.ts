/**
 * The end-to-end suite's service (global-setup.ts: `npm start` with two renderers, RENDERERS=2, on free ports, a
 * throw-away state, its renderers' pids in a file) as the fault suites drive it over HTTP (service-faults,
 * chunk-faults): each suite signs up its own Pro account with `npm run key`, so its balance is its own.
 * `serviceUnderTest()` returns helpers bound to that service and account; the suites run after every other file
 * (vitest.config.ts) because they kill and freeze the renderers.
 */
import { readFileSync } from "node:fs";
import { inject } from "vitest";
import { mintKey, waitForUrl } from "../../../scripts/lib/processes.mjs";
import { until } from "../../poll.ts";

/** A job as the suites read it back (GET /api/v1/jobs/{id}). */
export interface Job {
  status: string;
  tokensUsed: number;
  errorMessage: string | null;
  outputFileId: string | null;
  progress: { percent: number; stage: string | null } | null;
}

export const serviceUnderTest = (name: string) => {
  const service = inject("service");
  const state = { base: inject("baseUrl"), key: "", stateDir: inject("stateDir"), ...service };

  /** A Pro account of this suite's own, its key made as a user makes one (`npm run key`). */
  const start = async () => {
    state.key = await mintKey(process.cwd(), service.env, { email: `${name}@example.com` });
  };

  const api = async <T = Record<string, unknown>>(path: string, init: RequestInit = {}) => {
    const res = await fetch(`${state.base}${path}`, {
      ...init,
      headers: { "x-api-key": state.key, "content-type": "application/json", ...init.headers },
    });
    return { status: res.status, body: (await res.json()) as { data: T } };
  };

  const job = async (id: string) => (await api<Job>(`/api/v1/jobs/${id}`)).body.data;

  /** Polls the job to its end, noting every progress percent seen. */
  const finished = (id: string, timeoutMs = 120_000, percents: number[] = []) =>
    until(
      `job ${id} to finish`,
      async () => {
        const j = await job(id);
        if (j.progress) percents.push(j.progress.percent);
        return j.status === "COMPLETED" || j.status === "FAILED" ? j : undefined;
      },
      timeoutMs,
    );

  /**
   * How many renders each renderer runs now (its /health capacity); 0 for one that does not answer within 5 s (a
   * killed or frozen one; a rendering one answers in milliseconds, tens of them on a loaded machine).
   */
  const running = async () => (await capacities()).map((c) => c.running);

  /**
   * Each renderer's /health capacity: renders running now and renders it finished since it started (zeros for one
   * that does not answer within 5 s).
   */
  const capacities = async () =>
    Promise.all(
      state.rendererPorts.map(async (port) => {
        const h = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(5000) })
          .then((r) => r.json() as Promise<{ capacity: { running: number; finished: number } }>)
          .catch(() => null);
        return { running: h?.capacity.running ?? 0, finished: h?.capacity.finished ?? 0 };
      }),
    );

  /** Current renderer pids, as npm start wrote them (they change when it restarts one). */
  const pids = (): number[] =>
    (JSON.parse(readFileSync(state.pidsFile, "utf8")) as { pid: number }[]).map((r) => r.pid);

  /** Waits until npm start has both renderers answering again. */
  const renderersBack = async () => {
    for (const port of state.rendererPorts) await waitForUrl(`http://127.0.0.1:${port}/health`, 30_000);
  };

  return { state, start, api, job, finished, running, capacities, pids, renderersBack };
};
