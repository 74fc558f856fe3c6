/** Runs ffprobe on a local file and returns the contract's probe result. */
import { UnprocessableMedia } from "../lib/errors.ts";
import { ProcessError, run } from "../lib/process.ts";
import { buildFfprobeArgs } from "./ffprobe-args.ts";
import { parseProbeJson, type ProbeResult } from "./parse-probe.ts";

const PROBE_TIMEOUT_MS = 30_000;

/** Last meaningful stderr line, with the server's temp path replaced so it never reaches a client. */
export function probeErrorMessage(stderrTail: string, inputPath: string): string {
  const lines = stderrTail
    .split("\n")
    .map((line) => line.replaceAll(`file:${inputPath}`, "input").replaceAll(inputPath, "input").trim())
    .filter((line) => line !== "");
  const last = lines.at(-1) ?? "unknown error";
  return `Unreadable media: ${last.replace(/^input:\s*/, "")}`;
}

/**
 * Probes `inputPath`. Throws {@link UnprocessableMedia} when ffprobe rejects the file or finds no
 * usable stream; a ProcessError that is the host's fault (ffprobe missing) propagates as a 500.
 */
export async function probeFile(
  ffprobePath: string,
  inputPath: string,
  signal?: AbortSignal,
): Promise<ProbeResult> {
  let stdout: Buffer;
  try {
    ({ stdout } = await run(ffprobePath, buildFfprobeArgs(inputPath), {
      timeoutMs: PROBE_TIMEOUT_MS,
      signal,
    }));
  } catch (error) {
    if (error instanceof ProcessError && error.failure === "exited") {
      throw new UnprocessableMedia(probeErrorMessage(error.stderrTail, inputPath));
    }
    if (error instanceof ProcessError && error.failure === "timed-out") {
      throw new UnprocessableMedia(`Unreadable media: probing took longer than ${PROBE_TIMEOUT_MS / 1000} s`);
    }
    throw error;
  }
  return parseProbeJson(stdout.toString("utf8"));
}
