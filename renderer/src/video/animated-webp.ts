/**
 * Animated WebP made readable: Debian's ffmpeg 5.1 decodes still WebP only (its decoder finds no image data in an
 * animation's frames; ffmpeg reads animated WebP from 8.0 on), and Debian 12's `webp` package has no tool that writes
 * an animation's composited frames (no anim_dump; webpmux hands out frames that still need blending). So each
 * downloaded animated WebP is decoded by sharp (libvips and libwebp, from npm) in a process of its own, run as the
 * task's tool user (webp-decode.ts), into an animated PNG of whole frames with the same delays, which every later
 * stage reads in its place: ffmpeg plays it as it plays a GIF, at its own frame timing.
 */
import { open } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readImageHeader } from "@media-render/contract/media/image-header";
import { UnprocessableMedia } from "../lib/errors.ts";
import { ProcessError, run } from "../lib/process.ts";
import type { Identity } from "../lib/run-as.ts";

const DECODER = fileURLToPath(new URL("./webp-decode.ts", import.meta.url));
/** A decode takes well under a second for the sizes it accepts (256 MiB of frames at most). */
const DECODE_TIMEOUT_MS = 60_000;

/** Whether the file at `path` is an animated WebP (its VP8X header says so). */
export const isAnimatedWebp = async (path: string): Promise<boolean> => {
  const file = await open(path, "r");
  try {
    const head = new Uint8Array(32);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    const h = readImageHeader(head.subarray(0, bytesRead));
    return h?.codec === "webp" && h.animated === true;
  } finally {
    await file.close();
  }
};

/** Decodes the animated WebP at `input` into the animated PNG `output`; a file it cannot read fails the job. */
const decode = async (
  input: string,
  output: string,
  options: { user?: Identity | null; signal?: AbortSignal },
): Promise<void> => {
  try {
    await run(process.execPath, [DECODER, input, output], {
      timeoutMs: DECODE_TIMEOUT_MS,
      signal: options.signal,
      user: options.user,
    });
  } catch (error) {
    if (error instanceof ProcessError && (error.failure === "exited" || error.failure === "timed-out")) {
      const last = error.stderrTail.trim().split("\n").at(-1) || "it could not be decoded";
      throw new UnprocessableMedia(
        `Unreadable media: an animated WebP: ${error.failure === "timed-out" ? "decoding took too long" : last}`,
      );
    }
    throw error;
  }
};

/**
 * `local` (reference -> downloaded file) with each animated WebP replaced by the animated PNG decoded from it into
 * `workDir` (a task's own folder: a split job's chunks share their downloads, not their work).
 */
export const readableAnimations = async (
  local: ReadonlyMap<string, string>,
  options: { workDir: string; user?: Identity | null; signal?: AbortSignal },
): Promise<Map<string, string>> => {
  // One at a time: each decode may hold up to 256 MiB of frames.
  const done = new Map<string, string>();
  let count = 0;
  for (const path of new Set(local.values())) {
    if (!(await isAnimatedWebp(path))) continue;
    const out = join(options.workDir, `animated-webp-${count++}.png`);
    await decode(path, out, options);
    done.set(path, out);
  }
  return new Map([...local].map(([ref, path]) => [ref, done.get(path) ?? path]));
};
