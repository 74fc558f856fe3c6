/**
 * Storage connection verbs: create (the endpoint passes the SSRF guard; the secret is sealed to the new row), list,
 * read, delete. Every query is scoped to the caller: another account's connection is a 404. The secret is never
 * answered, not even by create.
 */
import { and, asc, count, eq } from "drizzle-orm";
import type { CallerCtx, Ctx } from "../context.ts";
import { storageConnections } from "../db/schema.ts";
import type { Deleted } from "../lib/envelope.ts";
import { NotFound, ValidationFailed } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { seal, unseal } from "../lib/sealed.ts";
import { iso } from "../lib/time.ts";
import { endpointUrlRefusal, type Send } from "../webhooks/url-policy.ts";
import { MAX_CONNECTIONS_PER_ACCOUNT } from "./limits.ts";
import type { CreateConnectionBody, StorageConnection } from "./schemas.ts";

type ConnectionRow = typeof storageConnections.$inferSelect;

/** What the secret is sealed for (src/lib/sealed.ts derives one key per purpose). */
const PURPOSE = "storage-secret";

/** Never the secret. */
const toConnection = (row: ConnectionRow): StorageConnection => ({
  id: row.id,
  name: row.name,
  endpoint: row.endpoint,
  region: row.region,
  bucket: row.bucket,
  addressing: row.addressing,
  accessKeyId: row.accessKeyId,
  keyTemplate: row.keyTemplate,
  createdAt: iso(row.createdAt)!,
  updatedAt: iso(row.updatedAt)!,
});

/** The origin a connection's requests go to: the endpoint's, or `<bucket>.<host>` when virtual-hosted. */
export const bucketOrigin = (row: Pick<ConnectionRow, "endpoint" | "bucket" | "addressing">): URL => {
  const url = new URL(row.endpoint);
  if (row.addressing === "virtual") url.hostname = `${row.bucket}.${url.hostname}`;
  return url;
};

/**
 * Why requests may not go to this connection's endpoint, or null: an origin only (no path, query, fragment or
 * credentials), then the outbound URL policy of the webhooks (src/webhooks/url-policy.ts: the SSRF guard of
 * src/net; https only, loopback only in development), for the origin the requests really go to.
 */
export const endpointRefusal = async (
  ctx: Ctx,
  row: Pick<ConnectionRow, "endpoint" | "bucket" | "addressing">,
  send?: Send,
): Promise<string | null> => {
  let url: URL;
  try {
    url = new URL(row.endpoint);
  } catch {
    return "not a valid URL";
  }
  if (url.pathname !== "/" || url.search || url.hash || row.endpoint.includes("?"))
    return "give the service's origin only (scheme, host and port), without a path or query";
  const origin = bucketOrigin(row);
  // A URL keeps its host when the new one is not a host name (the bucket before an IP address).
  if (row.addressing === "virtual" && origin.hostname !== `${row.bucket}.${url.hostname}`)
    return "virtual-hosted addressing needs a host name, not an IP address: use path addressing";
  return endpointUrlRefusal(ctx.env, origin.href, send);
};

export const createConnection = async (
  ctx: CallerCtx,
  input: CreateConnectionBody & { send?: Send },
): Promise<StorageConnection> => {
  const { userId } = ctx.caller;
  const [existing] = await ctx.db
    .select({ n: count() })
    .from(storageConnections)
    .where(eq(storageConnections.userId, userId));
  if ((existing?.n ?? 0) >= MAX_CONNECTIONS_PER_ACCOUNT)
    throw new ValidationFailed(
      [
        {
          field: "endpoint",
          message: `An account may have at most ${MAX_CONNECTIONS_PER_ACCOUNT} storage connections; delete one first`,
          code: "TOO_MANY_CONNECTIONS",
        },
      ],
      "Too many storage connections",
    );
  const endpoint = input.endpoint.replace(/\/+$/, "");
  const refusal = await endpointRefusal(ctx, { ...input, endpoint }, input.send);
  if (refusal)
    throw new ValidationFailed(
      [{ field: "endpoint", message: `Endpoint not allowed: ${refusal}`, code: "URL_NOT_ALLOWED" }],
      "Endpoint not allowed",
    );
  const id = newId("stc");
  const at = ctx.now();
  const [row] = await ctx.db
    .insert(storageConnections)
    .values({
      id,
      userId,
      name: input.name,
      endpoint,
      region: input.region,
      bucket: input.bucket,
      addressing: input.addressing,
      accessKeyId: input.accessKeyId,
      secret: await seal(ctx.env.DATA_ENCRYPTION_KEY, PURPOSE, id, input.secretAccessKey),
      keyTemplate: input.keyTemplate,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  return toConnection(row!);
};

export const listConnections = async (ctx: CallerCtx): Promise<StorageConnection[]> =>
  (
    await ctx.db.query.storageConnections.findMany({
      where: eq(storageConnections.userId, ctx.caller.userId),
      orderBy: [asc(storageConnections.createdAt), asc(storageConnections.id)],
    })
  ).map(toConnection);

/** The caller's connection `id` as stored (404 when it is not theirs). */
export const getOwnedConnection = async (ctx: CallerCtx, id: string): Promise<ConnectionRow> => {
  const row = await ctx.db.query.storageConnections.findFirst({
    where: and(eq(storageConnections.id, id), eq(storageConnections.userId, ctx.caller.userId)),
  });
  if (!row) throw new NotFound("Storage connection");
  return row;
};

export const getConnection = async (ctx: CallerCtx, id: string): Promise<StorageConnection> =>
  toConnection(await getOwnedConnection(ctx, id));

/** Deletes the connection; deliveries still due to it fail, saying it was deleted. */
export const deleteConnection = async (ctx: CallerCtx, id: string): Promise<Deleted> => {
  const current = await getOwnedConnection(ctx, id);
  await ctx.db
    .delete(storageConnections)
    .where(and(eq(storageConnections.id, current.id), eq(storageConnections.userId, ctx.caller.userId)));
  return { id: current.id, deleted: true };
};

/** The connection's secret access key, in clear, to sign with. */
export const connectionSecret = (ctx: Ctx, row: Pick<ConnectionRow, "id" | "secret">): Promise<string> =>
  unseal(ctx.env.DATA_ENCRYPTION_KEY, PURPOSE, row.id, row.secret);
