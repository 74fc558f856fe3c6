/**
 * The audio mix on its own: the audio chains of the compiled graph (everything that leads to `[aout]`), run in a
 * short ffmpeg pass that writes the 16 kHz mono WAV the transcriber reads. The same graph builder makes the
 * main pass's audio, so what is transcribed is exactly what is heard.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { run } from "../../lib/process.ts";
import type { Identity } from "../../lib/run-as.ts";
import { SPEECH_AUDIO_FILTER } from "../../transcribe/types.ts";
import { pipesLast, type CompiledGraph } from "../compile.ts";
import { ffNumber } from "../values.ts";

const LABELS_AT_START = /^((?:\[[^\]]+\])+)/;
const LABELS_AT_END = /((?:\[[^\]]+\])+)$/;
const labelsOf = (group: string | undefined) => (group ? group.slice(1, -1).split("][") : []);

/** A graph that only makes `[aout]`; null when the mix has no source (silence is generated, nothing to hear). */
export interface AudioGraph {
  inputs: string[][];
  filterGraph: string;
}

/**
 * The chains of `graph` that make the audio mix `[aout]` (pure): those reading an input's audio (`[n:a]`),
 * generating audio, or reading a label another audio chain made. Inputs read from pipes (text sheets, html frames,
 * gl layers) carry no audio and are dropped, after pipesLast moved them to the end so that no input reference
 * moves. Null when the mix is silence made up (`anullsrc`): nothing to hear.
 */
export const mixOnlyGraph = (compiled: CompiledGraph): AudioGraph | null => {
  const graph = pipesLast(compiled);
  const chains = graph.filterGraph.split(";\n");
  const audioLabels = new Set<string>();
  const kept: string[] = [];
  for (const chain of chains) {
    const consumed = labelsOf(LABELS_AT_START.exec(chain)?.[1]);
    const isAudio =
      consumed.some((l) => /^\d+:a$/.test(l) || audioLabels.has(l)) ||
      (consumed.length === 0 && /^a(nullsrc|evalsrc)/.test(chain));
    if (!isAudio) continue;
    kept.push(chain);
    for (const label of labelsOf(LABELS_AT_END.exec(chain)?.[1])) audioLabels.add(label);
  }
  const out = kept.find((c) => c.endsWith("[aout]"));
  if (!out || /^anullsrc/.test(out)) return null;
  return {
    inputs: graph.inputs.filter((args) => !args.at(-1)?.startsWith("pipe:")),
    filterGraph: kept.join(";\n"),
  };
};

/** The mix of `graph` as the transcriber hears it: mixOnlyGraph, then `[speech]` (16 kHz mono); null: silence. */
export const audioOnlyGraph = (compiled: CompiledGraph): AudioGraph | null => {
  const mix = mixOnlyGraph(compiled);
  return mix && { ...mix, filterGraph: `${mix.filterGraph};\n[aout]${SPEECH_AUDIO_FILTER}[speech]` };
};

/**
 * Writes the mix of `graph` as `speech.wav` in `workDir` (16 kHz mono PCM) and returns its path; `seconds`: only its
 * first seconds (the same samples as the whole mix's first seconds: ffmpeg stops, nothing before changes).
 */
export const writeSpeechWav = async (
  graph: AudioGraph,
  workDir: string,
  ffmpegPath: string,
  signal?: AbortSignal,
  user: Identity | null = null,
  seconds?: number,
): Promise<string> => {
  const script = join(workDir, "audio-graph.txt");
  const wav = join(workDir, "speech.wav");
  await writeFile(script, graph.filterGraph);
  await run(
    ffmpegPath,
    [
      "-hide_banner",
      "-nostdin",
      "-v",
      "error",
      ...graph.inputs.flat(),
      "-filter_complex_script",
      script,
      "-map",
      "[speech]",
      ...(seconds === undefined ? [] : ["-t", ffNumber(seconds)]),
      "-c:a",
      "pcm_s16le",
      "-f",
      "wav",
      "-y",
      wav,
    ],
    { signal, user, timeoutMs: 10 * 60_000 },
  );
  return wav;
};
