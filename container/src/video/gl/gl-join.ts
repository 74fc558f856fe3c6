/**
 * A transition drawn by its real GLSL (gl-transitions) in the renderer's Chromium, spliced into the
 * ffmpeg graph. Two runs of the same compiled graph:
 * 1. "taps": the clips' own streams are tapped for A's last and B's first `frames` frames, written raw
 *    (rgba, A | B side by side) to an output pipe; the main picture and sound go nowhere, so ffmpeg stops
 *    once the last tap is written. The page draws each transition from its pairs into a raw file.
 * 2. "splice": the drawn file takes the overlap's place between A's head and B's rest.
 * Why not one run with pipes both ways: ffmpeg 5.1 serves its outputs by their last muxed timestamp and
 * stalls while the oldest one waits for an input (choose_output), and the main output trails its filters
 * by the encoder's delay, so a pipe loop through the page deadlocks (tried; see the README).
 */
import type { Readable } from "node:stream";
import type { GraphContext } from "../graph-context.ts";

/** One transition to draw: the drawing key, the gl name and its uniforms, its length in frames. */
export interface DrawnTransition {
  key: string;
  name: string;
  frames: number;
  params?: Record<string, unknown>;
  easing?: string | null;
}

/** What the renderer gives the compiler to draw transitions with (gl-drawer.ts); absent: xfade only. */
export interface TransitionDrawer {
  /** "taps": compile the pass that writes the pairs; "splice": the pass that reads the drawn frames. */
  readonly mode: "taps" | "splice";
  /** Drains the side-by-side pairs ffmpeg writes (taps pass). */
  readPairs(t: DrawnTransition): (from: Readable) => Promise<void>;
  /** The raw rgba file holding the drawn frames of `t` (splice pass). */
  drawnPath(t: DrawnTransition): string;
}

/**
 * Joins `[acc]` (everything up to and including clip A) and `[bMain]` (clip B) with the overlap drawn
 * by `drawer`; `[aTap]`/`[bTap]` are extra outputs of A's and B's clip streams (split by the caller).
 * A lasts `aFrames` frames, and B starts at frame `at` of the output. Output `[out]`, frame timestamps.
 */
export function glJoin(
  ctx: GraphContext,
  o: { acc: string; aTap: string; aFrames: number; bMain: string; bTap: string; at: number; out: string },
  t: DrawnTransition,
  drawer: TransitionDrawer,
): void {
  const { width: W, height: H, fps, format } = ctx.spec;
  const n = t.frames;
  const [tailA, headB, pairs, drawn, a0, b1] = ["gta", "gtb", "gpair", "gdrawn", "ga0", "gb1"].map((p) =>
    ctx.label(p),
  ) as [string, string, string, string, string, string];
  const fmt = format === "webm" ? "yuva420p" : "yuv420p";
  if (drawer.mode === "taps") {
    ctx.chain(`[${o.aTap}]trim=start_frame=${o.aFrames - n},setpts=PTS-STARTPTS[${tailA}]`);
    ctx.chain(`[${o.bTap}]trim=end_frame=${n},setpts=PTS-STARTPTS[${headB}]`);
    ctx.chain(`[${tailA}][${headB}]hstack=inputs=2,format=rgba[${pairs}]`);
    ctx.addOutputPipe(pairs, ["-c:v", "rawvideo", "-pix_fmt", "rgba", "-f", "rawvideo"], drawer.readPairs(t));
    // The picture of this pass is never seen: a plain cut keeps the graph whole.
    ctx.chain(`[${o.acc}]trim=end_frame=${o.at}[${a0}]`);
    ctx.chain(`[${a0}][${o.bMain}]concat=n=2:v=1:a=0,settb=1/${fps},setpts=N[${o.out}]`);
    return;
  }
  const input = ctx.addInput(
    ["-f", "rawvideo", "-pix_fmt", "rgba", "-video_size", `${W}x${H}`, "-framerate", String(fps)],
    drawer.drawnPath(t),
  );
  ctx.chain(`[${input}:v]format=${fmt},setsar=1,settb=1/${fps},setpts=N[${drawn}]`);
  ctx.chain(`[${o.acc}]trim=end_frame=${o.at}[${a0}]`);
  ctx.chain(`[${o.bMain}]trim=start_frame=${n},setpts=PTS-STARTPTS[${b1}]`);
  ctx.chain(`[${a0}][${drawn}][${b1}]concat=n=3:v=1:a=0,settb=1/${fps},setpts=N[${o.out}]`);
}
