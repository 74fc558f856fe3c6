/**
 * Where a drawn transition frame's time goes on the page (the fallback of the native helper, and where
 * DoomScreenTransition is drawn; bench/video-transitions.ts compares both in a render): `node
 * bench/gl-frames.ts` (Node 24). The renderer's WebGL page
 * (SwiftShader) draws 1280x720 frames of each name from pairs offered through its loopback exchange, with
 * no ffmpeg: wall ms per frame, and CPU ms per frame of each Chromium process and of this process. Rounds
 * interleave the names; each name's figures are spreads over the rounds, its wall time also as a ratio to
 * `fade` drawn by its GLSL (two texture reads a pixel, the cheapest real shader). `BENCH_TRANSITIONS=cube`
 * picks the names, `BENCH_FRAMES` the frames a round.
 */
import { DEFAULT_RENDER_TOOLS } from "../renderer/src/settings.ts";
import { GlDrawer, progressOf } from "../renderer/src/video/gl/gl-drawer.ts";
import { GlSession } from "../renderer/src/video/gl/gl-session.ts";
import { closeBrowser } from "../renderer/src/video/raster/browser.ts";
import { conditions, interleave, loadNow, spread, treeCpu } from "./_lib.ts";

const [W, H] = [1280, 720];
const FRAMES = Number(process.env.BENCH_FRAMES ?? 15);
const NAMES = (process.env.BENCH_TRANSITIONS ?? "cube,CrossZoom").split(",");

const main = async () => {
  console.log(conditions("gl-frames"));
  const opened = GlSession.open(DEFAULT_RENDER_TOOLS, W, H);
  const drawer = new GlDrawer(() => opened, W, H, null, DEFAULT_RENDER_TOOLS.glFrameSeconds);
  const session = await opened;
  // The page's own browser (gl-session.ts), whose processes' CPU is the drawing's.
  const root = session.page.browser().process()!.pid!;
  const pair = Buffer.alloc(W * H * 6);
  for (let i = 0; i < pair.length; i++) pair[i] = (i * 2654435761) >>> 24;
  const cpu: Record<string, Record<string, number[]>> = {};
  let run = 0;
  const draw = (name: string) => async () => {
    const t = { key: `b${run++}`, field: "clips[0].transition", name, frames: FRAMES, channels: 3 as const };
    const program = await drawer.prepare(t);
    const [c0, own0, t0] = [treeCpu([root]), process.cpuUsage(), performance.now()];
    const feeding = (async () => {
      for (let i = 0; i < FRAMES; i++) await session.offer(t.key, i, [pair]);
    })();
    const drawing = session.page.evaluate(
      (k, p, progress) =>
        (window as unknown as { glx: { transition(...a: unknown[]): Promise<void> } }).glx.transition(
          k,
          p,
          progress,
          3,
        ),
      t.key,
      program,
      progressOf(FRAMES),
    );
    for (let i = 0; i < FRAMES; i++) await session.drawn(t.key, i);
    await Promise.all([drawing, feeding]);
    const ms = (performance.now() - t0) / FRAMES;
    const [c1, own] = [treeCpu([root]), process.cpuUsage(own0)];
    const byType = {
      ...Object.fromEntries(Object.entries(c1).map(([k, v]) => [k, v - (c0[k] ?? 0)])),
      node: (own.user + own.system) / 1000,
    };
    for (const [k, v] of Object.entries(byType)) ((cpu[name] ??= {})[k] ??= []).push(v / FRAMES);
    return ms;
  };
  try {
    const variants: Record<string, () => Promise<number>> = { fade: draw("fade") };
    for (const n of NAMES) variants[n] = draw(n);
    const r = await interleave<string>("fade", variants, { warmup: 1, minRounds: 5, maxRounds: 9 });
    console.log(
      `\n1280x720 frames drawn through the page's exchange (rgb pairs in, rgba out), ${r.rounds} rounds of ${FRAMES}`,
    );
    for (const n of Object.keys(variants)) {
      console.log(`  ${n}: wall ${spread(r.times[n]!, " ms/frame", 1)}`);
      if (n !== "fade") console.log(`    vs fade ${spread(r.ratios[n]!)}`);
      for (const [k, v] of Object.entries(cpu[n]!))
        if (v.some((x) => x > 0.5))
          console.log(`    cpu ${k.padEnd(15)} ${spread(v.slice(-r.rounds), " ms/frame", 1)}`);
    }
    console.log(`  load average after: ${loadNow()}`);
  } finally {
    await drawer.close();
    await closeBrowser();
  }
};

await main();
