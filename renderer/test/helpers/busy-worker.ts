/** A worker module for lib/worker-task.ts's tests: spins (`spin`) or allocates (`hog`) until it is stopped. */
import { workerData } from "node:worker_threads";

const kept: number[][] = [];
if (workerData === "hog") for (;;) kept.push(Array.from({ length: 1 << 16 }, (_, i) => i));
for (;;) {
  // spins
}
