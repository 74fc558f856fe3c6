/**
 * The one way the renderer probes a local media file, for POST /probe and for video renders alike:
 * the in-process header readers (header-facts.ts) for what they handle, ffprobe otherwise. Both give
 * {@link MediaFacts}; the route answers its ProbeResult view, the renderer reads its MediaInfo view.
 */
import { UnprocessableMedia } from "../lib/errors.ts";
import { ProcessError, run } from "../lib/process.ts";
import type { Identity } from "../lib/run-as.ts";
import { buildFfprobeArgs } from "./ffprobe-args.ts";
import { probeApng, probeMp4, probeStill } from "./header-facts.ts";
import type { MediaFacts } from "./media-facts.ts";
import { parseProbeJson } from "./parse-probe.ts";

const PROBE_TIMEOUT_MS = 30_000;

export interface ProbeOptions {
  ffprobePath: string;
  signal?: AbortSignal;
  /** The task's tool user (lib/tool-users.ts), who can read `path`; absent: the renderer's own credentials. */
  user?: Identity | null;
  /**
   * Every fact, the ones only ffprobe reports included (format name, audio codec, frame rate): what POST
   * /probe answers. The header readers know none of those, so this always runs ffprobe.
   */
  complete?: boolean;
}

/**
 * Last meaningful stderr line, with the server's temp path replaced so it never reaches a client; a file that only a
 * demuxer outside demuxers.ts would read (a playlist) is named by that demuxer.
 */
export const probeErrorMessage = (stderrTail: string, inputPath: string): string => {
  const refused = /\[(\w+) @ 0x[0-9a-f]+\] Format not on whitelist/.exec(stderrTail)?.[1];
  if (refused)
    return `Unreadable media: the file is ${refused}, not a picture, video or sound this service reads`;
  const lines = stderrTail
    .split("\n")
    .map((line) => line.replaceAll(`file:${inputPath}`, "input").replaceAll(inputPath, "input").trim())
    .filter((line) => line !== "");
  const last = lines.at(-1) ?? "unknown error";
  return `Unreadable media: ${last.replace(/^input:\s*/, "")}`;
};

/**
 * Runs ffprobe on `path`. Throws {@link UnprocessableMedia} when ffprobe rejects the file or finds no
 * usable stream; a ProcessError that is the host's fault (ffprobe missing) propagates.
 */
const ffprobeFacts = async (path: string, options: ProbeOptions): Promise<MediaFacts> => {
  let stdout: Buffer;
  try {
    ({ stdout } = await run(options.ffprobePath, buildFfprobeArgs(path), {
      timeoutMs: PROBE_TIMEOUT_MS,
      signal: options.signal,
      user: options.user,
    }));
  } catch (error) {
    if (error instanceof ProcessError && error.failure === "exited") {
      throw new UnprocessableMedia(probeErrorMessage(error.stderrTail, path));
    }
    if (error instanceof ProcessError && error.failure === "timed-out") {
      throw new UnprocessableMedia(`Unreadable media: probing took longer than ${PROBE_TIMEOUT_MS / 1000} s`);
    }
    throw error;
  }
  return parseProbeJson(stdout.toString("utf8"));
};

/** Probes `path`: a still's header or an MP4's `moov` when they tell everything asked for, else ffprobe. */
export const probeMedia = async (path: string, options: ProbeOptions): Promise<MediaFacts> => {
  if (!options.complete) {
    const known = (await probeStill(path)) ?? (await probeApng(path)) ?? (await probeMp4(path));
    if (known) return known;
  }
  return ffprobeFacts(path, options);
};
