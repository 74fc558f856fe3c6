/**
 * The renderer's admission control: at most `slots` renders at once, at most `maxWaiting` more accepted and
 * waiting, and at most `perAccount` of all those from one account. Past any of them an offer is refused
 * ("busy"; with `startNow`, also when no slot is free now): the Worker's queue is the durable, unbounded one, so the renderer never buffers more than it can
 * start soon. A free slot goes to the waiting job whose account runs the fewest renders (oldest first among
 * equals), so one account's backlog never starves another's first job. Each job owns an AbortController:
 * cancelling (the Worker's cancel route, a deadline, shutdown) aborts it with a reason the job reads.
 */

/**
 * Why a job was aborted: the Worker cancelled it, its deadline passed, its processes held more than its share of
 * memory, or the renderer is shutting down.
 */
export type AbortReason = "cancelled" | "deadline" | "memory" | "shutdown";

export interface QueuedJob {
  id: string;
  /** The Worker's hand-over number: a newer attempt of the same job replaces an older one. */
  attempt: number;
  account: string;
  /** Runs the job; `signal` aborts with an {@link AbortReason}. Never rejects (errors are the job's business). */
  run: (signal: AbortSignal) => Promise<void>;
  /** Called once the offer is accepted (the job's heartbeat starts then). */
  onAccepted?: () => void;
}

export type Offer =
  | { accepted: true }
  | { accepted: false; reason: "full" | "account"; retryAfterSeconds: number };

export interface QueueLimits {
  slots: number;
  maxWaiting: number;
  perAccount: number;
}

interface Entry extends QueuedJob {
  controller: AbortController;
  running: boolean;
}

/**
 * A slot frees every few seconds for short jobs (measured: 1-3 s for the bench's mix); a refused offer waits this
 * long per job ahead of it. Shorter would re-offer more often than slots free; longer leaves renderers idle.
 */
const SECONDS_PER_JOB_AHEAD = 2;
const MAX_RETRY_AFTER_SECONDS = 30;

export class RenderQueue {
  readonly limits: QueueLimits;
  private readonly entries: Entry[] = [];
  /** Renders that ran to their end (any outcome) since start: /health reports it, the benchmark reads the spread. */
  finished = 0;

  constructor(limits: QueueLimits) {
    this.limits = {
      slots: Math.max(1, limits.slots),
      maxWaiting: Math.max(0, limits.maxWaiting),
      perAccount: Math.max(1, limits.perAccount),
    };
  }

  /** Entries not aborted: an aborted render is being killed and no longer counts against any limit. */
  private live(): Entry[] {
    return this.entries.filter((e) => !e.controller.signal.aborted);
  }

  get running(): number {
    return this.live().filter((e) => e.running).length;
  }

  get waiting(): number {
    return this.live().filter((e) => !e.running).length;
  }

  /** Every job held (waiting or running), for heartbeats and /health. */
  held(): { id: string; attempt: number; running: boolean }[] {
    return this.live().map(({ id, attempt, running }) => ({ id, attempt, running }));
  }

  /**
   * Accepts the job or says why not. The same job and attempt offered twice (a redelivered hand-over) is accepted
   * once; a newer attempt of a job held here replaces the older one (which is aborted as cancelled).
   */
  offer(job: QueuedJob, options: { startNow?: boolean } = {}): Offer {
    const same = this.live().find((e) => e.id === job.id);
    if (same && same.attempt >= job.attempt) return { accepted: true };
    if (same) this.cancel(same.id);
    const ahead = Math.max(0, this.live().length - this.limits.slots + 1);
    const retryAfterSeconds = Math.min(MAX_RETRY_AFTER_SECONDS, SECONDS_PER_JOB_AHEAD * Math.max(1, ahead));
    if (this.live().filter((e) => e.account === job.account).length >= this.limits.perAccount)
      return { accepted: false, reason: "account", retryAfterSeconds };
    const room = options.startNow ? 0 : this.limits.maxWaiting;
    if (this.running >= this.limits.slots && this.waiting >= room)
      return { accepted: false, reason: "full", retryAfterSeconds };
    this.entries.push({ ...job, controller: new AbortController(), running: false });
    job.onAccepted?.();
    this.pump();
    return { accepted: true };
  }

  /** Aborts the job (only that attempt when given); a waiting one is dropped. Returns whether it was held. */
  cancel(id: string, attempt?: number, reason: AbortReason = "cancelled"): boolean {
    const entry = this.live().find((e) => e.id === id && (attempt === undefined || e.attempt === attempt));
    if (!entry) return false;
    entry.controller.abort(reason);
    if (!entry.running) {
      this.entries.splice(this.entries.indexOf(entry), 1);
      // A waiting job never started: it still reports its end (its run sees the aborted signal at once).
      void entry.run(entry.controller.signal).catch(() => {});
    }
    return true;
  }

  /** Aborts everything (server shutdown). */
  abortAll(reason: AbortReason): void {
    for (const e of this.live()) this.cancel(e.id, e.attempt, reason);
  }

  private next(): Entry | undefined {
    const runningBy = new Map<string, number>();
    for (const entry of this.entries)
      if (entry.running) runningBy.set(entry.account, (runningBy.get(entry.account) ?? 0) + 1);
    let best: Entry | undefined;
    for (const entry of this.entries) {
      if (entry.running) continue;
      if (!best || (runningBy.get(entry.account) ?? 0) < (runningBy.get(best.account) ?? 0)) best = entry;
    }
    return best;
  }

  private pump(): void {
    while (this.running < this.limits.slots) {
      const entry = this.next();
      if (!entry) return;
      entry.running = true;
      void entry
        .run(entry.controller.signal)
        .catch(() => {})
        .finally(() => {
          this.finished++;
          const i = this.entries.indexOf(entry);
          if (i >= 0) this.entries.splice(i, 1);
          this.pump();
        });
    }
  }
}
