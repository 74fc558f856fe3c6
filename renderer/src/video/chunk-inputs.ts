/**
 * The inputs of a split job, downloaded once per renderer and shared by every chunk of the job it renders and by
 * its join (docs/parallel-rendering.md): keyed by the signed URL's origin and path (each hand-over signs the same
 * stored file anew, so the query differs), each file fetched once even when two chunks ask at the same moment.
 * The job's files stay LINGER_MS after its last chunk here ends, for the next chunk or the join, then go. Its chunks'
 * tools read them as the job's tool user (lib/tool-users.ts, one per job id), so the folders are that user's, and the
 * files hold a lease on it until they go: no other task gets the uid while they are there.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import type { ToolLease, ToolUsers } from "../lib/tool-users.ts";
import { fetchInputs, type FetchOptions } from "./fetch-inputs.ts";

const LINGER_MS = 120_000;

interface JobFiles {
  dir: string;
  users: number;
  files: Map<string, Promise<string>>;
  timer?: NodeJS.Timeout;
  /** The job's tool user, held while the files exist (none without `toolUsers`: tests). */
  lease: Promise<ToolLease> | null;
}

const byJob = new Map<string, JobFiles>();

const keyOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
};

/** Downloads like fetchInputs, through the job's shared files. */
export type FetchInputs = (
  refs: readonly string[],
  workDir: string,
  options?: FetchOptions,
) => Promise<Map<string, string>>;

/**
 * The job's shared inputs on this renderer; `release` when the render is done with them. `toolUsers`: the folders
 * are given to the job's tool user.
 */
export const sharedInputs = (
  root: string,
  jobId: string,
  toolUsers?: ToolUsers,
): { fetch: FetchInputs; release: () => void } => {
  // One folder per renderer (its TMP_DIR and process): renderers started side by side share the machine's TMP_DIR,
  // and each gives its folder to its own tool user of the job (a shared one, given to both in turn, let one of them
  // read nothing: "Permission denied"); tests run several renderers in one process, each with its own TMP_DIR.
  const key = `${root}\0${jobId}`;
  let job = byJob.get(key);
  if (!job) {
    const lease = toolUsers?.lease(jobId) ?? null;
    lease?.catch(() => {}); // awaited by the first download
    const dir = join(root, `inputs-${process.pid}-${encodeURIComponent(jobId)}`);
    job = { dir, users: 0, files: new Map(), lease };
    byJob.set(key, job);
  }
  const own = job;
  clearTimeout(own.timer);
  own.users++;
  const fetch: FetchInputs = async (refs, workDir, options = {}) => {
    const inputs = options.inputs ?? {};
    const map = new Map<string, string>();
    let done = 0;
    await Promise.all(
      refs.map(async (ref) => {
        const url = Object.hasOwn(inputs, ref) ? inputs[ref] : undefined;
        if (url === undefined) {
          // Local files (tests, benchmark) and refusals: as fetchInputs decides.
          for (const [r, p] of await fetchInputs([ref], workDir, options)) map.set(r, p);
          return;
        }
        const key = keyOf(url);
        // A download another chunk started fails with that chunk (its signal aborted): fetch it again, once.
        for (let tries = 0; ; tries++) {
          let file = own.files.get(key);
          const mine = !file;
          if (!file) {
            file = (async () => {
              const lease = await own.lease;
              await mkdir(own.dir, { recursive: true });
              await lease?.own(own.dir);
              const dir = await mkdtemp(join(own.dir, "f"));
              await lease?.own(dir);
              const got = await fetchInputs([ref], dir, { inputs: { [ref]: url }, signal: options.signal });
              return got.get(ref)!;
            })();
            own.files.set(key, file);
            // A failed download is not kept: the next render fetches it again.
            file.catch(() => own.files.delete(key));
          }
          try {
            map.set(ref, await file);
            break;
          } catch (e) {
            if (mine || tries > 0 || options.signal?.aborted) throw e;
          }
        }
        options.onFile?.(++done);
      }),
    );
    return map;
  };
  const release = () => {
    if (--own.users > 0) return;
    own.timer = setTimeout(() => {
      if (own.users > 0) return;
      byJob.delete(key);
      void rm(own.dir, { recursive: true, force: true })
        .then(() => own.lease)
        .then((lease) => lease?.release())
        .catch(() => {});
    }, LINGER_MS);
    own.timer.unref();
  };
  return { fetch, release };
};
