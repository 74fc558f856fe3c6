/**
 * Transitions compiled as graph fragments instead of `xfade` (opaque outputs): the clip before keeps
 * its frames up to the overlap, the overlap is mixed from the last `frames` frames of A and the first
 * of B by a cheap mixer, and B continues; concat joins the three. xfade's float kernel costs ~10 ms per
 * 720p frame and a custom xfade expression ~180 ms (ffmpeg evaluates it per pixel); the mixers here
 * are integer overlays, trims and plane copies (≈1–3 ms). webm keeps xfade, which mixes alpha planes.
 */
import type { GraphContext } from "./graph-context.ts";

/** Builds the overlap `[mixed]` from A's tail `[tailA]` and B's head `[headB]`, both `frames` long. */
export type Mixer = (ctx: GraphContext, tailA: string, headB: string, frames: number, mixed: string) => void;

/** B fades in over A (frame k of T shows k/T of B): the picture of `xfade=transition=fade`. */
const fade: Mixer = (ctx, tailA, headB, frames, mixed) => {
  const bIn = ctx.label("fbi");
  ctx.chain(`[${headB}]format=yuva420p,fade=t=in:s=0:n=${frames}:alpha=1[${bIn}]`);
  ctx.chain(`[${tailA}][${bIn}]overlay=format=yuv420:eof_action=pass[${mixed}]`);
};

/** A for the first `at` frames of the overlap, B after (the two parts concatenated). */
const cutAt = (
  ctx: GraphContext,
  tailA: string,
  headB: string,
  at: number,
  frames: number,
  out: string,
): void => {
  if (at <= 0) return ctx.chain(`[${tailA}]nullsink;[${headB}]null[${out}]`);
  if (at >= frames) return ctx.chain(`[${headB}]nullsink;[${tailA}]null[${out}]`);
  const [x, y] = [ctx.label("ca"), ctx.label("cb")];
  ctx.chain(`[${tailA}]trim=end_frame=${at}[${x}]`);
  ctx.chain(`[${headB}]trim=start_frame=${at},setpts=PTS-STARTPTS[${y}]`);
  ctx.chain(`[${x}][${y}]concat=n=2:v=1:a=0[${out}]`);
};

/** A stream of `frames` frames whose alpha rises linearly to `peak` at the middle and falls back to 0. */
const midFlash = (ctx: GraphContext, source: string, frames: number, out: string): void => {
  const half = Math.max(1, Math.floor(frames / 2));
  ctx.chain(
    `[${source}]format=yuva420p,fade=t=in:s=0:n=${half}:alpha=1,fade=t=out:s=${half}:n=${Math.max(1, frames - half)}:alpha=1[${out}]`,
  );
};

/** editly `dummy`: the picture switches at the middle of the overlap (`if(gt(P,0.5),A,B)`). */
const dummy: Mixer = (ctx, a, b, frames, mixed) => cutAt(ctx, a, b, Math.ceil(frames / 2), frames, mixed);

/**
 * gl `burn`: a fade that flares warm in the middle (gl adds (0.9, 0.4, 0.2)·progress to the pictures).
 * Here a warm orange is laid over the fade, its opacity peaking at 40 % at the midpoint.
 */
const burn: Mixer = (ctx, tailA, headB, frames, mixed) => {
  const { width: W, height: H, fps } = ctx.spec;
  const [faded, glow, flash] = [ctx.label("bf"), ctx.label("bg"), ctx.label("bfl")];
  fade(ctx, tailA, headB, frames, faded);
  ctx.chain(
    `color=c=0xE6662F@0.4:s=${W}x${H}:r=${fps},trim=end_frame=${frames},settb=1/${fps},setpts=N[${glow}]`,
  );
  midFlash(ctx, glow, frames, flash);
  ctx.chain(`[${faded}][${flash}]overlay=format=yuv420:eof_action=pass[${mixed}]`);
};

/**
 * gl `colorphase`: the colour planes cross over at different times: luma fades, U switches to B at
 * 30 % of the overlap and V at 70 % (the former custom expression, as plane copies).
 */
const colorphase: Mixer = (ctx, tailA, headB, frames, mixed) => {
  const [a0, a1, a2] = [ctx.label("cpa"), ctx.label("cpa"), ctx.label("cpa")];
  const [b0, b1, b2] = [ctx.label("cpb"), ctx.label("cpb"), ctx.label("cpb")];
  const [luma, u, v] = [ctx.label("cpy"), ctx.label("cpu"), ctx.label("cpv")];
  ctx.chain(`[${tailA}]split=3[${a0}][${a1}][${a2}]`);
  ctx.chain(`[${headB}]split=3[${b0}][${b1}][${b2}]`);
  fade(ctx, a0, b0, frames, luma);
  cutAt(ctx, a1, b1, Math.ceil(frames * 0.3), frames, u);
  cutAt(ctx, a2, b2, Math.ceil(frames * 0.7), frames, v);
  ctx.chain(`[${luma}][${u}][${v}]mergeplanes=0x001122:yuv420p[${mixed}]`);
};

/**
 * gl `multiply_blend`: the two pictures multiplied together at the midpoint. The luma product (chroma
 * averaged) is laid over the fade with an opacity rising to 1 at the middle and back to 0.
 */
const multiplyBlend: Mixer = (ctx, tailA, headB, frames, mixed) => {
  const [a0, a1, b0, b1] = [ctx.label("mba"), ctx.label("mba"), ctx.label("mbb"), ctx.label("mbb")];
  const [faded, product, flash] = [ctx.label("mbf"), ctx.label("mbp"), ctx.label("mbfl")];
  ctx.chain(`[${tailA}]split[${a0}][${a1}]`);
  ctx.chain(`[${headB}]split[${b0}][${b1}]`);
  fade(ctx, a0, b0, frames, faded);
  ctx.chain(`[${a1}][${b1}]blend=c0_mode=multiply:c1_mode=average:c2_mode=average[${product}]`);
  midFlash(ctx, product, frames, flash);
  ctx.chain(`[${faded}][${flash}]overlay=format=yuv420:eof_action=pass[${mixed}]`);
};

/**
 * gl `wipeLeft`/`wipeRight`/`wipeUp`/`wipeDown`, pixel for pixel: frame k of n shows B where the shader's
 * `step` says so (wipeLeft: B iff progress >= 1 - u, u = (x + 0.5) / W, so from column
 * ceil(W (1 - k/n) - 0.5) on). B gets an alpha mask cut per frame out of a still twice the frame's size
 * (black | white, side by side or stacked), at an integer offset (crop), and goes over A: a copy and a
 * plane blend per frame instead of a round trip through the WebGL page.
 */
const wipe = (axis: "x" | "y", bSide: "end" | "start"): Mixer => {
  return (ctx, tailA, headB, frames, mixed) => {
    const { width: W, height: H, fps } = ctx.spec;
    const size = axis === "x" ? W : H;
    const progress = `n/${frames}`;
    // First B index (B at the end: from it on) or B's count (B at the start: before it), clamped.
    const edge =
      bSide === "end"
        ? `clip(ceil(${size}*(1-${progress})-0.5),0,${size})`
        : `clip(floor(${size}*${progress}-0.5)+1,0,${size})`;
    // Still: [first | second] along the axis; B's side white. Offset o shows columns o..o+size-1.
    const [first, second] = bSide === "end" ? ["black", "white"] : ["white", "black"];
    const offset = `${size}-(${edge})`;
    const [m0, m1, mask, bA] = [ctx.label("wm"), ctx.label("wm"), ctx.label("wmask"), ctx.label("wb")];
    ctx.chain(`color=c=${first}:s=${W}x${H}:r=${fps},format=gray[${m0}]`);
    ctx.chain(`color=c=${second}:s=${W}x${H}:r=${fps},format=gray[${m1}]`);
    const crop = axis === "x" ? `crop=${W}:${H}:x='${offset}':y=0` : `crop=${W}:${H}:x=0:y='${offset}'`;
    ctx.chain(
      // The lut makes the mask 0 and 255 (colour sources draw gray in video range: 16 and 235).
      `[${m0}][${m1}]${axis === "x" ? "hstack" : "vstack"}=inputs=2,trim=end_frame=1,lut=c0='if(gt(val,127),255,0)',loop=loop=${frames - 1}:size=1,settb=1/${fps},setpts=N,${crop}[${mask}]`,
    );
    ctx.chain(`[${headB}][${mask}]alphamerge[${bA}]`);
    ctx.chain(`[${tailA}][${bA}]overlay=format=yuv420:eof_action=pass[${mixed}]`);
  };
};

/** Mixers by documented transition name (`fade` also serves every name mapped to xfade's fade). */
export const MIXERS: Readonly<Record<string, Mixer>> = {
  fade,
  wipeLeft: wipe("x", "end"),
  wipeRight: wipe("x", "start"),
  wipeUp: wipe("y", "end"),
  wipeDown: wipe("y", "start"),
  dummy,
  burn,
  colorphase,
  multiply_blend: multiplyBlend,
};

/**
 * Joins `[clipA]` and `[clipB]` with B starting at frame `at` of A and overlapping its last `frames` frames,
 * the overlap built by `mix`; output `[out]` has frame-number timestamps.
 */
export const overlapJoin = (
  ctx: GraphContext,
  clipA: string,
  clipB: string,
  at: number,
  frames: number,
  out: string,
  mix: Mixer,
): void => {
  const [a0, a1, b0, b1] = [ctx.label("ja"), ctx.label("ja"), ctx.label("jb"), ctx.label("jb")];
  const mixed = ctx.label("jmix");
  ctx.chain(`[${clipA}]split[${a0}s][${a1}s]`);
  ctx.chain(`[${a0}s]trim=end_frame=${at}[${a0}]`);
  ctx.chain(`[${a1}s]trim=start_frame=${at}:end_frame=${at + frames},setpts=PTS-STARTPTS[${a1}]`);
  ctx.chain(`[${clipB}]split[${b0}s][${b1}s]`);
  ctx.chain(`[${b0}s]trim=end_frame=${frames}[${b0}]`);
  ctx.chain(`[${b1}s]trim=start_frame=${frames},setpts=PTS-STARTPTS[${b1}]`);
  mix(ctx, a1, b0, frames, mixed);
  ctx.chain(`[${a0}][${mixed}][${b1}]concat=n=3:v=1:a=0,settb=1/${ctx.spec.fps},setpts=N[${out}]`);
};
