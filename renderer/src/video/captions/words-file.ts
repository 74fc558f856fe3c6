/**
 * A chunk's words file (docs/parallel-rendering.md): the transcription parts a chunk of an autoSubtitles job owns
 * (parts.ts ownedParts), stored as a small JSON file beside its segment (the request's `output.words`) and read back
 * by the join (`join.words`), which merges every chunk's parts into the caption files the single render writes. The
 * files come from other renderers through storage: the join checks their shape and size before using them.
 */
import { mkdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import * as v from "valibot";
import { Defect } from "@media-render/contract/faults";
import { TRANSCRIPTION_BACKENDS } from "@media-render/contract/wire";
import { fetchInputs } from "../fetch-inputs.ts";

/** An hour of speech is about 10,000 words, ~60 bytes each in this file: 16 MiB is room for any chunk's share. */
const MAX_WORDS_FILE_BYTES = 16 * 2 ** 20;

const Seconds = v.pipe(v.number(), v.minValue(0));

/** What a chunk stores: the backend that ran (null: the mix is silence, or nothing was transcribed) and its parts. */
export const WordsFile = v.object({
  backend: v.nullable(v.picklist(TRANSCRIPTION_BACKENDS)),
  parts: v.array(
    v.object({
      index: v.pipe(v.number(), v.integer(), v.minValue(0)),
      start: Seconds,
      end: Seconds,
      language: v.nullable(v.pipe(v.string(), v.maxLength(20))),
      words: v.array(v.object({ text: v.pipe(v.string(), v.maxLength(200)), start: Seconds, end: Seconds })),
    }),
  ),
});
export type WordsFile = v.InferOutput<typeof WordsFile>;

/** The file's text (numbers as JSON writes them: a double reads back as the same double). */
export const wordsFileText = (file: WordsFile): string => JSON.stringify(file);

/** Downloads the chunks' words files (signed URLs, in chunk order) into `workDir/words` and reads them. */
export const fetchWordsFiles = async (
  urls: readonly string[],
  workDir: string,
  signal?: AbortSignal,
): Promise<WordsFile[]> => {
  const dir = join(workDir, "words");
  await mkdir(dir);
  const names = urls.map((_, i) => `words${i}.json`);
  const local = await fetchInputs(names, dir, {
    inputs: Object.fromEntries(names.map((n, i) => [n, urls[i]!])),
    signal,
  });
  return Promise.all(
    names.map(async (name, i) => {
      const path = local.get(name)!;
      if ((await stat(path)).size > MAX_WORDS_FILE_BYTES)
        throw new Defect(`the words file of chunk ${i + 1} is larger than ${MAX_WORDS_FILE_BYTES} bytes`);
      let json: unknown = null;
      try {
        json = JSON.parse(await readFile(path, "utf8"));
      } catch {
        // refused below, as any other file no chunk writes
      }
      const parsed = v.safeParse(WordsFile, json);
      if (!parsed.success) throw new Defect(`the words file of chunk ${i + 1} is not one a chunk writes`);
      return parsed.output;
    }),
  );
};
