/**
 * Transitions drawn by `gl-transition` (renderer/native/gl-transition.c): the same shader source and
 * uniforms as the WebGL page, on Mesa's software GL, in a process of its own per transition between the two
 * ffmpeg runs (drawn-transitions.ts). It starts with the taps run that writes its pairs (at most HELPERS_PER_JOB of a job at
 * once, each under a memory ceiling), writes the drawn frames straight into the render's input pipe (after the
 * blank primer the drawer wrote there), and the taps run writes the frame pairs straight into its stdin: no
 * pixel crosses Chromium's network service and renderer, which cost about half of each frame drawn on the
 * page, nor this process (copying the drawn frames cost it ~60 ms of CPU, and as much garbage collection,
 * per 0.5 s transition at 720p). A 1280x720 `cube` frame takes ~20 ms here against ~67 ms on the page.
 *
 * Only the package's shaders run here (their params are uniforms: numbers, checked by type in
 * transition-shaders.ts; the pairs are raw pixels ffmpeg decoded), so this process runs no code of a job's. It is
 * started with an environment of GL settings only and, under a root renderer, as the job's tool user
 * (lib/tool-users.ts), with its shader cache in the job's folder. A `gl` layer's shader is the job's own text: it runs
 * on the job's WebGL page (gl-page.ts), in a Chromium started by raster/launch-chromium.ts as the unprivileged browser
 * user (with Chromium's sandbox where it starts), never here.
 */
import { execFile, spawn, type ChildProcessByStdio } from "node:child_process";
import { existsSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import type { SharedPipe } from "../../lib/process.ts";
import { asUser, type Identity } from "../../lib/run-as.ts";
import { writeAll } from "./gl-session.ts";
import { SPIRAL_MAP } from "./map.ts";
import type { UniformValue } from "./transition-shaders.ts";

/** Where renderer/native/build.sh puts the helper (run by the project's setup and by the Dockerfile). */
const BUILT_GL_TRANSITION = join(import.meta.dirname, "..", "..", "..", "native", "build", "gl-transition");

/** The built helper's path, or null when it was not built (transitions are then drawn on the page). */
export const builtGlTransition = (): string | null =>
  existsSync(BUILT_GL_TRANSITION) ? BUILT_GL_TRANSITION : null;

/**
 * Names drawn on the page even with the helper: Mesa 22.3 (Debian 12) miscompiles an int converted to float
 * times a literal (`fract(float(i) * 67123.313 / 12.0)` is 0 for every `i`), which melts all of
 * DoomScreenTransition's bars at once.
 */
export const PAGE_ONLY: ReadonlySet<string> = new Set(["DoomScreenTransition"]);

/**
 * The helper's whole environment: Mesa in software, whatever GPU the machine has (every renderer draws the same
 * pixels), and llvmpipe's compiled shaders kept in `cacheDir` between helpers: compiling `cube` costs ~0.1 s of CPU,
 * a cached one next to nothing. A job's helpers running as its tool user keep theirs in the job's folder (a cache
 * shared between jobs would be a way from one job's helper to the next); the renderer's own, in one folder.
 */
export const glEnv = (cacheDir = join(tmpdir(), "gl-transition-cache")): Record<string, string> => ({
  LIBGL_ALWAYS_SOFTWARE: "1",
  GALLIUM_DRIVER: "llvmpipe",
  MESA_SHADER_CACHE_DIR: cacheDir,
  MESA_SHADER_CACHE_MAX_SIZE: "64M",
});

const STDERR_TAIL = 4096;

/**
 * What the helper at `path` draws with, as it prints it (`--version`: "llvmpipe (LLVM 15.0.6, 256 bits); OpenGL
 * ES 3.2 Mesa 22.3.6"), for /health; null without a helper (transitions are drawn on the page), and "not
 * working: <its error>" when it cannot start its GL (renders with a drawn transition would then fail).
 */
export const glTransitionVersion = (
  path: string | null,
  user: Identity | null = null,
): Promise<string | null> => {
  if (path === null) return Promise.resolve(null);
  const firstLine = (text: string) => text.trim().split("\n", 1)[0] ?? "";
  // --version compiles no shader: no cache, so nothing is left behind.
  const [command, ...args] = asUser(user, [path, "--version"]);
  return new Promise((resolve) =>
    execFile(
      command!,
      args,
      { env: { ...glEnv(), MESA_SHADER_CACHE_DISABLE: "true" }, timeout: 10_000 },
      (error, stdout, stderr) =>
        resolve(error ? `not working: ${firstLine(stderr) || error.message}` : firstLine(stdout)),
    ),
  );
};

/** The helper process; its stdout is a pipe of this process, or the render's own (then null). */
type Helper = ChildProcessByStdio<Writable, Readable | null, Readable>;

/** What one transition is drawn from: the whole fragment source, its uniforms and map samplers. */
export interface NativeProgram {
  fragment: string;
  uniforms: Record<string, UniformValue>;
  samplers: readonly string[];
  /** The progress of each frame, easing applied. */
  progress: readonly number[];
}

/** The helper's arguments (after its path) for a W x H video whose pairs carry `channels` bytes a pixel. */
export const nativeArgs = (
  program: NativeProgram,
  width: number,
  height: number,
  channels: 3 | 4,
): string[] => {
  return [
    String(width),
    String(height),
    String(channels),
    program.fragment,
    program.progress.join(","),
    ...Object.entries(program.uniforms).map(([name, u]) => `${u.type}:${name}:${u.value.join(",")}`),
    ...program.samplers.map((s) => `sampler:${s}`),
  ];
};

/**
 * Helpers of one job alive at once. Each holds Mesa, llvmpipe's threads and its textures (measured here: ~75-85 MB
 * RSS at 64x64, ~105 MB at 1280x720, ~450 MB at 4096x4096 while drawing); a job's transitions are drawn one after
 * another (one taps run each), so the one drawing and the one before it, still handing its last frames to the
 * render, are all a job ever needs.
 */
export const HELPERS_PER_JOB = 2;

/**
 * A helper's memory ceiling (GL_TRANSITION_MAX_BYTES, applied by the helper as RLIMIT_DATA) for a W x H video:
 * its private writable memory measured 57-77 MB at 64x64 plus ~22 bytes a pixel (97 MB at 1280x720, 440 MB at
 * 4096x4096, cube drawing); this leaves room for the heaviest shader's compile and no more than twice its need.
 */
export const helperMemoryCeiling = (width: number, height: number): number =>
  128 * 2 ** 20 + 32 * width * height;

/** How a job runs its helpers. */
export interface HelperRuns {
  /** Told each helper's pid (the job counts its processes' memory). */
  onSpawn?: (pid: number) => void;
  /** The job's tool user (lib/tool-users.ts); absent or null: the renderer's own credentials. */
  user?: Identity | null;
  /** Where the helpers keep llvmpipe's compiled shaders (glEnv); absent: the renderer's one folder. */
  cacheDir?: string;
}

/** A helper that could not draw: its reason, and the signal that ended it when one did (render-failure.ts). */
export class HelperFailed extends Error {
  readonly signal: NodeJS.Signals | null;
  constructor(message: string, signal: NodeJS.Signals | null) {
    super(message);
    this.name = "HelperFailed";
    this.signal = signal;
  }
}

/** At most `size` holders at once, served in order of arrival. */
export class Gate {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(size: number) {
    this.free = size;
  }

  /** Resolves once in, with the function that leaves (idempotent). */
  async enter(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}

/**
 * One transition's helper process. The render's input pipe for its frames opens with the render (the drawer
 * writes the blank primer into it, gl-drawer.ts); the helper itself starts only once the taps run that writes its
 * pairs starts (its `input` is asked for), and only when the job's gate lets it: so a job with 99 transitions
 * holds at most HELPERS_PER_JOB helpers, not 99 idle ones for the whole render.
 */
export class NativeDrawing {
  private child: Helper | null = null;
  private readonly started: Promise<Helper>;
  private start!: (c: Helper) => void;
  private never!: (e: Error) => void;
  /** Resolves when the taps run asks for the helper's stdin: its frames are about to be produced. */
  private readonly wanted: Promise<void>;
  private want!: () => void;
  private exited: Promise<void> | null = null;
  private stopped = false;
  private readonly bin: string;
  private readonly what: string;
  private readonly gate: Gate;
  private readonly ceiling: number;
  private readonly runs: HelperRuns;
  /**
   * `gate`: the job's helpers at once; `ceiling`: the helper's memory ceiling in bytes (helperMemoryCeiling);
   * the rest ({@link HelperRuns}): how the job runs its helpers.
   */
  constructor(bin: string, what: string, options: { gate: Gate; ceiling: number } & HelperRuns) {
    this.bin = bin;
    this.what = what;
    this.gate = options.gate;
    this.ceiling = options.ceiling;
    this.runs = { onSpawn: options.onSpawn, user: options.user, cacheDir: options.cacheDir };
    this.started = new Promise((resolve, reject) => {
      this.start = resolve;
      this.never = reject;
    });
    this.started.catch(() => {});
    this.wanted = new Promise((resolve) => (this.want = resolve));
  }

  /**
   * Starts the helper on `args` once its pairs are wanted and the gate lets it in, drawing into `to` (after the
   * primer the caller wrote): by itself when `to` is a pipe of another process (the render's input), copied from
   * its stdout otherwise. The map goes to its fd 3 when it reads one. Resolves once every frame is drawn; rejects
   * with the helper's reason.
   */
  async draw(args: string[], needsMap: boolean, to: Writable): Promise<void> {
    // `started` rejects when the drawing is stopped: nothing starts after that.
    await Promise.race([this.wanted, this.started]);
    const entering = this.gate.enter();
    try {
      await Promise.race([entering, this.started]);
    } catch (e) {
      void entering.then((leave) => leave());
      throw e;
    }
    const leave = await entering;
    if (this.stopped) {
      leave();
      throw new Error(`${this.what} was stopped`);
    }
    const direct = to instanceof Socket;
    const [command, ...argv] = asUser(this.runs.user ?? null, [this.bin, ...args]);
    let child: Helper;
    try {
      child = spawn(command!, argv, {
        stdio: ["pipe", direct ? to : "pipe", "pipe", needsMap ? "pipe" : "ignore"],
        env: { ...glEnv(this.runs.cacheDir), GL_TRANSITION_MAX_BYTES: String(this.ceiling) },
      }) as unknown as Helper;
    } catch (e) {
      leave();
      throw e;
    }
    this.child = child;
    if (child.pid !== undefined) this.runs.onSpawn?.(child.pid);
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (c: string) => void (stderr = (stderr + c).slice(-STDERR_TAIL)));
    child.stdin.on("error", () => {
      /* a helper that stopped reading says why at its exit */
    });
    const ceiling = `${Math.round(this.ceiling / 2 ** 20)} MB`;
    this.exited = new Promise((resolve, reject) => {
      child.on("error", (e) => reject(new Error(`${this.what} could not start the GL helper: ${e.message}`)));
      child.on("close", (code, signal) => {
        leave();
        if (code === 0) return resolve();
        // Past its ceiling an allocation fails: the helper says "out of memory", or Mesa, whose allocations
        // are not all checked, crashes on it.
        const said = stderr.trim();
        const why = /out of memory/i.test(said)
          ? `it needed more than its ${ceiling} of memory`
          : said || (signal ? `killed by ${signal} (memory ceiling ${ceiling})` : `exit code ${code}`);
        reject(new HelperFailed(`${this.what} could not be drawn: ${why}`, signal));
      });
    });
    // Whoever waits on the drawing hears why it failed; a rejection nobody awaits yet is not unhandled.
    this.exited.catch(() => {});
    const map = child.stdio[3] as Writable | null;
    if (map) {
      map.on("error", () => {
        /* as stdin */
      });
      map.end(SPIRAL_MAP);
    }
    this.start(child);
    if (child.stdout) {
      for await (const chunk of child.stdout as AsyncIterable<Buffer>) await writeAll(to, [chunk]);
    }
    try {
      await this.exited;
    } finally {
      // Handing the pipe to the helper stopped this process reading it, so it would never see the render
      // close its end: let go of it now (the render reads what is in it, then the end of its input), and when
      // the helper failed too (a still's render may stop reading first and still end well: process.ts).
      if (direct) to.destroy();
    }
  }

  /**
   * The helper's stdin as a pipe for the taps run's ffmpeg to write the pairs into (process.ts): asking for it
   * starts the helper (when the job's gate lets it in); given once the helper has started; the taps run fails
   * with the helper's reason if it fails.
   */
  readonly input: SharedPipe = {
    share: async () => {
      this.want();
      const child = await this.started;
      return { stream: child.stdin as Socket, done: this.exited! };
    },
  };

  /** Kills the helper, or stops it from starting (a job that stops while it draws or waits). */
  stop(): void {
    this.stopped = true;
    this.never(new Error(`${this.what} was stopped`));
    this.child?.kill("SIGKILL");
  }
}
