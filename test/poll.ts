/**
 * Polls `check` every `intervalMs` until it answers something other than undefined (an event a test cannot await
 * directly), or fails after `timeoutMs` naming `what`. Plain TypeScript: the Worker tests (workerd) and the
 * end-to-end tests (Node) both use it.
 */
export const until = async <T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  intervalMs = 200,
): Promise<T> => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
};
