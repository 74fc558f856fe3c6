/** Per-task temp directories that are always removed, whatever happens inside. */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";

/**
 * Creates a fresh directory under `root` (created if missing), runs `fn` with it, and removes it
 * afterwards, on success and on error alike.
 */
export const withTempDir = async <T>(
  root: string,
  prefix: string,
  fn: (dir: string) => Promise<T>,
): Promise<T> => {
  await mkdir(root, { recursive: true });
  const dir = await mkdtemp(join(root, prefix));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
