/**
 * /api/v2/storage-connections and a job's `destinations` at creation: the secret sealed and never answered, every
 * route scoped to its owner (another account's connection is a 404) and to renders:create, the endpoint through the
 * SSRF guard, and bad input refused naming the field before any token is reserved.
 */
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createApiKey } from "../../../src/keys/create-api-key.ts";
import { createContext, withCaller } from "../../../src/context.ts";
import { createConnection as createConnectionVerb } from "../../../src/destinations/connections.ts";
import { MAX_CONNECTIONS_PER_ACCOUNT } from "../../../src/destinations/limits.ts";
import { CreateConnectionBody } from "../../../src/destinations/schemas.ts";
import * as v from "valibot";
import { body, call, FULL, json, newAccount, testCtx } from "../helpers.ts";
import { auditedBalance, createJobCall, get } from "../jobs-seed.ts";
import { connectionBody, createConnection, s3 } from "./support.ts";

const PATH = "/api/v2/storage-connections";

const post = (key: string, payload: unknown) => call(PATH, json("POST", payload, key));

const video = {
  width: 64,
  height: 36,
  clips: [{ duration: 2, layers: [{ type: "fill-color", color: "#000000" }] }],
};

type Errors = { field: string; message: string; code: string }[];
const errorsOf = async (res: Response) => (await body(res)).details?.errors as Errors;

describe("storage connections", () => {
  it("creates, lists, reads and deletes a connection, never answering its secret", async () => {
    const { key, userId } = await newAccount();
    const created = await post(key, connectionBody({ name: "renders", keyTemplate: "out/{jobId}.{ext}" }));
    const createdText = await created.clone().text();
    expect(created.status, createdText).toBe(201);
    const connection = (await body<Record<string, unknown>>(created)).data!;
    expect(connection).toMatchObject({
      name: "renders",
      endpoint: `http://127.0.0.1:${s3().port}`,
      region: "us-east-1",
      bucket: s3().bucket,
      addressing: "path",
      accessKeyId: s3().accessKeyId,
      keyTemplate: "out/{jobId}.{ext}",
    });
    expect(String(connection.id)).toMatch(/^stc_/);
    const answers = [
      createdText,
      await (await get(PATH, key)).text(),
      await (await get(`${PATH}/${connection.id}`, key)).text(),
    ];
    for (const text of answers) {
      expect(text).not.toContain(s3().secretAccessKey);
      expect(text).not.toMatch(/secret/i);
    }
    expect((JSON.parse(answers[1]!) as { data: { id: string }[] }).data.map((c) => c.id)).toEqual([
      connection.id,
    ]);
    // Stored sealed to its row: the database alone holds no usable secret.
    const row = await env.DB.prepare("SELECT secret FROM storage_connections WHERE user_id = ?")
      .bind(userId)
      .first<{ secret: string }>();
    expect(row!.secret).toMatch(/^sealed\.v1\./);
    expect(row!.secret).not.toContain(s3().secretAccessKey);

    const deleted = await call(`${PATH}/${connection.id}`, {
      method: "DELETE",
      headers: { "x-api-key": key },
    });
    expect((await body(deleted)).data).toEqual({ id: connection.id, deleted: true });
    expect((await get(`${PATH}/${connection.id}`, key)).status).toBe(404);
    expect((await body<unknown[]>(await get(PATH, key))).data).toEqual([]);
  });

  it("answers 404 for another account's connection, and refuses it on a job", async () => {
    const owner = await newAccount();
    const other = await newAccount({ planId: "pro", tokens: 500 });
    const connection = await createConnection(owner.key);
    for (const res of [
      await get(`${PATH}/${connection.id}`, other.key),
      await call(`${PATH}/${connection.id}`, { method: "DELETE", headers: { "x-api-key": other.key } }),
    ]) {
      expect(res.status).toBe(404);
      expect((await body(res)).error).toBe("Storage connection not found");
    }
    expect((await body<unknown[]>(await get(PATH, other.key))).data).toEqual([]);
    const before = await auditedBalance(other.userId);
    const res = await createJobCall(other.key, {
      type: "video",
      config: video,
      destinations: [{ connectionId: connection.id }],
    });
    expect(res.status).toBe(400);
    expect(await errorsOf(res)).toEqual([
      {
        field: "destinations[0].connectionId",
        message: `No storage connection ${connection.id} (POST /api/v2/storage-connections makes one)`,
        code: "CONNECTION_NOT_FOUND",
      },
    ]);
    // Nothing was reserved or opened.
    expect(await auditedBalance(other.userId)).toBe(before);
    const jobs = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ?")
      .bind(other.userId)
      .first<{ n: number }>();
    expect(jobs!.n).toBe(0);
    // The owner's connection is untouched.
    expect((await get(`${PATH}/${connection.id}`, owner.key)).status).toBe(200);
  });

  it("needs renders:create: a read-only or media-only key gets 403 naming the scope", async () => {
    const { userId } = await newAccount();
    const keyWith = async (permissions: typeof FULL, scopes?: string[]) =>
      (await createApiKey(testCtx(), { userId, name: "scoped key", permissions, scopes })).key;
    const readOnly = await keyWith([{ resource: "jobs", action: "read" }]);
    const mediaOnly = await keyWith([{ resource: "media", action: "full" }]);
    for (const key of [readOnly, mediaOnly]) {
      for (const res of [await get(PATH, key), await post(key, connectionBody())]) {
        expect(res.status).toBe(403);
        const b = await body(res);
        expect(b.error).toBe("Insufficient permissions");
        expect(b.details).toMatchObject({ requiredScope: "renders:create" });
      }
    }
    const scoped = await keyWith([{ resource: "media", action: "read" }], ["renders:create"]);
    expect((await post(scoped, connectionBody())).status).toBe(201);
    expect((await get(PATH)).status).toBe(401);
  });

  it("refuses private, link-local and internal endpoints, and any endpoint with a path", async () => {
    const { key } = await newAccount();
    const refused = async (endpoint: string) => {
      const res = await post(key, connectionBody({ endpoint }));
      expect(res.status, endpoint).toBe(400);
      const [error] = await errorsOf(res);
      expect(error!.field).toBe("endpoint");
      expect(error!.code).toBe("URL_NOT_ALLOWED");
      return error!.message;
    };
    expect(await refused("https://169.254.169.254")).toMatch(/^Endpoint not allowed: /);
    expect(await refused("https://metadata.google.internal")).toMatch(/^Endpoint not allowed: /);
    expect(await refused("https://[fd00::1]")).toMatch(/^Endpoint not allowed: /);
    expect(await refused(`http://127.0.0.1:${s3().port}/some/prefix`)).toBe(
      "Endpoint not allowed: give the service's origin only (scheme, host and port), without a path or query",
    );
    expect(await refused("ftp://files.example.com")).toMatch(/^Endpoint not allowed: /);
    expect(await refused("https://user:pass@s3.example.com")).toBe(
      "Endpoint not allowed: URLs with credentials are not allowed",
    );
    // Every address of the private ranges, generated.
    const octet = fc.integer({ min: 0, max: 255 });
    const privateIp = fc.oneof(
      fc.tuple(octet, octet, octet).map(([a, b, c]) => `10.${a}.${b}.${c}`),
      fc.tuple(fc.integer({ min: 16, max: 31 }), octet, octet).map(([a, b, c]) => `172.${a}.${b}.${c}`),
      fc.tuple(octet, octet).map(([a, b]) => `192.168.${a}.${b}`),
      fc.tuple(octet, octet).map(([a, b]) => `169.254.${a}.${b}`),
    );
    await fc.assert(
      fc.asyncProperty(privateIp, async (ip) => {
        expect(await refused(`https://${ip}:9000`)).toMatch(/^Endpoint not allowed: /);
      }),
      { numRuns: 12 },
    );
    // Virtual-hosted addressing puts the bucket in the host, and the guard judges that host (no longer loopback);
    // before an IP address it makes no host at all.
    const virtual = await post(
      key,
      connectionBody({ addressing: "virtual", endpoint: "http://localhost:9" }),
    );
    expect((await errorsOf(virtual))[0]!.message).toBe("Endpoint not allowed: the URL must use https");
    const beforeIp = await post(key, connectionBody({ addressing: "virtual" }));
    expect((await errorsOf(beforeIp))[0]!.message).toBe(
      "Endpoint not allowed: virtual-hosted addressing needs a host name, not an IP address: use path addressing",
    );
    expect((await body<unknown[]>(await get(PATH, key))).data).toEqual([]);
  });

  it("refuses http and loopback endpoints outside development", async () => {
    const { userId } = await newAccount();
    const production = withCaller(createContext({ ...env, ENVIRONMENT: "production" }), {
      userId,
      keyId: null,
      permissions: FULL,
      scopes: [],
    });
    const input = v.parse(CreateConnectionBody, connectionBody());
    await expect(createConnectionVerb(production, input)).rejects.toMatchObject({
      errors: [
        {
          field: "endpoint",
          message: "Endpoint not allowed: the URL must use https",
          code: "URL_NOT_ALLOWED",
        },
      ],
    });
    await expect(
      createConnectionVerb(production, { ...input, endpoint: "https://127.0.0.1:9000" }),
    ).rejects.toMatchObject({ errors: [{ field: "endpoint", code: "URL_NOT_ALLOWED" }] });
  });

  it("refuses bad fields by name: bucket, key template, region, unknown fields, sizes", async () => {
    const { key } = await newAccount();
    const refusal = async (overrides: Record<string, unknown>) => {
      const res = await post(key, connectionBody(overrides));
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      return (await errorsOf(res)).map((e) => [e.field, e.message]);
    };
    expect(await refusal({ bucket: "Not_A_Bucket" })).toEqual([
      ["bucket", "bucket must be a valid bucket name (3-63 of a-z 0-9 . -)"],
    ]);
    expect(await refusal({ keyTemplate: "../{jobId}" })).toEqual([
      [
        "keyTemplate",
        "keyTemplate must not have an empty, . or .. segment (no //, no trailing /, no ./ or ../)",
      ],
    ]);
    expect(await refusal({ keyTemplate: "{jobID}.{ext}" })).toEqual([
      [
        "keyTemplate",
        "keyTemplate {jobID} is not a variable: use {jobId}, {date}, {ext}, {type} or {metadata.<name>}",
      ],
    ]);
    expect(await refusal({ region: "EU West" })).toEqual([
      ["region", "region must be lower-case letters, digits and -"],
    ]);
    expect(await refusal({ addressing: "dns" })).toEqual([
      ["addressing", "addressing must be one of path, virtual"],
    ]);
    expect(await refusal({ secretAccessKey: "x".repeat(257) })).toEqual([
      ["secretAccessKey", "secretAccessKey must be at most 256 characters"],
    ]);
    expect((await refusal({ extra: 1 }))[0]![0]).toBe("extra");
    const { secretAccessKey: _, ...missing } = connectionBody();
    const res = await post(key, missing);
    expect(res.status).toBe(400);
    expect((await errorsOf(res))[0]!.field).toBe("secretAccessKey");
    const text = await call(PATH, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "text/plain" },
      body: "x",
    });
    expect(text.status).toBe(415);
  });

  it(`holds at most ${MAX_CONNECTIONS_PER_ACCOUNT} connections per account`, async () => {
    const { key } = await newAccount();
    for (let i = 0; i < MAX_CONNECTIONS_PER_ACCOUNT; i++) await createConnection(key, { name: `c${i}` });
    const res = await post(key, connectionBody());
    expect(res.status).toBe(400);
    expect((await errorsOf(res))[0]).toMatchObject({ field: "endpoint", code: "TOO_MANY_CONNECTIONS" });
  });
});

describe("a job's destinations at creation", () => {
  it("refuses a bad key, too many destinations or a malformed list, naming the field, reserving nothing", async () => {
    const { key, userId } = await newAccount({ planId: "pro", tokens: 500 });
    const connection = await createConnection(key);
    const refusal = async (destinations: unknown) => {
      const res = await createJobCall(key, { type: "video", config: video, destinations });
      expect(res.status, JSON.stringify(destinations)).toBe(400);
      return (await errorsOf(res)).map((e) => [e.field, e.message, e.code]);
    };
    expect(await refusal([{ connectionId: connection.id, key: "/abs/{jobId}" }])).toEqual([
      ["destinations[0].key", "key must not start with /", "VALIDATION_ERROR"],
    ]);
    expect(await refusal([{ connectionId: connection.id, key: "{metadata.customer}/{jobId}" }])).toEqual([
      [
        "destinations[0].key",
        "The key {metadata.customer}: the job's metadata has no customer",
        "INVALID_KEY",
      ],
    ]);
    const six = Array.from({ length: 6 }, () => ({ connectionId: connection.id }));
    expect((await refusal(six))[0]!.slice(0, 2)).toEqual(["destinations", "destinations may list at most 5"]);
    expect((await refusal({ connectionId: connection.id }))[0]![0]).toBe("destinations");
    expect((await refusal([{ connectionId: connection.id, bucket: "other" }]))[0]![0]).toBe(
      "destinations[0].bucket",
    );
    expect(await auditedBalance(userId)).toBe(500);
  });

  it("resolves each destination's key at creation and shows it waiting on the job", async () => {
    const { key } = await newAccount({ planId: "pro", tokens: 500 });
    const connection = await createConnection(key, { keyTemplate: "{type}/{jobId}.{ext}" });
    const res = await createJobCall(key, {
      type: "video",
      config: { ...video, format: "webm" },
      destinations: [{ connectionId: connection.id }],
    });
    expect(res.status).toBe(201);
    const jobId = (await body<{ jobId: string }>(res)).data!.jobId;
    const job = await body<{ destinations: unknown[] }>(await get(`/api/v1/jobs/${jobId}`, key));
    expect(job.data!.destinations).toEqual([
      {
        connectionId: connection.id,
        bucket: s3().bucket,
        key: `video/${jobId}.webm`,
        status: "waiting",
        attempts: 0,
        error: null,
        files: [],
        nextAttemptAt: null,
        deliveredAt: null,
      },
    ]);
  });
});
