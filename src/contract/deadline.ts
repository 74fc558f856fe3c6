/**
 * How long a render may take, derived from what it renders (issue: no render without a deadline). Both sides
 * compute the same figure: the Worker sends it with the request and sweeps jobs past it; the renderer aborts the
 * render when it passes (killing ffmpeg and the browser, not just giving up waiting). Generous against the speeds
 * measured here (a 720p25 second encodes in ~0.2 s on 2 cores), tight against a render that never ends.
 */

/** Pixels per second of 1280x720 at 25 fps: the unit the allowance scales with. */
const UNIT_RATE = 1280 * 720 * 25;

/**
 * Wall-clock seconds a video render may run: a fixed start-up allowance plus 3 s per output second at 720p25, and
 * with `captions` 1 s more per output second (the offline recogniser takes ~0.25 s per second of audio alone,
 * about twice that on a loaded machine).
 */
export const videoDeadlineSeconds = (v: {
  seconds: number;
  width: number;
  height: number;
  fps: number;
  captions?: boolean;
}): number => {
  const scale = Math.max(1, (v.width * v.height * v.fps) / UNIT_RATE);
  return Math.min(3600, Math.ceil(120 + 3 * v.seconds * scale + (v.captions ? v.seconds : 0)));
};

/** Wall-clock seconds an image render may run in the browser: 20 s plus the html layers' settle time. */
export const imageDeadlineSeconds = (waitSeconds: number): number => Math.ceil(20 + waitSeconds);
