/**
 * A job's `destinations` at its creation: each names one of the caller's storage connections, and its key is
 * resolved now (the destination's own template, else the connection's), so a missing connection, a key that cannot
 * be made or an endpoint the guard refuses is a 400 naming the field before anything is reserved. Once the job is
 * open, its deliveries are written `waiting`; the job's completion makes them due (deliver.ts).
 */
import { and, eq, inArray } from "drizzle-orm";
import type { CallerCtx } from "../context.ts";
import { jobDeliveries, storageConnections } from "../db/schema.ts";
import { ValidationFailed, type FieldError } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { parseOrThrow } from "../lib/validate.ts";
import { endpointRefusal } from "./connections.ts";
import { renderKey, type KeyVariables } from "./key-template.ts";
import { Destinations } from "./schemas.ts";

/** The deliveries a job will make, ready to be written once it is open. */
export type PlannedDeliveries = (typeof jobDeliveries.$inferInsert)[];

/**
 * Checks `raw` (the request's `destinations`, possibly absent) for the job `job` will be, and resolves each
 * destination's key. Throws ValidationFailed naming `destinations[i]...` fields.
 */
export const planDeliveries = async (
  ctx: CallerCtx,
  raw: unknown,
  job: KeyVariables,
): Promise<PlannedDeliveries> => {
  if (raw === undefined || raw === null) return [];
  const destinations = parseOrThrow(Destinations, raw, "destinations");
  if (destinations.length === 0) return [];
  const ids = [...new Set(destinations.map((d) => d.connectionId))];
  const rows = await ctx.db.query.storageConnections.findMany({
    where: and(eq(storageConnections.userId, ctx.caller.userId), inArray(storageConnections.id, ids)),
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const errors: FieldError[] = [];
  const planned: PlannedDeliveries = [];
  const refusals = new Map<string, Promise<string | null>>();
  for (const [i, destination] of destinations.entries()) {
    const connection = byId.get(destination.connectionId);
    if (!connection) {
      errors.push({
        field: `destinations[${i}].connectionId`,
        message: `No storage connection ${destination.connectionId} (POST /api/v2/storage-connections makes one)`,
        code: "CONNECTION_NOT_FOUND",
      });
      continue;
    }
    // A connection is checked once per job however many destinations name it.
    if (!refusals.has(connection.id)) refusals.set(connection.id, endpointRefusal(ctx, connection));
    const refusal = await refusals.get(connection.id);
    if (refusal) {
      errors.push({
        field: `destinations[${i}].connectionId`,
        message: `The connection's endpoint is not allowed: ${refusal}`,
        code: "URL_NOT_ALLOWED",
      });
      continue;
    }
    const template = destination.key ?? connection.keyTemplate;
    const key = renderKey(template, job);
    if ("refusal" in key) {
      errors.push({
        field: destination.key === undefined ? `destinations[${i}].connectionId` : `destinations[${i}].key`,
        message: `${destination.key === undefined ? "The connection's key template" : "The key"} ${key.refusal}`,
        code: "INVALID_KEY",
      });
      continue;
    }
    const at = ctx.now();
    planned.push({
      id: newId("dlv"),
      userId: ctx.caller.userId,
      jobId: job.jobId,
      position: i,
      connectionId: connection.id,
      bucket: connection.bucket,
      key: key.key,
      status: "waiting",
      files: [],
      createdAt: at,
      updatedAt: at,
    });
  }
  if (errors.length) throw new ValidationFailed(errors);
  return planned;
};

/** Writes a job's planned deliveries (the job is open by now). */
export const recordDeliveries = async (ctx: CallerCtx, planned: PlannedDeliveries): Promise<void> => {
  if (planned.length) await ctx.db.insert(jobDeliveries).values(planned).run();
};
