/**
 * Generated layer stacks (renderer/test/helpers/layer-arbitrary.ts: every layer type and the options its compiler
 * branches on, transitions, global layers, mp4 and webm, windows of the timeline) compiled and run by the real
 * ffmpeg: it must parse and wire the graph, negotiate every format and write exactly the frames asked for. The
 * files are stand-ins of the same kind from lavfi (a still of one frame, a video with sound, an alpha video, a
 * tone, the text sheet, an html page's frames, a gl layer's rgba frames), so each run takes a fraction of a second;
 * what the pictures look like is the other renderer tests' business. The unit tier checks thousands of these
 * graphs' wiring without ffmpeg (renderer/test/unit/video/compile.test.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { run } from "../../src/lib/process.ts";
import type { CompiledGraph } from "../../src/video/compile.ts";
import type { VideoSpec } from "../../src/video/types.ts";
import { compileStack, LAYER_MEDIA, layerStack } from "../helpers/layer-arbitrary.ts";

/** A lavfi source standing in for the input `args` (its options, `-f`, its protocols, `-i`, its path). */
const standIn = (args: string[], spec: VideoSpec): string => {
  const path = args.at(-1)!;
  const demuxer = args[args.indexOf("-f") + 1];
  const { width: W, height: H, fps } = spec;
  const info = LAYER_MEDIA[path];
  if (info?.hasVideo && info.duration > 0) {
    const picture = `testsrc2=s=${info.width}x${info.height}:r=24:d=${info.duration}${info.hasAlpha ? ",format=yuva420p" : ""}`;
    return info.hasAudio ? `${picture}[out0];sine=f=440:r=44100:d=${info.duration}[out1]` : picture;
  }
  if (info?.hasVideo) {
    // A still: one frame, stored as the probe's display size turned back for a quarter-turn orientation.
    const [w, h] = info.orientation >= 5 ? [info.height, info.width] : [info.width, info.height];
    return `color=c=0x336699@0.5:s=${w}x${h}:r=1:d=1,format=${info.hasAlpha ? "rgba" : "yuv420p"}`;
  }
  if (info) return `sine=f=220:r=44100:d=${info.duration}`;
  // A gl layer's frames, an html page's image sequence, the text sheet, an html still.
  if (demuxer === "rawvideo") return `color=c=blue:s=${W}x${H}:r=${fps}:d=10,format=rgba`;
  const box = `${Math.max(2, Math.floor(W / 2))}x${Math.max(2, Math.floor(H / 4))}`;
  if (path.includes("%05d")) return `testsrc2=s=${box}:r=${fps}:d=2,format=rgba`;
  if (path === "pipe:0") return `color=c=white@0.5:s=${W}x${H}:r=1:d=1,format=rgba`;
  return `color=c=white@0.5:s=${box}:r=1:d=1,format=rgba`;
};

/** Frames of the graph's `[vout]` as ffmpeg wrote them, with every input replaced by its stand-in. */
const framesOut = async (graph: CompiledGraph, spec: VideoSpec): Promise<number> => {
  const inputs = graph.inputs.flatMap((args) => ["-f", "lavfi", "-i", standIn(args, spec)]);
  const sound = graph.filterGraph.includes("[aout]") ? ["-map", "[aout]", "-f", "null", "-"] : [];
  const { stdout } = await run("ffmpeg", [
    ...["-v", "error", "-nostdin", "-threads", "1", "-filter_complex_threads", "1"],
    ...inputs,
    ...["-filter_complex", graph.filterGraph],
    ...["-map", "[vout]", "-f", "framecrc", "pipe:1"],
    ...sound,
  ]);
  return stdout
    .toString()
    .split("\n")
    .filter((line) => line && !line.startsWith("#")).length;
};

describe("generated layer stacks run through ffmpeg", () => {
  const RUNS = Number(process.env.FC_GRAPHS ?? 16);
  const stacks = fc.sample(layerStack, { seed: Number(process.env.FC_SEED ?? 43_2026), numRuns: RUNS });

  it.each(stacks.map((stack, i) => [i, stack] as const))(
    "stack %i: ffmpeg accepts the graph and writes exactly its frames",
    async (i, stack) => {
      const { graph, frames, spec } = compileStack(stack);
      await expect(framesOut(graph, spec), JSON.stringify(stack)).resolves.toBe(frames);
    },
    60_000,
  );
});
