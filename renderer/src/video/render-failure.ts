/**
 * What a failed render tells the Worker: a message written for the job's owner (never ffmpeg's progress text or a
 * temp path) and whether the fault was ours (retryable: a killed encoder, a crashed browser, a renderer shutting
 * down or unable to reach the Worker) or the job's (permanent: bad media, a deadline overrun). Pure.
 */
import { defectMessage, isProgrammingError, newFaultReference } from "@media-render/contract/faults";
import type { Fault } from "@media-render/contract/wire";
import { ProcessError } from "../lib/process.ts";
import { HelperFailed } from "./gl/native-gl.ts";
import type { AbortReason } from "./render-queue.ts";

export interface Failure {
  error: string;
  retryable: boolean;
  /** Whose fault (wire.ts StatusReport.fault): `infrastructure` exactly when retryable. */
  fault: Fault;
  /** A defect's reference, logged with its stack (run-job.ts). */
  reference?: string;
}

const jobs = (error: string): Failure => ({ error, retryable: false, fault: "job" });
const ours = (error: string): Failure => ({ error, retryable: true, fault: "infrastructure" });

/** Chromium went away under puppeteer (crashed, killed, out of memory). */
const BROWSER_GONE =
  /Target closed|Session closed|Connection closed|has disconnected|browser process|crashed/i;
/** The Worker's storage could not be reached, or answered 5xx (input download, output upload). */
const STORAGE_DOWN = /fetch failed|ECONNREFUSED|ECONNRESET|socket hang up|HTTP 5\d\d|failed \(5\d\d\)/i;

/**
 * Signals another process sends (the kernel's out-of-memory killer, an operator, a shutdown): the tool did nothing
 * wrong. Any other (SIGSEGV, SIGABRT, SIGBUS...) is the tool crashing on this job's input, or failing an allocation
 * at its memory ceiling: another renderer would crash the same way.
 */
const FROM_OUTSIDE: ReadonlySet<string> = new Set(["SIGKILL", "SIGTERM", "SIGINT", "SIGHUP"]);

/** The user-facing text of a ProcessError: the tool, what happened, and ffmpeg's last error line if any. */
const processText = (error: ProcessError): string => {
  const tool = error.command.split("/").at(-1) ?? error.command;
  const lines = error.stderrTail
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !/^(\w+=\S*\s*)+$/.test(l) && !/^\[?\w+ @ 0x/.test(l));
  const last = lines.at(-1);
  return `${tool} could not render the video${last ? `: ${last}` : ""}`;
};

/** What the job was allowed: its wall-clock deadline and its processes' memory share. */
export interface JobLimits {
  deadlineSeconds: number;
  memoryMb: number;
}

/**
 * Classifies why a render ended early. `aborted` is the job's abort reason when its signal fired. A job stopped
 * for holding more than its memory share is its own fault (its config asked for that much: another renderer
 * would stop it too); an encoder killed from outside while the job stayed within its share is not.
 */
export const describeFailure = (
  error: unknown,
  aborted: AbortReason | undefined,
  limits: JobLimits,
): Failure => {
  if (aborted === "deadline")
    return jobs(
      `Rendering took longer than its deadline of ${limits.deadlineSeconds} s and was stopped; no tokens were charged`,
    );
  if (aborted === "memory")
    return jobs(
      `Rendering needed more than its ${limits.memoryMb} MB of memory and was stopped; no tokens were charged. Make the video smaller or use fewer clips and layers`,
    );
  if (aborted === "shutdown") return ours("The renderer was restarted during the render");
  if (error instanceof ProcessError) {
    if (error.failure === "spawn-failed") return ours("The renderer could not start its encoder");
    if (error.signal !== null && FROM_OUTSIDE.has(error.signal))
      return ours(`The renderer's encoder was interrupted (${error.signal})`);
    if (error.signal !== null) return jobs(`${processText(error)} (it crashed: ${error.signal})`);
    return jobs(processText(error));
  }
  if (error instanceof HelperFailed && error.signal !== null && FROM_OUTSIDE.has(error.signal))
    return ours(`The renderer's GL helper was interrupted (${error.signal})`);
  const message = error instanceof Error ? error.message : String(error);
  if (BROWSER_GONE.test(message)) return ours("The renderer's browser stopped during the render");
  if (STORAGE_DOWN.test(message)) return ours("The renderer could not reach the storage service");
  // A bug of ours fails the same way on every renderer: once, with a reference to its logged stack.
  if (isProgrammingError(error)) {
    const reference = newFaultReference();
    return { error: defectMessage(reference), retryable: false, fault: "defect", reference };
  }
  return jobs(message.slice(0, 1000));
};
