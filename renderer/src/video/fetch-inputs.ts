/**
 * The files a job draws: every file reference of the spec (storage paths and public URLs, as the user wrote
 * them) is looked up in the request's `inputs` (reference -> short-lived signed URL from the Worker), each
 * distinct URL is downloaded once into the job's work directory, and the spec is rewritten to the local
 * copies. Local paths are accepted only when the caller allows it (tests, benchmark) so a config can never
 * read the renderer's own files.
 */
import { createWriteStream } from "node:fs";
import { extname, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { VIDEO_LAYER_FILE_PROPERTIES } from "@media-render/contract/config/video-layer-types";
import type { Layer, VideoSpec } from "./types.ts";

/** The file references `layer` holds: its properties that reference a file in any layer type, with their values. */
export const layerFileRefs = (layer: Layer): [key: string, ref: string][] =>
  [...VIDEO_LAYER_FILE_PROPERTIES.keys()].flatMap((key) => {
    const ref = (layer as Record<string, unknown>)[key];
    return typeof ref === "string" ? [[key, ref] as [string, string]] : [];
  });

/** Every distinct file reference the spec draws or plays (pure). */
export const fileRefs = (spec: VideoSpec): string[] => {
  const refs = new Set<string>();
  const fromLayer = (l: Layer) => {
    for (const [, ref] of layerFileRefs(l)) refs.add(ref);
  };
  spec.clips.forEach((c) => c.layers.forEach(fromLayer));
  spec.globalLayers.forEach(fromLayer);
  spec.audioTracks.forEach((t) => refs.add(t.path));
  if (spec.audioFilePath) refs.add(spec.audioFilePath);
  if (spec.subtitles?.style.fontPath !== undefined) refs.add(spec.subtitles.style.fontPath);
  if (spec.subtitles?.file !== undefined) refs.add(spec.subtitles.file);
  for (const font of Object.values(spec.fonts ?? {})) for (const face of font.faces) refs.add(face.path);
  return [...refs];
};

/** The first reference of the spec that `inputs` has no URL for, or null. */
export const missingInput = (spec: VideoSpec, inputs: Readonly<Record<string, string>>): string | null => {
  return fileRefs(spec).find((ref) => !Object.hasOwn(inputs, ref)) ?? null;
};

/** Returns a copy of the spec with every file reference mapped through `map` (pure). */
export const rewriteRefs = (spec: VideoSpec, map: ReadonlyMap<string, string>): VideoSpec => {
  const local = (ref: string) => map.get(ref) ?? ref;
  const fix = (layer: Layer): Layer => {
    const refs = layerFileRefs(layer);
    return refs.length === 0
      ? layer
      : ({ ...layer, ...Object.fromEntries(refs.map(([key, ref]) => [key, local(ref)])) } as Layer);
  };
  return {
    ...spec,
    clips: spec.clips.map((c) => ({ ...c, layers: c.layers.map(fix) })),
    globalLayers: spec.globalLayers.map(fix),
    audioTracks: spec.audioTracks.map((t) => ({ ...t, path: local(t.path) })),
    audioFilePath: spec.audioFilePath ? local(spec.audioFilePath) : null,
    subtitles: spec.subtitles && {
      ...spec.subtitles,
      ...(spec.subtitles.file === undefined ? {} : { file: local(spec.subtitles.file) }),
      style: {
        ...spec.subtitles.style,
        fontPath:
          spec.subtitles.style.fontPath === undefined ? undefined : local(spec.subtitles.style.fontPath),
      },
    },
    ...(spec.fonts && {
      fonts: Object.fromEntries(
        Object.entries(spec.fonts).map(([value, font]) => [
          value,
          { ...font, faces: font.faces.map((f) => ({ ...f, path: local(f.path) })) },
        ]),
      ),
    }),
  };
};

const download = async (url: string, dest: string, signal?: AbortSignal): Promise<void> => {
  const res = await fetch(url, { signal, redirect: "error" });
  if (!res.ok || !res.body) throw new Error(`download failed (${res.status}) for ${new URL(url).pathname}`);
  await pipeline(
    Readable.fromWeb(res.body as import("node:stream/web").ReadableStream),
    createWriteStream(dest),
  );
};

/** A short, safe extension for a download (ffprobe/ffmpeg use it as a format hint): the reference's, else the URL's. */
const extensionOf = (ref: string, url: string): string => {
  const path = (address: string) => {
    try {
      return new URL(address).pathname;
    } catch {
      return address;
    }
  };
  const ext = extname(path(ref)) || extname(path(url));
  return ext.slice(0, 8).replace(/[^.\w]/g, "");
};

export interface FetchOptions {
  /** Reference -> signed URL (the request's `inputs`). */
  inputs?: Readonly<Record<string, string>>;
  /** A reference starting with `/` and not in `inputs` is a local file (tests, benchmark). */
  allowLocalFiles?: boolean;
  signal?: AbortSignal;
  /** Called after each finished reference with the count done so far. */
  onFile?: (done: number) => void;
}

/** Downloads all references (4 URLs at a time, each distinct URL once); returns reference → local path. */
export const fetchInputs = async (
  refs: readonly string[],
  workDir: string,
  options: FetchOptions = {},
): Promise<Map<string, string>> => {
  const inputs = options.inputs ?? {};
  const byUrl = new Map<string, string[]>();
  const map = new Map<string, string>();
  for (const ref of refs) {
    const url = Object.hasOwn(inputs, ref) ? inputs[ref] : undefined;
    if (url !== undefined) byUrl.set(url, [...(byUrl.get(url) ?? []), ref]);
    else if (options.allowLocalFiles && ref.startsWith("/")) map.set(ref, ref);
    else throw new Error(`no input URL for the file reference ${ref.slice(0, 80)}`);
  }
  let done = map.size;
  if (done > 0) options.onFile?.(done);
  const urls = [...byUrl.keys()];
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const i = next++;
      const url = urls[i]!;
      const forUrl = byUrl.get(url)!;
      const dest = join(workDir, `in${i}${extensionOf(forUrl[0]!, url)}`);
      await download(url, dest, options.signal);
      for (const ref of forUrl) map.set(ref, dest);
      done += forUrl.length;
      options.onFile?.(done);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return map;
};
