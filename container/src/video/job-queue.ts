/**
 * A FIFO that runs at most `concurrency` jobs at once (contract: one render per CPU pair;
 * the rest wait). In-process on purpose: the Worker's queue is the durable one.
 */
export class JobQueue {
  private readonly waiting: (() => Promise<void>)[] = [];
  private running = 0;
  readonly concurrency: number;

  constructor(concurrency: number) {
    this.concurrency = Math.max(1, concurrency);
  }

  /** Jobs accepted but not yet started. */
  get pending(): number {
    return this.waiting.length;
  }

  /** Queues `task`; it starts when a slot is free. Errors are the task's own business. */
  push(task: () => Promise<void>): void {
    this.waiting.push(task);
    this.pump();
  }

  private pump(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const task = this.waiting.shift()!;
      this.running++;
      void task()
        .catch(() => {})
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }
}
