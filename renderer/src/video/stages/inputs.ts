/**
 * The stages before anything is drawn: the browsers a job needs start, its files download (its gl shaders read
 * as text), its speech is synthesised into audio files, and its media files are probed, in the background while
 * the next stages run.
 */
import { readFile } from "node:fs/promises";
import { VIDEO_LAYER_FILE_PROPERTIES } from "@media-render/contract/config/video-layer-types";
import { GL_SHADER_MAX_BYTES } from "@media-render/contract/config/video-layers";
import type { RenderTools } from "../render-tools.ts";
import type { Identity } from "../../lib/run-as.ts";
import { toMediaInfo } from "../../probe/media-facts.ts";
import { probeMedia } from "../../probe/probe-media.ts";
import type { Synthesizer } from "../../speech/types.ts";
import { readableAnimations } from "../animated-webp.ts";
import type { FetchInputs } from "../chunk-inputs.ts";
import { fetchInputs, fileRefs, layerFileRefs, rewriteRefs } from "../fetch-inputs.ts";
import { isRaster, isText, keyedLayers } from "../layers/index.ts";
import { overallPercent, type Stage } from "../progress.ts";
import { getCaptureBrowser, prepareSparePage } from "../raster/browser.ts";
import { synthesizeSpeech, type Voiced } from "../speech.ts";
import type { MediaInfo, VideoSpec } from "../types.ts";
import type { Stopwatch } from "./stopwatch.ts";

/**
 * Starts the browsers a job will need while its inputs download (launching costs ~0.5 s each). Captions are
 * text: the text page opens while the inputs download and the mix is transcribed.
 */
export const warmBrowsers = (spec: VideoSpec, tools: RenderTools): void => {
  const raster = keyedLayers(spec).filter((k) => isRaster(k.layer));
  const html = raster.some((k) => !isText(k.layer));
  if (raster.some((k) => isText(k.layer)) || (html && tools.htmlCapture === "screenshot"))
    prepareSparePage(tools);
  if (html && tools.htmlCapture === "beginframe")
    for (let slot = 0; slot < tools.htmlCaptureWorkers; slot++)
      void getCaptureBrowser(tools, slot).catch(() => {});
  if (spec.subtitles) prepareSparePage(tools);
};

/**
 * The spec with each gl layer's downloaded `fragmentPath` read into `fragmentShader` (UTF-8 text within
 * the inline limit; anything else fails the job naming the field).
 */
const withShaderText = async (spec: VideoSpec): Promise<VideoSpec> => {
  const texts = new Map<string, string>();
  const read = async (path: string): Promise<string> => {
    const known = texts.get(path);
    if (known !== undefined) return known;
    const bytes = await readFile(path);
    if (bytes.length > GL_SHADER_MAX_BYTES)
      throw new Error(
        `gl layer fragmentPath: the shader file is larger than ${GL_SHADER_MAX_BYTES / 1024} KB`,
      );
    const text = new TextDecoder().decode(bytes);
    const control = bytes.some((b) => b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d);
    if (control || text.includes("\uFFFD"))
      throw new Error("gl layer fragmentPath: the file is not GLSL text");
    texts.set(path, text);
    return text;
  };
  const fix = async <L extends VideoSpec["globalLayers"][number]>(layer: L): Promise<L> =>
    layer.type === "gl" && layer.fragmentPath !== undefined
      ? { ...layer, fragmentShader: await read(layer.fragmentPath) }
      : layer;
  return {
    ...spec,
    clips: await Promise.all(
      spec.clips.map(async (c) => ({ ...c, layers: await Promise.all(c.layers.map(fix)) })),
    ),
    globalLayers: await Promise.all(spec.globalLayers.map(fix)),
  };
};

/** The downloaded job: its spec naming the local copies, and reference -> local path. */
export interface Downloaded {
  spec: VideoSpec;
  local: ReadonlyMap<string, string>;
}

/** Downloads every file the spec references into `workDir` (span `downloadMs`), reporting each file. */
export const downloadInputs = async (
  spec: VideoSpec,
  options: {
    workDir: string;
    inputs?: Readonly<Record<string, string>>;
    allowLocalFiles?: boolean;
    signal?: AbortSignal;
    /** Downloads the files (default fetchInputs; a split job's chunks share theirs: chunk-inputs.ts). */
    fetchInputs?: FetchInputs;
    /** The task's tool user, who decodes animated WebPs (animated-webp.ts). */
    user?: Identity | null;
    report: (percent: number, stage: Stage) => void;
    clock: Stopwatch;
  },
): Promise<Downloaded> => {
  const refs = fileRefs(spec);
  const start = options.clock.now();
  const fetched = await (options.fetchInputs ?? fetchInputs)(refs, options.workDir, {
    inputs: options.inputs,
    allowLocalFiles: options.allowLocalFiles,
    signal: options.signal,
    onFile: (n) => options.report(overallPercent("downloading", n / Math.max(1, refs.length)), "downloading"),
  });
  // An animated WebP is read as the animated PNG decoded from it, which ffmpeg 5.1 can play.
  const local = await readableAnimations(fetched, options);
  options.clock.record("downloadMs", start);
  return { spec: await withShaderText(rewriteRefs(spec, local)), local };
};

/** The job with its speech synthesised: the downloads, and the WAVs written with what they say (`Voiced`). */
export type Spoken = Downloaded & Voiced;

/**
 * `speech` layers and speech tracks synthesised by `synthesizer` into WAVs in `workDir` (speech.ts); the spec
 * plays them as audio files from here on. A spec without speech passes through.
 */
export const synthesize = async (
  downloaded: Downloaded,
  options: { workDir: string; synthesizer: Synthesizer; signal?: AbortSignal },
): Promise<Spoken> => ({
  ...downloaded,
  ...(await synthesizeSpeech(downloaded.spec, options.workDir, options.synthesizer, options.signal)),
});

const FONT_EXT = /\.(ttf|otf|woff2?)$/i;

/** The probes under way: `media` fills as they finish, `probed` settles when all have (span `probeMs`). */
export interface Probes {
  media: ReadonlyMap<string, MediaInfo>;
  probed: Promise<void>;
}

/** The layer properties whose files are media in every type that has them (`path`): the ones probed. */
const MEDIA_PROPERTIES = new Set(
  [...VIDEO_LAYER_FILE_PROPERTIES].flatMap(([key, kinds]) =>
    [...kinds].every((kind) => kind === "video" || kind === "audio" || kind === "image") ? [key] : [],
  ),
);

/**
 * Starts probing every downloaded media file (not fonts, shaders or a captions file) and the synthesised speech;
 * the caller awaits `probed`.
 */
export const startProbes = (
  { spec, local, paths }: Spoken,
  options: { ffprobePath: string; signal?: AbortSignal; user?: Identity | null; clock: Stopwatch },
): Probes => {
  const media = new Map<string, MediaInfo>();
  // Layers' files of the kinds that are not media (fonts, shaders: video-layer-types.ts), and the job's own.
  const notMedia = new Set<string | null>(
    keyedLayers(spec).flatMap((k) =>
      layerFileRefs(k.layer)
        .filter(([key]) => !MEDIA_PROPERTIES.has(key))
        .map(([, ref]) => ref),
    ),
  );
  notMedia.add(spec.subtitles?.style.fontPath ?? null);
  notMedia.add(spec.subtitles?.file ?? null); // captions text, not media
  for (const font of Object.values(spec.fonts ?? {})) for (const face of font.faces) notMedia.add(face.path);
  const toProbe = [...new Set([...local.values(), ...paths])].filter(
    (p) => !notMedia.has(p) && !FONT_EXT.test(p),
  );
  const start = options.clock.now();
  const probed = Promise.all(
    toProbe.map(async (path) =>
      media.set(
        path,
        toMediaInfo(
          await probeMedia(path, {
            ffprobePath: options.ffprobePath,
            signal: options.signal,
            user: options.user,
          }),
        ),
      ),
    ),
  ).then(() => options.clock.record("probeMs", start));
  void probed.catch(() => {}); // awaited by a later stage; this only stops an early throw leaving it unhandled
  return { media, probed };
};
