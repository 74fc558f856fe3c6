/**
 * The renderer's TransitionDrawer: compiles each drawn transition's program on the job's WebGL page
 * (while ffmpeg starts), moves the frame pairs from ffmpeg to the page and the drawn frames back.
 */
import { open } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { DrawnTransition, TransitionDrawer } from "./gl-join.ts";
import { extraSamplers, transitionFragment } from "./gl-page.ts";
import { readFrames, type GlSession } from "./gl-session.ts";
import { GL_SOURCES, uniformsFor } from "./transition-shaders.ts";

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

export class GlDrawer implements TransitionDrawer {
  /** Set to "splice" by the renderer once the taps pass has run. */
  mode: "taps" | "splice" = "taps";
  private readonly drawings: Promise<void>[] = [];
  private readonly workDir: string;
  private readonly openSession: () => Promise<GlSession>;
  private opened: Promise<GlSession> | null = null;
  private readonly width: number;
  private readonly height: number;
  private readonly compiled = new Map<string, Promise<void>>();

  /** `open` is called once, when the first transition needs the page. */
  constructor(open: () => Promise<GlSession>, width: number, height: number, workDir: string) {
    this.workDir = workDir;
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

  /** Closes the page if it was opened. */
  async close(): Promise<void> {
    const s = this.opened ? await this.opened.catch(() => null) : null;
    await s?.close();
  }

  /** Compiles the program of `t` on the page (once per key). */
  prepare(t: DrawnTransition): Promise<void> {
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
        await s.page.evaluate(
          (key, frag, u, smp) => (window as unknown as GlxWindow).glx.compile(key, frag, u, smp),
          t.key,
          fragment,
          uniforms,
          samplers,
        );
      })();
      this.compiled.set(t.key, done);
    }
    return done;
  }

  readPairs(t: DrawnTransition): (from: Readable) => Promise<void> {
    return async (from) => {
      const drawing = this.draw(t);
      this.drawings.push(drawing);
      void drawing.catch(() => {});
      const s = await this.session;
      await readFrames(from, 2 * this.width * this.height * 4, t.frames, (i, frame) =>
        s.offer(t.key, i, frame),
      );
    };
  }

  drawnPath(t: DrawnTransition): string {
    return join(this.workDir, `gl-${t.key}.rgba`);
  }

  /** Draws `t` on the page from the pairs as they arrive, into its raw file. */
  private async draw(t: DrawnTransition): Promise<void> {
    await this.prepare(t);
    const s = await this.session;
    const file = await open(this.drawnPath(t), "w");
    try {
      const drawing = s.page
        .evaluate(
          (key, n, easing) => (window as unknown as GlxWindow).glx.transition(key, key, n, easing),
          t.key,
          t.frames,
          t.easing ?? "linear",
        )
        .catch((e: unknown) => {
          const err = new Error(`transition ${t.name} could not be drawn: ${(e as Error).message}`);
          s.fail(t.key, err);
          throw err;
        });
      void drawing.catch(() => {});
      for (let i = 0; i < t.frames; i++) await file.write(await s.drawn(t.key, i));
      await drawing;
    } finally {
      await file.close();
    }
  }

  /** Resolves once every transition of the taps pass is drawn to its file. */
  async finish(): Promise<void> {
    await Promise.all(this.drawings);
  }
}

/** The page's API (gl-page.ts). */
interface GlxWindow {
  glx: {
    compile(key: string, fragment: string, uniforms: unknown, samplers: string[]): void;
    transition(k: string, key: string, n: number, easing: string): Promise<void>;
  };
}
