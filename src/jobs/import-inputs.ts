/**
 * Public-URL inputs of a job are fetched into the caller's storage at creation (through the SSRF guard of
 * src/net: no private, loopback, link-local or metadata addresses, every redirect hop re-checked, size and
 * time bounds), so a render never depends on a third-party server being up, and the renderer only ever reads
 * signed storage URLs. Each distinct URL is imported once per job; the imports become the job's input files.
 * Any failure is a 400 naming the referencing field, like every other problem with a config.
 */
import type { FileReference } from "@media-render/contract/config";
import type { CallerCtx } from "../context.ts";
import { importFromUrl } from "../files/import-url.ts";
import type { FileRow } from "../files/store-file.ts";
import { NotFound, UnprocessableMedia, ValidationFailed, type FieldError } from "../lib/errors.ts";
import { checkUrl } from "../net/url-guard.ts";
import { isStoragePath } from "./resolve-inputs.ts";

/** Distinct public URLs one job may reference (each is a download into storage at creation). */
export const MAX_REMOTE_INPUTS = 20;
/** Downloads in flight at once for one job. */
const PARALLEL = 4;

export type Fetcher = (request: Request) => Promise<Response>;

const asFieldErrors = (error: unknown, ref: FileReference): FieldError[] => {
  // The file checks speak of "file"; in a job the problem sits at the field that references the URL.
  if (error instanceof ValidationFailed) return error.errors.map((x) => ({ ...x, field: ref.field }));
  if (error instanceof NotFound)
    return [{ field: ref.field, message: `Remote file not found: ${ref.url}`, code: "URL_NOT_FOUND" }];
  if (error instanceof UnprocessableMedia)
    return [{ field: ref.field, message: error.message, code: "URL_IMPORT_FAILED" }];
  throw error;
};

/** The distinct public URLs among `refs` (first reference of each, in config order). */
export const remoteReferences = (refs: readonly FileReference[]): FileReference[] => {
  const seen = new Map<string, FileReference>();
  for (const ref of refs) if (!isStoragePath(ref.url) && !seen.has(ref.url)) seen.set(ref.url, ref);
  return [...seen.values()];
};

/**
 * What can be said about the public URLs of `refs` without fetching them: too many of them, or refused by
 * the SSRF guard (scheme, credentials, private or internal host). Used by validation and before importing.
 */
export const remoteReferenceErrors = (refs: readonly FileReference[]): FieldError[] => {
  const remote = remoteReferences(refs);
  if (remote.length > MAX_REMOTE_INPUTS) {
    return [
      {
        field: "config",
        message: `At most ${MAX_REMOTE_INPUTS} distinct public URLs per job (found ${remote.length}); upload the files and reference their storageUrl`,
        code: "TOO_MANY_REMOTE_INPUTS",
      },
    ];
  }
  return remote.flatMap((ref) => {
    try {
      checkUrl(ref.url, ref.field);
      return [];
    } catch (e) {
      return asFieldErrors(e, ref);
    }
  });
};

/** Imports every public URL of `refs`; returns the stored file per URL, or throws one ValidationFailed for all. */
export const importRemoteInputs = async (
  ctx: CallerCtx,
  {
    refs,
    fetcher,
  }: {
    refs: readonly FileReference[];
    /** Transport stand-in for tests (the SSRF guard still judges every URL). */
    fetcher?: Fetcher;
  },
): Promise<Map<string, FileRow>> => {
  const refused = remoteReferenceErrors(refs);
  if (refused.length) throw new ValidationFailed(refused);
  const remote = remoteReferences(refs);
  const imported = new Map<string, FileRow>();
  const errors: FieldError[][] = remote.map(() => []);
  let next = 0;
  const worker = async () => {
    while (next < remote.length) {
      const i = next++;
      const ref = remote[i]!;
      try {
        const expected = ref.slot === "unknown" ? undefined : ref.slot;
        imported.set(
          ref.url,
          await importFromUrl(ctx, {
            userId: ctx.caller.userId,
            url: ref.url,
            expected,
            field: ref.field,
            fetcher,
          }),
        );
      } catch (e) {
        errors[i] = asFieldErrors(e, ref);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, remote.length) }, worker));
  const all = errors.flat();
  if (all.length) throw new ValidationFailed(all);
  return imported;
};
