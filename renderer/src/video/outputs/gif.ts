/**
 * A GIF from the render's lossless intermediate, in two more short ffmpeg runs: one 256-colour palette generated
 * from every frame of this video (`palettegen`), then every frame mapped to it with the chosen dithering
 * (`paletteuse`). Two runs instead of one graph: a graph that makes the palette and uses it holds every frame in
 * memory until the last one is seen.
 */
import { join } from "node:path";
import { run } from "../../lib/process.ts";
import type { Identity } from "../../lib/run-as.ts";
import type { OutputTarget } from "./target.ts";

/** Where the render writes the frames a GIF is made from (ffv1 in Matroska, in the job's work dir). */
export const gifIntermediate = (workDir: string): string => join(workDir, "gif-frames.mkv");

export interface GifRun {
  ffmpegPath: string;
  workDir: string;
  signal?: AbortSignal;
  onSpawn?: (pid: number) => void;
  user?: Identity | null;
}

/** The two runs' argument lists (pure): palette from the intermediate, then the GIF at `outPath`. */
export const gifArgs = (
  intermediate: string,
  palette: string,
  outPath: string,
  dither: OutputTarget["dither"],
): [string[], string[]] => {
  const quiet = ["-hide_banner", "-nostdin", "-y", "-loglevel", "error"];
  // Our own files, each read by the demuxer that wrote it and from a file only.
  const frames = ["-f", "matroska", "-protocol_whitelist", "file", "-i", intermediate];
  const colours = ["-f", "png_pipe", "-protocol_whitelist", "file", "-i", palette];
  return [
    [...quiet, ...frames, "-vf", "palettegen=stats_mode=full", "-frames:v", "1", palette],
    [
      ...[...quiet, ...frames, ...colours],
      ...["-lavfi", `[0:v][1:v]paletteuse=dither=${dither}`, "-loop", "0", "-f", "gif", outPath],
    ],
  ];
};

/** Writes the GIF at `outPath` from the intermediate the render wrote. */
export const finishGif = async (target: OutputTarget, outPath: string, gif: GifRun): Promise<void> => {
  const palette = join(gif.workDir, "gif-palette.png");
  const [paletteRun, gifRun] = gifArgs(gifIntermediate(gif.workDir), palette, outPath, target.dither);
  const options = { signal: gif.signal, onSpawn: gif.onSpawn, user: gif.user, timeoutMs: 10 * 60_000 };
  await run(gif.ffmpegPath, paletteRun, options);
  await run(gif.ffmpegPath, gifRun, options);
};
