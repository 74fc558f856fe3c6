/**
 * A transition drawn by its real GLSL (gl-transitions) in the renderer's Chromium, spliced into the
 * ffmpeg graph. Two ffmpeg runs at once, each compiled from the same spec:
 * 1. "taps", one run per transition, one after the other: only the two clips on either side, their
 *    streams cut to A's last and B's first `frames` frames, written raw (rgba, A | B side by side) to an
 *    output pipe; no sound, no other clip. The page draws the transition from its pairs.
 * 2. "splice": the render itself; the drawn frames arrive through an input pipe and take the overlap's
 *    place between A's head and B's rest. It encodes everything before the first transition while the
 *    taps run and the page draws.
 * Why not one run with pipes both ways: ffmpeg 5.1 serves its outputs by their last muxed timestamp and
 * stalls while the oldest one waits for an input (choose_output), and the main output trails its filters
 * by the encoder's delay, so a pipe loop through the page deadlocks (tried; see docs/video-rendering.md). Two processes
 * have no loop: the taps never wait for the render.
 */
import type { Readable, Writable } from "node:stream";
import type { SharedPipe } from "../../lib/process.ts";
import type { GraphContext } from "../graph-context.ts";
import { canvasHasAlpha } from "../outputs/encoders.ts";

/**
 * One transition to draw: the drawing key, the gl name and its uniforms, its length in frames, and the
 * bytes a pixel of its pairs: rgb (3) for opaque clips, rgba (4) for webm's.
 */
export interface DrawnTransition {
  key: string;
  /** Where it is in the config (`clips[2].transition`), for messages naming its field. */
  field: string;
  name: string;
  frames: number;
  params?: Record<string, unknown>;
  easing?: string | null;
  channels: 3 | 4;
}

/** What the renderer gives the compiler to draw transitions with (gl-drawer.ts); absent: xfade only. */
export interface TransitionDrawer {
  /**
   * Drains the side-by-side pairs ffmpeg writes (taps pass), `transition.channels` bytes a pixel (rgb24 or rgba),
   * or hands ffmpeg the pipe of what draws them.
   */
  readPairs(transition: DrawnTransition): ((from: Readable) => Promise<void>) | SharedPipe;
  /**
   * Writes a blank frame, then the drawn frames of `transition` (raw rgba, in order), into the render's input
   * pipe (splice pass).
   */
  writeDrawn(transition: DrawnTransition): (to: Writable) => Promise<void>;
}

/**
 * Taps pass: writes A's last and B's first `frames` frames side by side to the drawer. `[aTap]` and
 * `[bTap]` are A's and B's clip streams (or split copies of them); A lasts `aFrames` frames.
 */
export const glTaps = (
  ctx: GraphContext,
  options: { aTap: string; aFrames: number; bTap: string },
  transition: DrawnTransition,
  drawer: TransitionDrawer,
): void => {
  const frames = transition.frames;
  const [tailA, headB, pairs] = [ctx.label("gta"), ctx.label("gtb"), ctx.label("gpair")];
  // Clips are opaque outside webm: rgb24 pairs are a quarter fewer bytes to carry to the page (which
  // samples them as alpha 1, what the opaque rgba pairs held).
  const pix = transition.channels === 4 ? "rgba" : "rgb24";
  ctx.chain(`[${options.aTap}]trim=start_frame=${options.aFrames - frames},setpts=PTS-STARTPTS[${tailA}]`);
  ctx.chain(`[${options.bTap}]trim=end_frame=${frames},setpts=PTS-STARTPTS[${headB}]`);
  ctx.chain(`[${tailA}][${headB}]hstack=inputs=2,format=${pix}[${pairs}]`);
  ctx.addOutputPipe(
    pairs,
    ["-c:v", "rawvideo", "-pix_fmt", pix, "-f", "rawvideo"],
    drawer.readPairs(transition),
  );
};

/**
 * Splice pass: joins `[acc]` (everything up to and including clip A) and `[bMain]` (clip B) with the
 * overlap drawn by `drawer`; B starts at frame `at` of the output. Output `[out]`, frame timestamps.
 */
export const glJoin = (
  ctx: GraphContext,
  options: { acc: string; bMain: string; at: number; out: string },
  transition: DrawnTransition,
  drawer: TransitionDrawer,
): void => {
  const { width: W, height: H, fps, format } = ctx.spec;
  const frames = transition.frames;
  const [drawn, a0, b1] = [ctx.label("gdrawn"), ctx.label("ga0"), ctx.label("gb1")];
  const fmt = canvasHasAlpha(format) ? "yuva420p" : "yuv420p";
  // ffmpeg 5.1 reads an input's first frame to open it (stream probing; off here, see pipesLast) and
  // sets its filter graph up only once every input has delivered one: the drawer writes a blank frame
  // first (dropped by the trim), so the render starts at once instead of waiting for the taps (and,
  // with two transitions, forever: the second's frames need the render to have read the first's).
  const input = ctx.addPipe(
    "rawvideo",
    [
      ...["-nofind_stream_info", "-pix_fmt", "rgba"],
      ...["-video_size", `${W}x${H}`, "-framerate", String(fps)],
    ],
    drawer.writeDrawn(transition),
    true,
  );
  ctx.chain(`[${input}:v]trim=start_frame=1,format=${fmt},setsar=1,settb=1/${fps},setpts=N[${drawn}]`);
  ctx.chain(`[${options.acc}]trim=end_frame=${options.at}[${a0}]`);
  ctx.chain(`[${options.bMain}]trim=start_frame=${frames},setpts=PTS-STARTPTS[${b1}]`);
  ctx.chain(`[${a0}][${drawn}][${b1}]concat=n=3:v=1:a=0,settb=1/${fps},setpts=N[${options.out}]`);
};
