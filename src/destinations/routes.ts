/**
 * /api/v2/storage-connections: the S3-compatible buckets a job's `destinations` deliver to. An API key or the
 * owner's session with scope renders:create (as for render webhooks: both send a job's outputs out of the
 * service). Another account's connection is a 404 on every route; the secret is never answered.
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { callerCtx, requireKeyOrSession } from "../auth/api-key.ts";
import { requireScope } from "../auth/scopes.ts";
import { Deleted, ok } from "../lib/envelope.ts";
import { describe } from "../lib/openapi-route.ts";
import { jsonBody } from "../lib/validate.ts";
import { createConnection, deleteConnection, getConnection, listConnections } from "./connections.ts";
import { CreateConnectionBody, StorageConnection, StorageConnectionList } from "./schemas.ts";

export const storageConnectionRoutes = new Hono<AppEnv>()
  .use(requireKeyOrSession, requireScope("renders:create"))
  .get(
    "/",
    describe({
      operationId: "listStorageConnections",
      tag: "Destinations",
      summary: "List your storage connections (scope renders:create)",
      ok: { status: 200, description: "The connections, without secrets", data: StorageConnectionList },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await listConnections(callerCtx(c))),
  )
  .post(
    "/",
    describe({
      operationId: "createStorageConnection",
      tag: "Destinations",
      summary: "Connect an S3-compatible bucket (scope renders:create)",
      description:
        "AWS S3, Cloudflare R2, Google Cloud Storage (its S3 API, HMAC keys), MinIO... The endpoint passes the SSRF guard (https; no private, loopback or metadata address) now and before every upload. The secret access key is stored sealed and never answered.",
      body: CreateConnectionBody,
      bodyExample: {
        name: "renders bucket",
        endpoint: "https://s3.eu-west-1.amazonaws.com",
        region: "eu-west-1",
        bucket: "my-renders",
        accessKeyId: "AKIAIOSFODNN7EXAMPLE",
        secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        keyTemplate: "renders/{date}/{jobId}.{ext}",
      },
      ok: { status: 201, description: "The connection (never its secret)", data: StorageConnection },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await createConnection(callerCtx(c), await jsonBody(c, CreateConnectionBody)), 201),
  )
  .get(
    "/:id",
    describe({
      operationId: "getStorageConnection",
      tag: "Destinations",
      summary: "Read a storage connection (scope renders:create)",
      ok: { status: 200, description: "The connection, without its secret", data: StorageConnection },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await getConnection(callerCtx(c), c.req.param("id"))),
  )
  .delete(
    "/:id",
    describe({
      operationId: "deleteStorageConnection",
      tag: "Destinations",
      summary: "Delete a storage connection (scope renders:create)",
      description: "Deliveries still due to it fail, saying it was deleted.",
      ok: { status: 200, description: "`id`, `deleted`", data: Deleted },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await deleteConnection(callerCtx(c), c.req.param("id"))),
  );
