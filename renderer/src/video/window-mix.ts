/**
 * The sound of a window of the timeline that has one (a preview's range): the window's graph draws only its
 * frames and has no audio chains (compile.ts), while the mix is made as for the whole timeline (every source at
 * its place, transitions' audio curves, ducking, normalisation: the graph of the same spec without a window) and
 * cut to the window's seconds. Audio is cheap beside the picture: an hour's mix decodes in seconds.
 */
import { mixOnlyGraph } from "./captions/audio-pass.ts";
import type { CompiledGraph, RenderWindow } from "./compile.ts";
import { ffNumber } from "./values.ts";

/**
 * `picture` (a window's graph, `[vout]` only) with the mix of `whole` (the same spec's graph without a window)
 * cut to `window` as its `[aout]`; the mix's inputs follow the picture's, its labels renamed apart (pure).
 */
export const withWindowMix = (
  picture: CompiledGraph,
  whole: CompiledGraph,
  window: RenderWindow,
  fps: number,
): CompiledGraph => {
  const mix = mixOnlyGraph(whole);
  const [from, to] = [ffNumber(window.start / fps), ffNumber(window.end / fps)];
  const tail = `atrim=start=${from}:end=${to},asetpts=PTS-STARTPTS`;
  if (!mix)
    return {
      ...picture,
      filterGraph: `${picture.filterGraph};\nanullsrc=r=48000:cl=stereo,atrim=0:${ffNumber((window.end - window.start) / fps)}[aout]`,
    };
  const offset = picture.inputs.length;
  const renamed = mix.filterGraph.replace(/\[([^\]]+)\]/g, (_, label: string) => {
    const input = /^(\d+):a$/.exec(label);
    if (input) return `[${Number(input[1]) + offset}:a]`;
    return label === "aout" ? "[wholeaout]" : `[mix_${label}]`;
  });
  return {
    ...picture,
    inputs: [...picture.inputs, ...mix.inputs],
    filterGraph: `${picture.filterGraph};\n${renamed};\n[wholeaout]${tail}[aout]`,
  };
};
