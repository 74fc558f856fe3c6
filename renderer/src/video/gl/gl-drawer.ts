/**
 * The renderer's TransitionDrawer: moves each drawn transition's frame pairs from the taps run to what
 * draws it, and the drawn frames into the render's input pipe, at most a few frames ahead of whoever reads
 * them. What draws it: the native helper (native-gl.ts: Mesa, outside Chromium) when it is built, or the
 * job's WebGL page, which compiles the program while ffmpeg starts. `gl` layers are always drawn on the page.
 */
import type { Readable, Writable } from "node:stream";
import type { SharedPipe } from "../../lib/process.ts";
import type { GlLayerDrawer, GlLayerJob } from "../graph-context.ts";
import type { DrawnTransition, TransitionDrawer } from "./drawn-transitions.ts";
import { extraSamplers, transitionFragment } from "./gl-page.ts";
import { readFrames, writeAll, writeBlank, type GlSession } from "./gl-session.ts";
import {
  Gate,
  HELPERS_PER_JOB,
  NativeDrawing,
  PAGE_ONLY,
  helperMemoryCeiling,
  nativeArgs,
  type HelperRuns,
  type NativeProgram,
} from "./native-gl.ts";
import { GL_SOURCES, uniformsFor } from "./transition-shaders.ts";
import { timeLimit } from "../../lib/time-limit.ts";
import { Defect } from "@media-render/contract/faults";

/** editly's directional aliases: gl `Directional` with a fixed direction. */
const ALIASES: Readonly<Record<string, [number, number]>> = {
  "directional-left": [1, 0],
  "directional-right": [-1, 0],
  "directional-up": [0, 1],
  "directional-down": [0, -1],
};

/** The gl name and params a drawn transition runs with (aliases resolved). */
export const glProgramOf = (
  transition: Pick<DrawnTransition, "name" | "params">,
): {
  name: string;
  params: Record<string, unknown>;
} => {
  const dir = ALIASES[transition.name];
  if (dir) return { name: "Directional", params: { direction: dir, ...transition.params } };
  return { name: transition.name, params: { ...transition.params } };
};

/** editly's easings of a transition's progress (the grammar's `easing`). */
const EASE: Readonly<Record<string, (t: number) => number>> = {
  linear: (t) => t,
  easeOutExpo: (t) => (t === 1 ? 1 : 1 - Math.pow(2, -10 * t)),
  easeInOutCubic: (t) => (t < 0.5 ? 4 * t * t * t : (t - 1) * (2 * t - 2) * (2 * t - 2) + 1),
};

/** The progress of each of `frames` frames: frame k at k / frames (xfade's convention), eased. */
export const progressOf = (frames: number, easing?: string | null): number[] => {
  const ease = EASE[easing ?? "linear"] ?? EASE.linear!;
  return Array.from({ length: frames }, (_, k) => ease(k / frames));
};

/** The fragment source, uniforms, map samplers and progress `transition` is drawn with. */
const programOf = (transition: DrawnTransition): NativeProgram => {
  const { name, params } = glProgramOf(transition);
  const src = GL_SOURCES.get(name);
  if (!src) throw new Defect(`transition ${transition.name} has no GLSL`);
  return {
    fragment: transitionFragment(src.glsl),
    uniforms: uniformsFor(name, params, `${transition.field}.params`),
    samplers: extraSamplers(src.glsl),
    progress: progressOf(transition.frames, transition.easing),
  };
};

/** `p`, or a failure naming `what` once a frame has taken `seconds`. */
/** What a `gl` layer's shader is compiled after: its own line 1 is the compiled source's line 2. */
const LAYER_PRELUDE = "precision highp float;\n";

/**
 * The compiler's log as the shader's author reads it: "GLSL compile error at line 3: 'nope' : undeclared
 * identifier", lines counted in their own source (the prelude's lines taken off). Pure.
 */
export const glslMessage = (message: string, prelude: string): string => {
  const shift = prelude.split("\n").length - 1;
  const log = message.replace(/^(?:Error: )?GLSL: /, "");
  const lines = [...log.matchAll(/ERROR: \d+:(\d+): ([^\n]*)/g)].map(
    ([, line, text]) => `at line ${Math.max(1, Number(line) - shift)}: ${text!.trim()}`,
  );
  return lines.length > 0
    ? `GLSL compile error ${lines.join("; ")}`
    : `GLSL compile error: ${log.trim().slice(0, 500)}`;
};

const drawnWithin = <T>(p: Promise<T>, seconds: number, what: string): Promise<T> =>
  timeLimit(p, seconds * 1000, `${what} was not drawn within ${seconds} s`);

export class GlDrawer implements TransitionDrawer, GlLayerDrawer {
  private runs = 0;
  private readonly openSession: () => Promise<GlSession>;
  private opened: Promise<GlSession> | null = null;
  private readonly width: number;
  private readonly height: number;
  private readonly compiled = new Map<string, Promise<string>>();
  /** The native helper (native-gl.ts), or null: every transition is drawn on the page. */
  private readonly native: string | null;
  private readonly natives = new Map<string, NativeDrawing>();
  /** The job's helpers alive at once (native-gl.ts). */
  private readonly helpers = new Gate(HELPERS_PER_JOB);

  /** How the job runs its helpers: told their pids (it counts their memory), as its tool user. */
  private readonly helperRuns: HelperRuns;
  /** The longest one gl layer frame may take on the page (RenderTools' glFrameSeconds). */
  private readonly frameSeconds: number;

  /**
   * `open` is called once, when the first transition or gl layer needs the page; `native` is the built
   * gl-transition helper, which draws the transitions that are not PAGE_ONLY.
   */
  constructor(
    open: () => Promise<GlSession>,
    width: number,
    height: number,
    native: string | null,
    frameSeconds: number,
    runs: HelperRuns = {},
  ) {
    this.openSession = open;
    this.width = width;
    this.height = height;
    this.native = native;
    this.frameSeconds = frameSeconds;
    this.helperRuns = runs;
  }

  /** Whether transition `name` (resolved) is drawn on the page rather than by the native helper. */
  drawsOnPage(name: string): boolean {
    return this.native === null || PAGE_ONLY.has(glProgramOf({ name }).name);
  }

  /** The native drawing of `transition`, or null when it is drawn on the page. */
  private nativeOf(transition: DrawnTransition): NativeDrawing | null {
    if (this.native === null || this.drawsOnPage(transition.name)) return null;
    let drawing = this.natives.get(transition.key);
    if (!drawing) {
      drawing = new NativeDrawing(this.native, `transition ${transition.name}`, {
        gate: this.helpers,
        ceiling: helperMemoryCeiling(this.width, this.height),
        ...this.helperRuns,
      });
      this.natives.set(transition.key, drawing);
    }
    return drawing;
  }

  private get session(): Promise<GlSession> {
    this.opened ??= this.openSession();
    return this.opened;
  }

  /** Opens the page now, ahead of the first transition (a failure surfaces when it is used). */
  warm(): void {
    void this.session.catch(() => {});
  }

  /** Stops the helpers and closes the job's page (no page serves two jobs). */
  async close(): Promise<void> {
    for (const drawing of this.natives.values()) drawing.stop();
    const session = this.opened ? await this.opened.catch(() => null) : null;
    await session?.close();
  }

  /** Compiles the program of `transition` on the page (once per page for the same GLSL and params); its key. */
  prepare(transition: DrawnTransition): Promise<string> {
    let done = this.compiled.get(transition.key);
    if (!done) {
      done = (async () => {
        const { fragment, uniforms, samplers } = programOf(transition);
        const session = await this.session;
        return session.compile(fragment, uniforms, [...samplers]);
      })();
      this.compiled.set(transition.key, done);
    }
    return done;
  }

  /**
   * Where ffmpeg writes the pairs `transition` is drawn from: the native helper's stdin, or this process, which
   * feeds them to the page as they arrive.
   */
  readPairs(transition: DrawnTransition): ((from: Readable) => Promise<void>) | SharedPipe {
    const native = this.nativeOf(transition);
    if (native) return native.input;
    return async (from) => {
      const session = await this.session;
      const drawing = this.draw(transition, session, transition.channels);
      const size = 2 * this.width * this.height * transition.channels;
      await Promise.all([
        drawing,
        readFrames(from, size, transition.frames, (i, frame) => session.offer(transition.key, i, frame)),
      ]);
    };
  }

  writeDrawn(transition: DrawnTransition): (to: Writable) => Promise<void> {
    const native = this.nativeOf(transition);
    if (native) {
      // The helper starts later, when its pairs are produced (native-gl.ts): the primer goes now, so that the
      // render starts. A param of the wrong shape rejects here, before anything is written.
      return async (to) => {
        const program = programOf(transition);
        const args = nativeArgs(program, this.width, this.height, transition.channels);
        await writeBlank(to, this.width * this.height * 4);
        return native.draw(args, program.samplers.length > 0, to);
      };
    }
    return async (to) => {
      await writeBlank(to, this.width * this.height * 4);
      const session = await this.session;
      for (let i = 0; i < transition.frames; i++) await writeAll(to, await session.drawn(transition.key, i));
    };
  }

  /** Draws `transition` on the page from the pairs as they arrive; the frames wait in the session's outbox. */
  private async draw(transition: DrawnTransition, session: GlSession, channels: 3 | 4): Promise<void> {
    try {
      const program = await this.prepare(transition);
      await session.page.evaluate(
        (k, key, progress, ch) => (window as unknown as GlxWindow).glx.transition(k, key, progress, ch),
        transition.key,
        program,
        progressOf(transition.frames, transition.easing),
        channels,
      );
    } catch (e) {
      // The render waiting for these frames fails with the same reason.
      const err = new Error(`transition ${transition.name} could not be drawn: ${(e as Error).message}`);
      session.fail(transition.key, err);
      throw err;
    }
  }

  /**
   * The writer of a `gl` layer's frames (raw rgba, top row first) into an ffmpeg input pipe. A frame the
   * page has not drawn within the frame deadline fails the job (the shader runs on software GL).
   */
  layerWriter(job: GlLayerJob) {
    return async (out: Writable): Promise<void> => {
      const session = await this.session;
      const key = `${job.key}-${this.runs++}`;
      // Compiling draws one throwaway frame (gl-page.ts): the same deadline as every frame, or a shader
      // that never finishes one would hold the job (and its page) without end.
      const program = await drawnWithin(
        session.compile(`${LAYER_PRELUDE}${job.fragment}`, {}, []).catch((e: unknown) => {
          throw new Error(`${job.field}: ${glslMessage((e as Error).message, LAYER_PRELUDE)}`);
        }),
        this.frameSeconds,
        `${job.field}: frame 0`,
      );
      const drawing = session.page
        .evaluate(
          (k, p, n, first, fps, speed) =>
            (window as unknown as GlxWindow).glx.layer(k, p, n, first, fps, speed),
          key,
          program,
          job.frames,
          job.first,
          job.fps,
          job.speed,
        )
        .catch((e: unknown) => {
          const err = new Error(`gl layer ${job.field} could not be drawn: ${(e as Error).message}`);
          session.fail(key, err);
          throw err;
        });
      void drawing.catch(() => {});
      const row = this.width * 4;
      for (let i = 0; i < job.frames; i++) {
        const frame = Buffer.concat(
          await drawnWithin(session.drawn(key, i), this.frameSeconds, `${job.field}: frame ${i}`),
        );
        // gl_FragCoord has y up; the page's rows come out bottom first for a layer: flip them.
        const flipped = Buffer.allocUnsafe(frame.length);
        for (let y = 0; y < this.height; y++)
          frame.copy(flipped, (this.height - 1 - y) * row, y * row, (y + 1) * row);
        await writeAll(out, [flipped]);
      }
      await drawing;
    };
  }
}

/** The page's API (gl-page.ts). */
interface GlxWindow {
  glx: {
    transition(k: string, key: string, progress: number[], channels?: 3 | 4): Promise<void>;
    layer(k: string, key: string, n: number, first: number, fps: number, speed: number): Promise<void>;
  };
}
