/** The render's stopwatch: the named spans of one job, reported with its result (`RenderTimings`). */

/**
 * Where a render's time went, in ms. Stages overlap (probes run while text is drawn; an animated html layer
 * is captured while ffmpeg encodes), so each is its own span; `startMs` is the serial part before the
 * encoding ffmpeg starts. Decode, filter and encode run inside that one ffmpeg: its wall and CPU time are
 * reported here, bench/video.ts splits them by running the same graph without the encoder.
 */
export interface RenderTimings {
  totalMs: number;
  downloadMs: number;
  probeMs: number;
  transcribeMs?: number;
  /** Text sheet laid out and every html layer captured (or, when streamed, its capture set up). */
  rasterizeMs: number;
  /** From the start of rasterising until the text sheet's screenshot (ffmpeg's stdin) was taken. */
  sheetMs?: number;
  graphMs: number;
  /** The runs beside the render that write the frame pairs of transitions drawn by their GLSL (wall time). */
  tapsMs?: number;
  /** From the job's start until the encoding ffmpeg was launched. */
  startMs: number;
  /** The encoding ffmpeg run: wall time, its CPU time (user + system), the renderer's own CPU meanwhile. */
  ffmpegMs: number;
  ffmpegCpuMs?: number;
  nodeCpuMs?: number;
}

/** A span the stages record (everything but the total, which the stopwatch knows itself). */
export type Span = Exclude<keyof RenderTimings, "totalMs">;

/** Records named spans of one job (ms since a stage's start); `timings()` is the result's record. */
export interface Stopwatch {
  /** A point in time to measure a span from. */
  now: () => number;
  /** Records `span` as the time from `start` until now. */
  record: (span: Span, start: number) => void;
  /** Records `span` as `ms` (a value measured otherwise). */
  set: (span: Span, ms: number) => void;
  /** Ms since the job started. */
  total: () => number;
  /** Every span recorded so far, the ones not recorded as 0, and the total. */
  timings: () => RenderTimings;
}

export const stopwatch = (): Stopwatch => {
  const t0 = performance.now();
  const since = (t: number) => Math.round(performance.now() - t);
  const spans: Partial<RenderTimings> = {};
  return {
    now: () => performance.now(),
    record: (span, start) => void (spans[span] = since(start)),
    set: (span, ms) => void (spans[span] = ms),
    total: () => since(t0),
    timings: () => ({
      downloadMs: 0,
      probeMs: 0,
      rasterizeMs: 0,
      graphMs: 0,
      startMs: 0,
      ffmpegMs: 0,
      ...spans,
      totalMs: since(t0),
    }),
  };
};
