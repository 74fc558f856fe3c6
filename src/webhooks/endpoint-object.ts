/**
 * One Durable Object per webhook endpoint (named by the endpoint id) sequences its deliveries: a SQLite queue of
 * deliveries with their due time, one alarm armed to the earliest, attempts to one receiver made one at a time in
 * due order (so a receiver sees first attempts in the order its events happened). The account's job-callback
 * endpoint (job-callbacks.ts) is one such object for every URL its jobs name: each URL is its own lane. D1 keeps the log customers read: each run
 * writes its attempts and the deliveries' new states there in one batch before the queue forgets them, so a crash
 * between an attempt and its record repeats the attempt with the same `webhook-id` (at-least-once) and loses
 * nothing. The decisions (signature, next delay, hourly budget) are the pure functions of schedule.ts and
 * signature.ts.
 */
import { DurableObject } from "cloudflare:workers";
import * as v from "valibot";
import type { Env } from "../env.ts";
import { downloadPath } from "../paths.ts";
import { signPath } from "../storage/signed-url.ts";
import { eventBody, type StoredEvent } from "./events.ts";
import { DOWNLOAD_LINK_SECONDS, MAX_ATTEMPTS_PER_HOUR, MAX_CALLBACK_ATTEMPTS_PER_HOUR } from "./limits.ts";
import { recordStatements, type AttemptResult, type EndpointRow } from "./record-attempts.ts";
import { budget, nextAttemptAt } from "./schedule.ts";
import { openEndpointSecret, webhookHeaders } from "./signature.ts";
import { attemptDelivery, type AttemptOutcome } from "./transport.ts";

/** Deliveries handed to the object: RPC arguments are validated like any other input. */
const Enqueue = v.array(v.object({ id: v.pipe(v.string(), v.startsWith("whd_")), endpointId: v.string() }));

/** Deliveries taken per D1 round trip, and how long one alarm run keeps sending before it re-arms. */
const BATCH = 25;
const RUN_BUDGET_MS = 30_000;
/** A batch against slow receivers is cut short so its results reach D1 (the rest stay due for the next one). */
const BATCH_BUDGET_MS = 10_000;

interface QueueRow extends Record<string, SqlStorageValue> {
  delivery_id: string;
  endpoint_id: string;
  attempt: number;
}

interface DeliveryRow {
  id: string;
  status: string;
  /** A job callback's own target; null: the endpoint's URL. */
  url: string | null;
  eventId: string;
  type: string;
  data: string;
  createdAt: number;
  fileExpiresAt: number | null;
}

export class WebhookEndpoint extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private running: Promise<void> | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    // `seq` keeps hand-over order among deliveries due at the same time.
    this.sql.exec(`CREATE TABLE IF NOT EXISTS queue (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, delivery_id TEXT NOT NULL UNIQUE, endpoint_id TEXT NOT NULL,
      attempt INTEGER NOT NULL DEFAULT 0, due_at INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS queue_due_idx ON queue (due_at, seq);
    CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v INTEGER NOT NULL);`);
  }

  /** Takes deliveries (new ones, or dead letters being replayed) due now; returns how many it did not hold yet. */
  async enqueue(input: unknown): Promise<number> {
    const items = v.parse(Enqueue, input);
    const now = Date.now();
    let added = 0;
    for (const item of items)
      added += this.sql.exec(
        "INSERT OR IGNORE INTO queue (delivery_id, endpoint_id, attempt, due_at) VALUES (?, ?, 0, ?)",
        item.id,
        item.endpointId,
        now,
      ).rowsWritten;
    if (added) {
      // The alarm is the durable trigger (it survives an eviction); starting the drain now saves its scheduling
      // delay (~100 ms locally) on the path from job completion to the first attempt.
      await this.arm(now);
      this.ctx.waitUntil(this.alarm());
    }
    return added;
  }

  /** Deliveries waiting in the object (tests and the benchmark watch it drain). */
  async pending(): Promise<number> {
    return this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM queue").one().n;
  }

  /** Drops every delivery and the alarm (the endpoint was deleted). */
  async forget(): Promise<void> {
    this.sql.exec("DELETE FROM queue");
    await this.ctx.storage.deleteAlarm();
  }

  override async alarm(): Promise<void> {
    // The test tools may run the alarm while the platform runs it too: one drain at a time.
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
    await this.running;
  }

  private async arm(due: number) {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > due) await this.ctx.storage.setAlarm(due);
  }

  private async drain(): Promise<void> {
    const started = Date.now();
    while (Date.now() - started < RUN_BUDGET_MS) {
      const due = this.sql
        .exec<QueueRow>(
          "SELECT delivery_id, endpoint_id, attempt FROM queue WHERE due_at <= ? ORDER BY due_at, seq LIMIT ?",
          Date.now(),
          BATCH,
        )
        .toArray();
      if (due.length === 0) break;
      if (!(await this.sendBatch(due))) break;
    }
    const next = this.sql.exec<{ at: number | null }>("SELECT min(due_at) AS at FROM queue").one().at;
    if (next === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.max(next, Date.now()));
  }

  /** Attempts each due delivery once and records the results; false when the hourly budget stopped it. */
  private async sendBatch(due: QueueRow[]): Promise<boolean> {
    const db = this.env.DB;
    // The endpoint (read afresh each batch: a rotation, an edit or a disable applies at once) and the due
    // deliveries with their events, in one round trip.
    const endpointId = due[0]!.endpoint_id;
    const [endpointResult, deliveryResult] = await db.batch([
      db
        .prepare(
          `SELECT id, kind, url, active, secret, previous_secret AS previousSecret,
             previous_secret_expires_at AS previousSecretExpiresAt, failing_since AS failingSince
           FROM webhook_endpoints WHERE id = ?1`,
        )
        .bind(endpointId),
      db
        .prepare(
          `SELECT d.id, d.status, d.url, ev.id AS eventId, ev.type, ev.data, ev.created_at AS createdAt,
             (SELECT m.expires_at FROM media_files m WHERE m.id = json_extract(ev.data, '$.outputFileId')) AS fileExpiresAt
           FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id
           WHERE d.endpoint_id = ?1 AND d.id IN (SELECT value FROM json_each(?2))`,
        )
        .bind(endpointId, JSON.stringify(due.map((r) => r.delivery_id))),
    ]);
    const endpoint = (endpointResult?.results[0] as EndpointRow | undefined) ?? null;
    if (!endpoint) {
      // Deleted: its deliveries went with it (ON DELETE CASCADE).
      this.sql.exec("DELETE FROM queue");
      return true;
    }
    // Opened once a batch (they are stored sealed): the previous one only while its grace lasts, per attempt.
    const secrets = {
      current: await openEndpointSecret(this.env, endpoint.id, endpoint.secret),
      previous: endpoint.previousSecret
        ? await openEndpointSecret(this.env, endpoint.id, endpoint.previousSecret)
        : null,
    };
    const rows = (deliveryResult?.results ?? []) as DeliveryRow[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const results: AttemptResult[] = [];
    // Attempts to one receiver go one at a time, in due order; different receivers (the job-callback endpoint's
    // deliveries each carry their job's URL) are attempted side by side, so a receiver that does not answer holds
    // up only its own deliveries.
    const lanes = new Map<string, { row: QueueRow; delivery: DeliveryRow }[]>();
    for (const row of due) {
      const delivery = byId.get(row.delivery_id);
      if (!delivery || delivery.status !== "pending") {
        this.sql.exec("DELETE FROM queue WHERE delivery_id = ?", row.delivery_id);
        continue;
      }
      if (!endpoint.active) {
        results.push({
          deliveryId: row.delivery_id,
          at: Date.now(),
          outcome: null,
          next: null,
          status: "dead_letter",
        });
        continue;
      }
      const url = delivery.url ?? endpoint.url;
      lanes.set(url, [...(lanes.get(url) ?? []), { row, delivery }]);
    }
    let stopped = false;
    const started = Date.now();
    const budgetPerHour =
      endpoint.kind === "callback" ? MAX_CALLBACK_ATTEMPTS_PER_HOUR : MAX_ATTEMPTS_PER_HOUR;
    await Promise.all(
      [...lanes].map(async ([url, items]) => {
        for (const { row, delivery } of items) {
          if (stopped || Date.now() - started > BATCH_BUDGET_MS) return;
          const at = Date.now();
          const allowed = this.takeBudget(at, budgetPerHour);
          if (allowed !== true) {
            this.sql.exec("UPDATE queue SET due_at = ? WHERE due_at < ?", allowed, allowed);
            stopped = true;
            return;
          }
          const outcome = await this.attempt(url, endpoint, secrets, delivery, at);
          const next = outcome.ok ? null : nextAttemptAt(row.attempt + 1, Date.now(), outcome.retryAfterMs);
          results.push({
            deliveryId: row.delivery_id,
            at,
            outcome,
            next,
            status: outcome.ok ? "delivered" : next === null ? "dead_letter" : "pending",
          });
        }
      }),
    );
    if (results.length) await this.env.DB.batch(recordStatements(this.env.DB, endpoint, results, Date.now()));
    for (const result of results) {
      if (result.next === null) this.sql.exec("DELETE FROM queue WHERE delivery_id = ?", result.deliveryId);
      else
        this.sql.exec(
          "UPDATE queue SET attempt = attempt + 1, due_at = ? WHERE delivery_id = ?",
          result.next,
          result.deliveryId,
        );
    }
    return !stopped;
  }

  /** Counts one attempt against the hourly budget: true, or the time the window reopens. */
  private takeBudget(now: number, max: number): true | number {
    const get = (k: string) =>
      this.sql.exec<{ v: number }>("SELECT v FROM meta WHERE k = ?", k).toArray()[0]?.v ?? 0;
    const decision = budget({ start: get("window_start"), count: get("window_count") }, now, max);
    if (!decision.allowed) return decision.until;
    this.sql.exec(
      "INSERT OR REPLACE INTO meta (k, v) VALUES ('window_start', ?), ('window_count', ?)",
      decision.window.start,
      decision.window.count,
    );
    return true;
  }

  private async attempt(
    url: string,
    endpoint: EndpointRow,
    secrets: { current: string; previous: string | null },
    delivery: DeliveryRow,
    at: number,
  ): Promise<AttemptOutcome> {
    const event: StoredEvent = {
      id: delivery.eventId,
      type: delivery.type,
      data: JSON.parse(delivery.data) as Record<string, unknown>,
      createdAt: delivery.createdAt,
    };
    const body = eventBody(event, await this.downloadLink(event, delivery.fileExpiresAt, at));
    const signing = [secrets.current];
    if (secrets.previous && (endpoint.previousSecretExpiresAt ?? 0) > at) signing.push(secrets.previous);
    const headers = await webhookHeaders(signing, { id: event.id, timestamp: Math.floor(at / 1000), body });
    return attemptDelivery(this.env, { url, headers, body });
  }

  /** A render.completed body carries a signed link to the output, valid DOWNLOAD_LINK_SECONDS from this attempt. */
  private async downloadLink(event: StoredEvent, fileExpiresAt: number | null, at: number) {
    const fileId = event.data.outputFileId;
    if (typeof fileId !== "string") return {};
    let expires = Math.floor(at / 1000) + DOWNLOAD_LINK_SECONDS;
    if (fileExpiresAt !== null) expires = Math.min(expires, Math.floor(fileExpiresAt / 1000));
    const path = downloadPath(fileId);
    const query = await signPath(this.env.STORAGE_SIGNING_SECRET, "GET", path, expires);
    return {
      downloadUrl: `${this.env.PUBLIC_URL.replace(/\/+$/, "")}${path}?${query}`,
      downloadUrlExpiresAt: new Date(expires * 1000).toISOString(),
    };
  }
}
