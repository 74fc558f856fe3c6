/**
 * The renderer's TransitionDrawer: compiles each drawn transition's program on the job's WebGL page
 * (while ffmpeg starts), moves the frame pairs from the taps run to the page and the drawn frames into
 * the render's input pipe, at most a few frames ahead of whoever reads them.
 */
import type { Readable, Writable } from "node:stream";
import type { GlLayerDrawer, GlLayerJob } from "../graph-context.ts";
import type { DrawnTransition, TransitionDrawer } from "./gl-join.ts";
import { extraSamplers, transitionFragment } from "./gl-page.ts";
import { readFrames, type Frame, type GlSession } from "./gl-session.ts";
import { GL_SOURCES, uniformsFor } from "./transition-shaders.ts";
import { timeLimit } from "../../lib/time-limit.ts";

/** editly's directional aliases: gl `Directional` with a fixed direction. */
const ALIASES: Readonly<Record<string, [number, number]>> = {
  "directional-left": [1, 0],
  "directional-right": [-1, 0],
  "directional-up": [0, 1],
  "directional-down": [0, -1],
};

/** The gl name and params a drawn transition runs with (aliases resolved). */
export function glProgramOf(t: Pick<DrawnTransition, "name" | "params">): {
  name: string;
  params: Record<string, unknown>;
} {
  const dir = ALIASES[t.name];
  if (dir) return { name: "Directional", params: { direction: dir, ...t.params } };
  return { name: t.name, params: { ...t.params } };
}

/** The longest a gl layer frame may take on the page (html layers' capture has the same kind of bound). */
export const GL_FRAME_DEADLINE_MS = 10_000;

/** `p`, or a failure naming `what` once a frame has taken GL_FRAME_DEADLINE_MS. */
const drawnWithin = <T>(p: Promise<T>, what: string): Promise<T> =>
  timeLimit(p, GL_FRAME_DEADLINE_MS, `${what} was not drawn within ${GL_FRAME_DEADLINE_MS / 1000} s`);

/** Writes `parts` and waits for the pipe to drain when it is full. */
function writeAll(to: Writable, parts: Frame): Promise<void> {
  return new Promise((resolve, reject) => {
    let ok = true;
    for (const b of parts) ok = to.write(b, (e) => (e ? reject(e) : undefined));
    if (ok) resolve();
    else to.once("drain", resolve);
  });
}

export class GlDrawer implements TransitionDrawer, GlLayerDrawer {
  private runs = 0;
  /** Which pass the compiler is building: the renderer sets it before each compile. */
  mode: "taps" | "splice" = "taps";
  tapping = 0;
  private readonly openSession: () => Promise<GlSession>;
  private opened: Promise<GlSession> | null = null;
  private readonly width: number;
  private readonly height: number;
  private readonly compiled = new Map<string, Promise<string>>();
  /** Drawings (page calls) under way, and whether one failed: a page is kept for the next job only idle. */
  private drawing = 0;
  private failed = false;

  /** `open` is called once, when the first transition needs the page. */
  constructor(open: () => Promise<GlSession>, width: number, height: number) {
    this.openSession = open;
    this.width = width;
    this.height = height;
  }

  private get session(): Promise<GlSession> {
    this.opened ??= this.openSession();
    return this.opened;
  }

  /** Opens the page now, ahead of the first transition (a failure surfaces when it is used). */
  warm(): void {
    void this.session.catch(() => {});
  }

  /** Hands the page back for the next job if it is idle and nothing failed on it; closes it otherwise. */
  async close(): Promise<void> {
    const s = this.opened ? await this.opened.catch(() => null) : null;
    if (!s) return;
    if (this.drawing === 0 && !this.failed) await s.release();
    else await s.close();
  }

  /** Runs a drawing on the page, counted (see close). */
  private async track<T>(run: () => Promise<T>): Promise<T> {
    this.drawing++;
    try {
      return await run();
    } catch (e) {
      this.failed = true;
      throw e;
    } finally {
      this.drawing--;
    }
  }

  /** Compiles the program of `t` on the page (once per page for the same GLSL and params); its key. */
  prepare(t: DrawnTransition): Promise<string> {
    let done = this.compiled.get(t.key);
    if (!done) {
      done = (async () => {
        const { name, params } = glProgramOf(t);
        const src = GL_SOURCES.get(name);
        if (!src) throw new Error(`transition ${t.name} has no GLSL`);
        const samplers = extraSamplers(src.glsl);
        const fragment = transitionFragment(src.glsl);
        const uniforms = uniformsFor(name, params);
        const s = await this.session;
        return s.compile(fragment, uniforms, samplers);
      })();
      this.compiled.set(t.key, done);
    }
    return done;
  }

  /** Feeds the pairs to the page as ffmpeg writes them, while the page draws `t` from them. */
  readPairs(t: DrawnTransition, channels: 3 | 4): (from: Readable) => Promise<void> {
    return async (from) => {
      const s = await this.session;
      const drawing = this.draw(t, s, channels);
      const size = 2 * this.width * this.height * channels;
      await Promise.all([drawing, readFrames(from, size, t.frames, (i, frame) => s.offer(t.key, i, frame))]);
    };
  }

  writeDrawn(t: DrawnTransition): (to: Writable) => Promise<void> {
    return async (to) => {
      await writeAll(to, [Buffer.alloc(this.width * this.height * 4)]);
      const s = await this.session;
      for (let i = 0; i < t.frames; i++) await writeAll(to, await s.drawn(t.key, i));
    };
  }

  /** Draws `t` on the page from the pairs as they arrive; the frames wait in the session's outbox. */
  private async draw(t: DrawnTransition, s: GlSession, channels: 3 | 4): Promise<void> {
    try {
      const program = await this.prepare(t);
      await this.track(() =>
        s.page.evaluate(
          (k, key, n, easing, ch) => (window as unknown as GlxWindow).glx.transition(k, key, n, easing, ch),
          t.key,
          program,
          t.frames,
          t.easing ?? "linear",
          channels,
        ),
      );
    } catch (e) {
      // The render waiting for these frames fails with the same reason.
      const err = new Error(`transition ${t.name} could not be drawn: ${(e as Error).message}`);
      s.fail(t.key, err);
      throw err;
    }
  }

  /**
   * The writer of a `gl` layer's frames (raw rgba, top row first) into an ffmpeg input pipe. A frame the
   * page has not drawn within GL_FRAME_DEADLINE_MS fails the job (the shader runs on software GL).
   */
  layerWriter(job: GlLayerJob) {
    return async (out: Writable): Promise<void> => {
      const s = await this.session;
      const key = `${job.key}-${this.runs++}`;
      // Compiling draws one throwaway frame (gl-page.ts): the same deadline as every frame, or a shader
      // that never finishes one would hold the job (and its page) without end.
      const program = await this.track(() =>
        drawnWithin(
          s.compile(`precision highp float;\n${job.fragment}`, {}, []).catch((e: unknown) => {
            throw new Error(`gl layer ${job.field}: ${(e as Error).message}`);
          }),
          `gl layer (${job.field}) frame 0`,
        ),
      );
      const drawing = this.track(() =>
        s.page.evaluate(
          (k, p, n, fps, speed) => (window as unknown as GlxWindow).glx.layer(k, p, n, fps, speed),
          key,
          program,
          job.frames,
          job.fps,
          job.speed,
        ),
      ).catch((e: unknown) => {
        const err = new Error(`gl layer ${job.field} could not be drawn: ${(e as Error).message}`);
        s.fail(key, err);
        throw err;
      });
      void drawing.catch(() => {});
      const row = this.width * 4;
      for (let i = 0; i < job.frames; i++) {
        const frame = Buffer.concat(await drawnWithin(s.drawn(key, i), `gl layer (${job.field}) frame ${i}`));
        // gl_FragCoord has y up; the page's rows come out bottom first for a layer: flip them.
        const flipped = Buffer.allocUnsafe(frame.length);
        for (let r = 0; r < this.height; r++)
          frame.copy(flipped, (this.height - 1 - r) * row, r * row, (r + 1) * row);
        await writeAll(out, [flipped]);
      }
      await drawing;
    };
  }
}

/** The page's API (gl-page.ts). */
interface GlxWindow {
  glx: {
    transition(k: string, key: string, n: number, easing: string, channels?: 3 | 4): Promise<void>;
    layer(k: string, key: string, n: number, fps: number, speed: number): Promise<void>;
  };
}
