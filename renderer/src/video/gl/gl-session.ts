/**
 * A job's WebGL page, in a browser of its own that ends with the job (never handed to another job: a page runs
 * a job's own shaders, and keeps what it drew), and its frame exchange: a loopback HTTP server (a random path,
 * 127.0.0.1 only)
 * from which the page fetches the frames a transition is drawn from and to which it posts the frames it
 * drew. ffmpeg writes the pairs to an output pipe (readPairs) and reads the drawn frames from an input
 * pipe (writeDrawn); the page sits between them, so a transition costs its own frames and nothing else.
 *
 * Where a drawn 1280x720 frame's CPU goes (cube, measured with bench/video-transitions.ts's render):
 * SwiftShader's draw, upload and read-back ~50 ms (both cores), Chromium's renderer ~35 ms and network
 * service ~30 ms and this process ~25 ms carrying the bytes (a pair in, a frame out): bytes are the cost
 * outside the shader, hence rgb pairs and frames passed on in the parts they arrived in.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Readable, Writable } from "node:stream";
import type { Browser, Page } from "puppeteer-core";
import { closeHard, launchOwnBrowser, type ChromiumLaunch } from "../raster/browser.ts";
import { glPageDocument } from "./gl-page.ts";

/** Frames a queue holds before its producer waits: a few frames of slack, not a whole transition. */
const AHEAD = 4;

/**
 * A frame as the pipe or the socket delivered it: its parts in order, never joined. Joining a 7 MB pair
 * cost a fresh allocation and copy per frame (Buffer.concat and the garbage collector were ~35 ms of the
 * renderer's CPU per drawn frame); the parts go out again as they came, with one write each.
 */
export type Frame = readonly Buffer[];

/** Frames handed over one by one, in order, each awaited by index. */
class FrameQueue {
  private readonly frames = new Map<number, Frame>();
  private readonly waiters = new Map<number, { resolve: (f: Frame) => void; reject: (e: Error) => void }>();
  private failed: Error | null = null;
  private readonly roomWaiters: (() => void)[] = [];
  /** Stores frame `i`. */
  put(i: number, frame: Frame): void {
    const w = this.waiters.get(i);
    if (w) {
      this.waiters.delete(i);
      w.resolve(frame);
    } else this.frames.set(i, frame);
  }
  /** Resolves once the queue holds fewer than AHEAD frames (its consumer caught up), or has failed. */
  room(): Promise<void> {
    if (this.frames.size < AHEAD || this.failed) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }
  take(i: number): Promise<Frame> {
    const frame = this.frames.get(i);
    if (frame) {
      this.frames.delete(i);
      if (this.frames.size < AHEAD) for (const waiter of this.roomWaiters.splice(0)) waiter();
      return Promise.resolve(frame);
    }
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => this.waiters.set(i, { resolve, reject }));
  }
  fail(e: Error): void {
    this.failed = e;
    for (const w of this.waiters.values()) w.reject(e);
    this.waiters.clear();
    for (const waiter of this.roomWaiters.splice(0)) waiter();
  }
}

/** Writes `parts` and waits for the pipe to drain when it is full. */
export const writeAll = (to: Writable, parts: Frame): Promise<void> => {
  return new Promise((resolve, reject) => {
    let ok = true;
    for (const part of parts) ok = to.write(part, (e) => (e ? reject(e) : undefined));
    if (ok) resolve();
    else to.once("drain", resolve);
  });
};

/** Zeros shared by every blank frame (a 4096x4096 primer is 64 MiB: one per transition would add up). */
const ZEROS = Buffer.alloc(1 << 20);

/**
 * Writes `size` zero bytes (the blank primer frame a render's input pipe opens with, drawn-transitions.ts) and resolves once
 * they have left this process: whatever writes into the pipe next (a helper given its fd) comes after them.
 */
export const writeBlank = (to: Writable, size: number): Promise<void> => {
  return new Promise((resolve, reject) => {
    for (let left = size; left > 0; left -= ZEROS.length) {
      const last = left <= ZEROS.length;
      to.write(ZEROS.subarray(0, Math.min(left, ZEROS.length)), (e) =>
        e ? reject(e) : last ? resolve() : undefined,
      );
    }
    if (size <= 0) resolve();
  });
};

/** Reads exactly `count` frames of `size` bytes from `from`, calling `each(i, frame)`. */
export const readFrames = async (
  from: Readable,
  size: number,
  count: number,
  each: (i: number, frame: Frame) => void | Promise<void>,
): Promise<void> => {
  let parts: Buffer[] = [];
  let have = 0;
  let i = 0;
  for await (const chunk of from as AsyncIterable<Buffer>) {
    let rest = chunk;
    while (rest.length > 0 && i < count) {
      const take = Math.min(size - have, rest.length);
      parts.push(rest.subarray(0, take));
      have += take;
      rest = rest.subarray(take);
      if (have === size) {
        await each(i++, parts);
        parts = [];
        have = 0;
      }
    }
  }
  if (i < count) throw new Error(`ffmpeg wrote ${i} of ${count} transition frames`);
};

export class GlSession {
  private readonly inbox = new Map<string, FrameQueue>();
  private readonly outbox = new Map<string, FrameQueue>();
  /** Programs compiled on the page, by the hash of what they were compiled from. */
  private readonly programs = new Map<string, Promise<void>>();
  private readonly server: Server;
  /** The page's own browser process: a shader that never finishes a frame is stopped by killing it. */
  private readonly browser: Browser;
  readonly page: Page;
  private constructor(server: Server, browser: Browser, page: Page) {
    this.server = server;
    this.browser = browser;
    this.page = page;
  }

  /**
   * Compiles `fragment` with its uniforms and extra samplers on the page, once per page for the same
   * inputs; resolves to the program's key.
   */
  compile(fragment: string, uniforms: unknown, samplers: string[]): Promise<string> {
    const key = `p${createHash("sha256")
      .update(JSON.stringify([fragment, uniforms, samplers]))
      .digest("hex")
      .slice(0, 24)}`;
    let done = this.programs.get(key);
    if (!done) {
      done = this.page.evaluate(
        (k, frag, u, smp) =>
          (window as unknown as { glx: { compile(...a: unknown[]): void } }).glx.compile(k, frag, u, smp),
        key,
        fragment,
        uniforms,
        samplers,
      );
      // A program that failed to compile is not kept: the next job gets the error again.
      done.catch(() => this.programs.delete(key));
      this.programs.set(key, done);
    }
    return done.then(() => key);
  }

  /**
   * Opens a W x H WebGL page in a browser process of its own (~0.5 s), served from a fresh loopback exchange.
   * Its own process, because SwiftShader draws a frame to its end: a shader that loops for hours holds the GPU
   * process of its browser, and only killing that browser stops it, which must not take other jobs' text or
   * html pages (or their WebGL pages) with it. The job closes it when it ends.
   */
  static async open(chromium: ChromiumLaunch, width: number, height: number): Promise<GlSession> {
    const token = randomBytes(16).toString("hex");
    const doc = glPageDocument(width, height);
    let session: GlSession | null = null;
    const server = createServer((req, res) => void session?.handle(req, res, token, doc));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    let browser: Browser | null = null;
    try {
      browser = await launchOwnBrowser(chromium);
      const page = await browser.newPage();
      // puppeteer tracks the page's network (Network domain), and Chromium then keeps a copy of every
      // response for DevTools: 7 MB frame pairs over loopback took ~440 ms each with it, ~120 ms without.
      // The tracking is puppeteer's own session's, reached through its internal `_client()`.
      const own = (page as unknown as { _client?: () => { send(method: string): Promise<unknown> } })._client;
      await own?.call(page).send("Network.disable");
      session = new GlSession(server, browser, page);
      const opened = session;
      await page.exposeFunction("__glxRoom", (key: string) => opened.roomFor(String(key)));
      const { port } = server.address() as AddressInfo;
      await page.goto(`http://127.0.0.1:${port}/${token}/`, { waitUntil: "load", timeout: 20_000 });
      return session;
    } catch (e) {
      if (browser) await closeHard(browser);
      server.close();
      throw e;
    }
  }

  private queue(map: Map<string, FrameQueue>, key: string): FrameQueue {
    let queue = map.get(key);
    if (!queue) map.set(key, (queue = new FrameQueue()));
    return queue;
  }

  private async handle(req: IncomingMessage, res: ServerResponse, token: string, doc: string): Promise<void> {
    const match = new RegExp(`^/${token}/(?:(in|out)/([\\w-]+)/(\\d+))?$`).exec(req.url ?? "");
    if (!match) return void res.writeHead(404).end();
    try {
      if (!match[1]) return void res.writeHead(200, { "content-type": "text/html" }).end(doc);
      const [key, i] = [match[2]!, Number(match[3])];
      if (match[1] === "in") {
        const frame = await this.queue(this.inbox, key).take(i);
        const length = frame.reduce((n, b) => n + b.length, 0);
        res.writeHead(200, { "content-type": "application/octet-stream", "content-length": length });
        res.cork();
        for (const part of frame) res.write(part);
        return void res.end();
      }
      const parts: Buffer[] = [];
      for await (const chunk of req as AsyncIterable<Buffer>) parts.push(chunk);
      // Answered at once: the page asks for room before it draws (roomFor), never by a request held open.
      // Chromium opens at most 6 connections to one host, so posts held until the render wants their frames
      // (one per gl layer) stalled every other layer once a job had more than 6: the render waited for a
      // frame whose post could not be sent, and failed with "frame 14 was not drawn within 10 s".
      this.queue(this.outbox, key).put(i, parts);
      res.writeHead(204).end();
    } catch {
      res.writeHead(500).end();
    }
  }

  /** Offers input frame `i` of drawing `key` to the page; resolves when the page is not far behind. */
  offer(key: string, i: number, frame: Frame): Promise<void> {
    const queue = this.queue(this.inbox, key);
    queue.put(i, frame);
    return queue.room();
  }

  /**
   * Resolves when the page may draw the next frame of `key`: the render holds fewer than AHEAD of its drawn
   * frames unread. The page calls it (exposed as `__glxRoom`) before each frame, over the DevTools connection,
   * which no number of waiting drawings can fill up.
   */
  roomFor(key: string): Promise<void> {
    return this.queue(this.outbox, key).room();
  }

  /** The `i`-th frame the page drew for `key`. */
  drawn(key: string, i: number): Promise<Frame> {
    return this.queue(this.outbox, key).take(i);
  }

  /** Makes every waiter of `key` fail (the page's drawing failed). */
  fail(key: string, e: Error): void {
    this.queue(this.inbox, key).fail(e);
    this.queue(this.outbox, key).fail(e);
  }

  /** Closes the page's browser (killing it if a draw holds it) and the exchange. */
  async close(): Promise<void> {
    await closeHard(this.browser);
    this.server.closeAllConnections();
    this.server.close();
  }
}
