/**
 * ffmpeg's integer rescaling (shared by the Worker's duration parsers and the renderer's MP4 reader), reproduced exactly so durations equal ffprobe's to the microsecond.
 * `av_rescale(a, b, c)` computes a*b/c rounded to the nearest integer, halves away from zero
 * (AV_ROUND_NEAR_INF); ffprobe's format.duration is an integer count of microseconds (AV_TIME_BASE).
 */

/** av_rescale(a, b, c) for non-negative a and positive b, c. */
export const avRescale = (a: bigint, b: bigint, c: bigint): bigint => (a * b + c / 2n) / c;

/** A duration of `ticks` in units of 1/`timescale` s, as ffmpeg's microseconds. */
export const ticksToUs = (ticks: bigint | number, timescale: bigint | number): number =>
  Number(avRescale(BigInt(ticks), 1_000_000n, BigInt(timescale)));
