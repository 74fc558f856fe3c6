/**
 * How a job's config references map to its stored input files. The config is kept exactly as submitted
 * (spec: "the config as submitted"); a public URL input was fetched into storage at creation and is listed in
 * `inputFileIds` as a media file whose `sourceUrl` is that URL. Renderers call these pure helpers to turn
 * references into storage paths (image renderer) or signed URLs (video dispatch), never touching other strings.
 */
import { forEachFileReference } from "@media-render/contract/config";
import type { JobType } from "../db/schema.ts";

/** The fields of a media file row these helpers need. */
export interface InputFile {
  storageUrl: string;
  sourceUrl?: string | null;
  source?: string;
}

/** Reference as written in the config -> the stored file: its storage path, and for imports its public URL. */
export const referenceTargets = <F extends InputFile>(files: readonly F[]): Map<string, F> => {
  const map = new Map<string, F>();
  for (const file of files) {
    map.set(file.storageUrl, file);
    if (file.sourceUrl && file.source !== "output" && !map.has(file.sourceUrl)) map.set(file.sourceUrl, file);
  }
  return map;
};

const grammarType = (type: JobType | "image" | "video") => type.toLowerCase() as "image" | "video";

/**
 * A copy of `config` whose file references are replaced by `replace(reference)` (references it returns
 * undefined for stay as they are). Only reference slots change: a text that happens to equal a path does not.
 */
export const rewriteReferences = <T>(
  type: JobType | "image" | "video",
  config: T,
  replace: (reference: string) => string | undefined,
): T => {
  const copy = structuredClone(config);
  forEachFileReference(grammarType(type), copy, (ref) => replace(ref.url));
  return copy;
};

/** A copy of `config` in which every public URL input is replaced by the storage path it was imported to. */
export const withStoragePaths = <T>(
  type: JobType | "image" | "video",
  config: T,
  files: readonly InputFile[],
): T => {
  const targets = referenceTargets(files);
  return rewriteReferences(type, config, (ref) =>
    ref.startsWith("/") ? undefined : targets.get(ref)?.storageUrl,
  );
};
