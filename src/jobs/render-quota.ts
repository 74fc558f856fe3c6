/**
 * Renderer time spent on failed video jobs counts against the account (issue 29): a render that fails by the job's
 * own fault (past its deadline, past its memory share, bad media, a shader that never finishes a frame) is charged
 * no tokens, as the spec says, but the renderer time it took is recorded on the job (`failed_render_ms`), and an
 * account whose failed renders took more than FAILED_RENDER_SECONDS_PER_DAY over the last 24 hours may not create
 * video jobs until enough of that time is older than a day. So a hostile config can hold a render slot for free
 * only so long, while an honest failure (a bad file fails in a second or two) costs nothing that shows.
 *
 * Why a quota and not a charge for the time used: the spec promises that a failed job costs nothing, and most
 * failures are quick and honest; a charge would bill those users for our wording of their mistake, while the
 * quota only stops an account that keeps renderers busy with renders that fail.
 */
import { FailedRenderQuota } from "../lib/errors.ts";

/** Failed renders' time an account may accumulate over FAILED_RENDER_WINDOW_MS: 30 minutes. */
export const FAILED_RENDER_SECONDS_PER_DAY = 1800;
export const FAILED_RENDER_WINDOW_MS = 24 * 3600_000;

/** SQL of the failed render time (ms) of account row `u` within the window ending at `at`. */
const failedMs = (at: number) => `(SELECT coalesce(sum(j.failed_render_ms), 0) FROM jobs j
  WHERE j.user_id = u.id AND j.status = 'FAILED' AND j.completed_at > ${Math.trunc(at - FAILED_RENDER_WINDOW_MS)})`;

/** The quota as a condition over the account row `u` (openJob's guarded insert). */
export const underFailedRenderQuota = (at: number): string =>
  `${failedMs(at)} < ${FAILED_RENDER_SECONDS_PER_DAY * 1000}`;

/**
 * The refusal for an account over its quota at `at`, or null: with the seconds used and when it may try again
 * (when enough of its failed render time has left the window to bring it under the quota).
 */
export const failedRenderRefusal = async (
  d1: D1Database,
  userId: string,
  at: number,
): Promise<FailedRenderQuota | null> => {
  const since = Math.trunc(at - FAILED_RENDER_WINDOW_MS);
  const { results } = await d1
    .prepare(
      `SELECT failed_render_ms AS ms, completed_at AS at FROM jobs
       WHERE user_id = ?1 AND status = 'FAILED' AND completed_at > ?2 AND failed_render_ms > 0
       ORDER BY completed_at`,
    )
    .bind(userId, since)
    .all<{ ms: number; at: number }>();
  let used = results.reduce((n, r) => n + r.ms, 0);
  const limitMs = FAILED_RENDER_SECONDS_PER_DAY * 1000;
  if (used < limitMs) return null;
  // The oldest failures leave the window first: the quota frees once enough of them have.
  let freeAt = at;
  for (const failure of results) {
    used -= failure.ms;
    freeAt = failure.at + FAILED_RENDER_WINDOW_MS;
    if (used < limitMs) break;
  }
  const usedSeconds = Math.round(results.reduce((n, r) => n + r.ms, 0) / 1000);
  return new FailedRenderQuota(
    usedSeconds,
    FAILED_RENDER_SECONDS_PER_DAY,
    Math.max(1, Math.ceil((freeAt - at) / 1000)),
  );
};
