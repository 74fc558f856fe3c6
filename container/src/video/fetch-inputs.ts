/**
 * Downloads every file a spec references (signed URLs from the Worker) into the job's work
 * directory and rewrites the spec to the local copies. Local paths are accepted only when the
 * caller allows it (tests, benchmark) so a config can never read the renderer's own files.
 */
import { createWriteStream } from "node:fs";
import { extname, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Layer, VideoSpec } from "./types.ts";

const FILE_KEYS = ["path", "fontPath"] as const;

/** Every distinct file reference in the spec (pure). */
export function fileRefs(spec: VideoSpec): string[] {
  const refs = new Set<string>();
  const fromLayer = (l: Layer) => {
    for (const k of FILE_KEYS) if (typeof l[k] === "string" && l[k]) refs.add(l[k] as string);
  };
  spec.clips.forEach((c) => c.layers.forEach(fromLayer));
  spec.globalLayers.forEach(fromLayer);
  spec.audioTracks.forEach((t) => refs.add(t.path));
  if (spec.audioFilePath) refs.add(spec.audioFilePath);
  return [...refs];
}

/** Returns a copy of the spec with every file reference mapped through `map` (pure). */
export function rewriteRefs(spec: VideoSpec, map: ReadonlyMap<string, string>): VideoSpec {
  const fix = (l: Layer): Layer => {
    const copy: Layer = { ...l };
    for (const k of FILE_KEYS)
      if (typeof copy[k] === "string") copy[k] = map.get(copy[k] as string) ?? copy[k];
    return copy;
  };
  return {
    ...spec,
    clips: spec.clips.map((c) => ({ ...c, layers: c.layers.map(fix) })),
    globalLayers: spec.globalLayers.map(fix),
    audioTracks: spec.audioTracks.map((t) => ({ ...t, path: map.get(t.path) ?? t.path })),
    audioFilePath: spec.audioFilePath ? (map.get(spec.audioFilePath) ?? spec.audioFilePath) : null,
  };
}

async function download(url: string, dest: string, signal?: AbortSignal): Promise<void> {
  const res = await fetch(url, { signal, redirect: "error" });
  if (!res.ok || !res.body) throw new Error(`download failed (${res.status}) for ${new URL(url).pathname}`);
  await pipeline(
    Readable.fromWeb(res.body as import("node:stream/web").ReadableStream),
    createWriteStream(dest),
  );
}

/** Downloads all references (4 at a time); returns original reference → local path. */
export async function fetchInputs(
  refs: readonly string[],
  workDir: string,
  options: { allowLocalFiles?: boolean; signal?: AbortSignal; onFile?: (done: number) => void } = {},
): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < refs.length) {
      const i = next++;
      const ref = refs[i]!;
      if (/^https?:\/\//i.test(ref)) {
        const ext = extname(new URL(ref).pathname)
          .slice(0, 8)
          .replace(/[^.\w]/g, "");
        const dest = join(workDir, `in${i}${ext}`);
        await download(ref, dest, options.signal);
        map.set(ref, dest);
      } else if (options.allowLocalFiles && ref.startsWith("/")) {
        map.set(ref, ref);
      } else {
        throw new Error(`unsupported file reference: ${ref.slice(0, 80)}`);
      }
      options.onFile?.(++done);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return map;
}
