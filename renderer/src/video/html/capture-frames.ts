/**
 * The capture loop of an html layer (rasterize-html.ts sets it up): each capture worker opens the layer's page,
 * settles it (`wait` seconds of virtual time), then steps the page's virtual clock through every frame and captures
 * its share of them (frame n by worker n mod workers). Every page call has a time limit.
 */
import { timeLimit } from "../../lib/time-limit.ts";
import type { RenderTools } from "../render-tools.ts";
import { leaseSlot, openCapturePage, type CaptureMethod, type CapturePage } from "./capture-page.ts";

/** Longest a single page call (load settle, one clock step) may take before the layer fails. */
const STEP_TIMEOUT_MS = 15_000;

const withTimeout = <T>(p: Promise<T>, what: string): Promise<T> =>
  timeLimit(p, STEP_TIMEOUT_MS, `${what} did not finish within ${STEP_TIMEOUT_MS / 1000} s`);

/** Clock steps of the settle (`wait`) sent in one page call. */
const SETTLE_BATCH = 30;

/** Moves the page's clock through `targets` in order, in one call; returns an empty list for the next ones. */
const step = async (cp: CapturePage, targets: number[], where: string): Promise<number[]> => {
  await withTimeout(cp.advance(targets), `${where}: a script`);
  return [];
};

/** How fast a layer was captured (the benchmark reports it). */
export interface HtmlCaptureStats {
  frames: number;
  captureMs: number;
  method: CaptureMethod;
  workers: number;
}

/** Receives frame `n` of the captured frames (the first captured is 0), in any order across workers. */
export type Deliver = (n: number, png: Buffer) => Promise<void>;

/** What capturing one html layer's frames takes (rasterizeHtmlLayer sets it up). */
export interface HtmlCapture {
  /** The layer as messages name it (`clips[0] html layer`). */
  where: string;
  doc: string;
  /** The page's size in CSS px. */
  css: { w: number; h: number };
  method: CaptureMethod;
  /** The layer's frames, and the first one captured: the clock ticks through those before it without a capture. */
  frames: number;
  from: number;
  /** Capture processes sharing the frames (frame n goes to worker n mod workers). */
  workers: number;
  /** Virtual time settled before frame 0, and between frames. */
  waitMs: number;
  stepMs: number;
}

/**
 * One capture worker: opens its page, settles it, then steps the clock through every frame, capturing its own
 * share. Answers how long it spent on the frames (after the settle).
 */
const captureShare = async (
  tools: RenderTools,
  capture: HtmlCapture,
  worker: number,
  deliver: Deliver,
  signal: AbortSignal | undefined,
): Promise<number> => {
  const { where, css, frames, from, workers, waitMs, stepMs } = capture;
  const lease = leaseSlot();
  // Not raced against a timer: a page that opened late would leak. Loading has its own 20 s limit.
  const cp = await openCapturePage(
    tools,
    capture.doc,
    css.w,
    css.h,
    capture.method,
    lease.slot,
    signal,
  ).catch((e: unknown) => {
    lease.release();
    throw new Error(`${where}: loading the page failed: ${e instanceof Error ? e.message : String(e)}`);
  });
  try {
    await withTimeout(
      cp.page.evaluate(async () => {
        void document.body?.offsetWidth;
        await document.fonts.ready;
      }),
      `${where}: loading fonts`,
    );
    // Settle: timers due at 0 (library start-up), then `wait` seconds of virtual time before frame 0.
    let steps: number[] = [];
    for (let time = 0; time < waitMs; time += stepMs) {
      steps.push(time);
      if (steps.length === SETTLE_BATCH) steps = await step(cp, steps, where);
    }
    if (steps.length > 0) steps = await step(cp, steps, where);
    const t0 = performance.now();
    for (let frame = 0; frame < frames; frame++) {
      // The clock still ticks through the frames other workers capture (and those before the window), in
      // the same call as this worker's next frame (nothing is drawn between them either way).
      steps.push(waitMs + frame * stepMs);
      if (frame < from || (frame - from) % workers !== worker) {
        if (steps.length === SETTLE_BATCH) steps = await step(cp, steps, where);
        continue;
      }
      steps = await step(cp, steps, where);
      await deliver(frame - from, await withTimeout(cp.frame(), `${where}: capturing a frame`));
    }
    return performance.now() - t0;
  } finally {
    await cp.close();
    lease.release();
  }
};

/** Captures every frame, handing frame n (in any order across workers) to `deliver`; `stats` gets the speed. */
export const captureFrames = async (
  tools: RenderTools,
  capture: HtmlCapture,
  deliver: Deliver,
  options: { stats?: (s: HtmlCaptureStats) => void; signal?: AbortSignal },
): Promise<void> => {
  const { frames, from, method, workers } = capture;
  const times = await Promise.all(
    Array.from({ length: workers }, (_, i) => captureShare(tools, capture, i, deliver, options.signal)),
  );
  options.stats?.({ frames: frames - from, captureMs: Math.max(...times), method, workers });
};
