/**
 * What an endpoint object writes to D1 after a batch of attempts, as one batch: each attempt's row, each delivery's
 * new state (and its hand-over mark), and a registered endpoint's failure streak, which disables it after
 * DISABLE_AFTER_FAILING_MS of nothing but failures (with the reason on its record).
 */
import type { EndpointKind } from "../db/schema.ts";
import { newId } from "../lib/ids.ts";
import { DISABLE_AFTER_FAILING_MS } from "./limits.ts";
import type { AttemptOutcome } from "./transport.ts";

export interface EndpointRow {
  id: string;
  kind: EndpointKind;
  url: string;
  active: number;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: number | null;
  failingSince: number | null;
}

/** One delivery's attempt in a batch (no outcome: dead-lettered without an attempt, the endpoint is disabled). */
export interface AttemptResult {
  deliveryId: string;
  at: number;
  outcome: AttemptOutcome | null;
  /** Next due time, or null when the delivery is done (delivered or dead-lettered). */
  next: number | null;
  status: "pending" | "delivered" | "dead_letter";
}

export const recordStatements = (
  db: D1Database,
  endpoint: EndpointRow,
  results: AttemptResult[],
  now: number,
): D1PreparedStatement[] => {
  const statements: D1PreparedStatement[] = [];
  let failingSince = endpoint.failingSince;
  let lastError: string | null = null;
  for (const result of results) {
    const outcome = result.outcome;
    if (outcome) {
      statements.push(
        db
          .prepare(
            `INSERT INTO webhook_attempts (id, delivery_id, attempt, status, response_status, duration_ms, error,
               response_body, created_at)
             SELECT ?1, id, attempts + 1, ?2, ?3, ?4, ?5, ?6, ?7 FROM webhook_deliveries WHERE id = ?8`,
          )
          .bind(
            newId("wha"),
            outcome.ok ? "succeeded" : "failed",
            outcome.status,
            outcome.durationMs,
            outcome.error,
            outcome.responseBody,
            result.at,
            result.deliveryId,
          ),
      );
      failingSince = outcome.ok ? null : (failingSince ?? result.at);
      if (!outcome.ok) lastError = outcome.error;
    }
    statements.push(
      db
        .prepare(
          `UPDATE webhook_deliveries SET attempts = attempts + ?2, status = ?3, response_status = coalesce(?4, response_status),
             last_error = ?5, next_attempt_at = ?6, delivered_at = CASE WHEN ?3 = 'delivered' THEN ?7 ELSE delivered_at END,
             handed_off_at = coalesce(handed_off_at, ?7), updated_at = ?7
           WHERE id = ?1`,
        )
        .bind(
          result.deliveryId,
          outcome ? 1 : 0,
          result.status,
          outcome?.status ?? null,
          outcome ? outcome.error : "the endpoint is disabled",
          result.next,
          result.at,
        ),
    );
  }
  // The failure streak is a registered endpoint's: the job-callback endpoint's deliveries each go to their own
  // job's URL, so one failing receiver says nothing of the others and never disables it.
  if (endpoint.kind === "endpoint" && results.some((r) => r.outcome)) {
    const disable = failingSince !== null && now - failingSince >= DISABLE_AFTER_FAILING_MS;
    const days = Math.round(DISABLE_AFTER_FAILING_MS / 86_400_000);
    statements.push(
      db
        .prepare(
          `UPDATE webhook_endpoints SET failing_since = ?2,
             active = CASE WHEN ?3 THEN 0 ELSE active END,
             disabled_reason = CASE WHEN ?3 THEN ?4 ELSE disabled_reason END,
             updated_at = CASE WHEN ?3 THEN ?5 ELSE updated_at END
           WHERE id = ?1 AND active = 1`,
        )
        .bind(
          endpoint.id,
          failingSince,
          disable ? 1 : 0,
          `Disabled automatically: every delivery attempt failed for ${days} days (last error: ${lastError})`,
          now,
        ),
    );
  }
  return statements;
};
