/**
 * Uploads in parts on the signed storage route (src/storage/routes.ts, multipart.ts), through the Worker's own fetch
 * handler into workerd's local R2: the protocol's happy path with files of several parts (R2's smallest part,
 * 5 MiB, so a file stays under 20 MiB), byte-exact content by hash, every refusal in the envelope with nothing
 * stored, replays and aborts.
 */
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, MAX_OUTPUT_BYTES, MIN_PART_BYTES } from "../../src/storage/parts.ts";
import { signedStorageUrl } from "../../src/storage/signed-url.ts";
import { BASE, body, call } from "./helpers.ts";

const PART = MIN_PART_BYTES;

let n = 0;
const newKey = () => `output/uploads-test/${Date.now()}-${n++}.mp4`;

/** The signed path and query (after BASE) of `key` for `method`, valid `ttl` seconds (negative: expired). */
const signed = async (key: string, method: "GET" | "PUT" = "PUT", ttl = 600) =>
  (await signedStorageUrl({ secret: env.STORAGE_SIGNING_SECRET, baseUrl: BASE, method }, key, ttl)).slice(
    BASE.length,
  );

/** Deterministic bytes that do not compress (xorshift32 from `seed`). */
const bytesOf = (size: number, seed = 1): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
};

const hex = (buf: ArrayBuffer) =>
  [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
const sha256 = async (bytes: Uint8Array<ArrayBuffer>) => hex(await crypto.subtle.digest("SHA-256", bytes));

/** The stored object's size, SHA-256 (streamed) and type, or null when nothing is stored at `key`. */
const stored = async (key: string) => {
  const object = await env.FILES.get(key);
  if (!object) return null;
  const digest = new crypto.DigestStream("SHA-256");
  await object.body.pipeTo(digest);
  return { size: object.size, sha256: hex(await digest.digest), type: object.httpMetadata?.contentType };
};

type Started = { uploadId: string; partSize: number; parts: number };

const start = async (url: string, size: number, partSize: number | null = PART) =>
  call(`${url}&uploads&size=${size}${partSize === null ? "" : `&partSize=${partSize}`}`, {
    method: "POST",
    headers: { "content-type": "video/mp4" },
  });

const started = async (url: string, size: number, partSize: number | null = PART) => {
  const res = await start(url, size, partSize);
  expect(res.status).toBe(201);
  return (await body<Started>(res)).data!;
};

const part = (url: string, uploadId: string, partNumber: number, bytes: Uint8Array<ArrayBuffer>) =>
  call(`${url}&uploadId=${encodeURIComponent(uploadId)}&partNumber=${partNumber}`, {
    method: "PUT",
    body: bytes,
  });

const complete = (url: string, uploadId: string, parts: unknown) =>
  call(`${url}&uploadId=${encodeURIComponent(uploadId)}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ parts }),
  });

const abort = (url: string, uploadId: string) =>
  call(`${url}&uploadId=${encodeURIComponent(uploadId)}`, { method: "DELETE" });

/** Uploads every part of `bytes` in `order` (1-based numbers); their answers' parts, by number. */
const uploadParts = async (url: string, up: Started, bytes: Uint8Array<ArrayBuffer>, order?: number[]) => {
  const etags = new Map<number, string>();
  for (const i of order ?? Array.from({ length: up.parts }, (_, k) => k + 1)) {
    const res = await part(url, up.uploadId, i, bytes.slice((i - 1) * up.partSize, i * up.partSize));
    expect(res.status).toBe(200);
    const data = (await body<{ partNumber: number; etag: string }>(res)).data!;
    expect(data.partNumber).toBe(i);
    etags.set(i, data.etag);
  }
  return [...etags].sort(([a], [b]) => a - b).map(([partNumber, etag]) => ({ partNumber, etag }));
};

const tampered = (url: string) =>
  url.replace(/signature=([0-9a-f])/, (_, c: string) => `signature=${c === "0" ? "1" : "0"}`);

const expectRefused = async (res: Response, status: number, error: string | RegExp) => {
  expect(res.status).toBe(status);
  const answer = await body(res);
  expect(answer.success).toBe(false);
  if (typeof error === "string") expect(answer.error).toBe(error);
  else expect(answer.error).toMatch(error);
};

describe("an upload in parts", () => {
  it("stores a file of several parts byte for byte, whatever order the parts arrive in", async () => {
    const key = newKey();
    const url = await signed(key);
    const bytes = bytesOf(3 * PART + 1234, 7);
    const up = await started(url, bytes.byteLength);
    expect(up).toMatchObject({ partSize: PART, parts: 4 });
    const parts = await uploadParts(url, up, bytes, [3, 1, 4, 2]);
    expect(await stored(key)).toBeNull(); // nothing shows before the completion
    const res = await complete(url, up.uploadId, parts);
    expect(res.status).toBe(201);
    expect((await body(res)).data).toEqual({ key, size: bytes.byteLength });
    expect(await stored(key)).toEqual({
      size: bytes.byteLength,
      sha256: await sha256(bytes),
      type: "video/mp4",
    });
    // The signed GET streams the joined parts back.
    const got = await call(await signed(key, "GET"));
    expect(got.status).toBe(200);
    expect(got.headers.get("content-length")).toBe(String(bytes.byteLength));
    expect(await sha256(new Uint8Array(await got.arrayBuffer()))).toBe(await sha256(bytes));
  });

  it("lays out any size around the part boundaries exactly (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom(-1, 0, 1, 4321),
        fc.integer({ min: 1, max: 2 ** 31 }),
        async (wholeParts, delta, seed) => {
          const size = Math.max(1, wholeParts * PART + delta);
          const key = newKey();
          const url = await signed(key);
          const bytes = bytesOf(size, seed);
          const up = await started(url, size);
          expect(up.parts).toBe(Math.ceil(size / PART));
          const res = await complete(url, up.uploadId, await uploadParts(url, up, bytes));
          expect(res.status).toBe(201);
          expect(await stored(key)).toMatchObject({ size, sha256: await sha256(bytes) });
        },
      ),
      { numRuns: 6 },
    );
  });

  it("uses the largest part size when the uploader names none, and takes the largest output", async () => {
    const url = await signed(newKey());
    const def = await started(url, MAX_OUTPUT_BYTES, null);
    expect(def).toMatchObject({ partSize: MAX_BODY_BYTES, parts: 320 });
    expect((await abort(url, def.uploadId)).status).toBe(200);
  });

  it("keeps the small file's single PUT, and refuses one over a request's limit saying to use parts", async () => {
    const key = newKey();
    const url = await signed(key);
    const bytes = bytesOf(1000);
    const put = await call(url, { method: "PUT", body: bytes, headers: { "content-type": "image/png" } });
    expect(put.status).toBe(201);
    expect(await stored(key)).toMatchObject({ size: 1000, sha256: await sha256(bytes), type: "image/png" });
    const big = newKey();
    const res = await call(await signed(big), { method: "PUT", body: new Uint8Array(MAX_BODY_BYTES + 1) });
    await expectRefused(
      res,
      413,
      /^Upload too large for one request: 67108865 bytes, at most 67108864; upload it in parts/,
    );
    expect(await stored(big)).toBeNull();
  });
});

describe("replays", () => {
  it("a part sent again replaces the first: the completion takes its latest etag, a stale one is refused", async () => {
    const key = newKey();
    const url = await signed(key);
    const first = bytesOf(2 * PART, 1);
    const up = await started(url, first.byteLength);
    const stale = await uploadParts(url, up, first);
    const second = bytesOf(PART, 2);
    const again = await part(url, up.uploadId, 2, second);
    expect(again.status).toBe(200);
    const latest = (await body<{ etag: string }>(again)).data!.etag;
    await expectRefused(
      await complete(url, up.uploadId, stale),
      400,
      "A listed part was not uploaded, or its etag is not its latest upload's",
    );
    expect(await stored(key)).toBeNull();
    const res = await complete(url, up.uploadId, [stale[0], { partNumber: 2, etag: latest }]);
    expect(res.status).toBe(201);
    const expected = new Uint8Array(2 * PART);
    expected.set(first.slice(0, PART));
    expected.set(second, PART);
    expect(await stored(key)).toMatchObject({ size: 2 * PART, sha256: await sha256(expected) });
  });

  it("a completion sent again answers the same and changes nothing", async () => {
    const key = newKey();
    const url = await signed(key);
    const bytes = bytesOf(PART + 10, 3);
    const up = await started(url, bytes.byteLength);
    const parts = await uploadParts(url, up, bytes);
    const one = await complete(url, up.uploadId, parts);
    const two = await complete(url, up.uploadId, parts);
    expect([one.status, two.status]).toEqual([201, 201]);
    expect((await body(two)).data).toEqual({ key, size: bytes.byteLength });
    expect(await stored(key)).toMatchObject({ size: bytes.byteLength, sha256: await sha256(bytes) });
  });

  it("a completion replayed after another upload replaced the object is not taken for its own", async () => {
    const key = newKey();
    const url = await signed(key);
    const bytes = bytesOf(PART + 10, 4);
    const up = await started(url, bytes.byteLength);
    const parts = await uploadParts(url, up, bytes);
    expect((await complete(url, up.uploadId, parts)).status).toBe(201);
    const other = bytesOf(PART + 10, 5);
    expect((await call(url, { method: "PUT", body: other })).status).toBe(201);
    await expectRefused(
      await complete(url, up.uploadId, parts),
      404,
      "Upload not found: it was completed or aborted",
    );
    expect(await stored(key)).toMatchObject({ sha256: await sha256(other) });
  });
});

describe("abort", () => {
  it("deletes what the upload stored: no part or completion is taken after it, and it may be sent again", async () => {
    const key = newKey();
    const url = await signed(key);
    const bytes = bytesOf(3 * PART, 6);
    const up = await started(url, bytes.byteLength);
    const parts = await uploadParts(url, up, bytes, [1, 2]);
    const res = await abort(url, up.uploadId);
    expect(res.status).toBe(200);
    expect((await body(res)).data).toEqual({ aborted: true });
    await expectRefused(
      await part(url, up.uploadId, 3, bytes.slice(2 * PART)),
      404,
      "Upload not found: it was completed or aborted",
    );
    await expectRefused(
      await complete(url, up.uploadId, [...parts, { partNumber: 3, etag: "x" }]),
      404,
      "Upload not found: it was completed or aborted",
    );
    expect(await stored(key)).toBeNull();
    expect((await abort(url, up.uploadId)).status).toBe(200);
  });

  it("after the completion leaves the stored file alone", async () => {
    const key = newKey();
    const url = await signed(key);
    const bytes = bytesOf(PART + 1, 8);
    const up = await started(url, bytes.byteLength);
    expect((await complete(url, up.uploadId, await uploadParts(url, up, bytes))).status).toBe(201);
    expect((await abort(url, up.uploadId)).status).toBe(200);
    expect(await stored(key)).toMatchObject({ size: bytes.byteLength, sha256: await sha256(bytes) });
  });

  it("is still allowed with an expired signature (cleaning up), but not with a wrong one", async () => {
    const key = newKey();
    const url = await signed(key);
    const up = await started(url, 2 * PART);
    await uploadParts(url, up, bytesOf(2 * PART), [1]);
    const expired = await signed(key, "PUT", -10);
    await expectRefused(await abort(tampered(url), up.uploadId), 403, "Invalid signature");
    expect((await abort(expired, up.uploadId)).status).toBe(200);
    await expectRefused(
      await part(url, up.uploadId, 2, bytesOf(PART)),
      404,
      "Upload not found: it was completed or aborted",
    );
  });
});

describe("refusals (each in the envelope, nothing stored)", () => {
  it("a wrong signature, another method's or an expired one starts, stores and completes nothing", async () => {
    const key = newKey();
    const url = await signed(key);
    const up = await started(url, 2 * PART);
    const expired = await signed(key, "PUT", -10);
    const get = await signed(key, "GET");
    for (const [bad, error] of [
      [tampered(url), "Invalid signature"],
      [get, "Invalid signature"],
      [expired, "Link expired"],
    ] as const) {
      await expectRefused(await start(bad, 2 * PART), 403, error);
      await expectRefused(await part(bad, up.uploadId, 1, bytesOf(PART)), 403, error);
      await expectRefused(await complete(bad, up.uploadId, [{ partNumber: 1, etag: "x" }]), 403, error);
    }
    expect(await stored(key)).toBeNull();
  });

  it("one key's upload id reaches nothing through another key's signature", async () => {
    const mine = newKey();
    const theirs = newKey();
    const myUrl = await signed(mine);
    const theirUrl = await signed(theirs);
    const bytes = bytesOf(2 * PART, 9);
    const up = await started(myUrl, bytes.byteLength);
    const parts = await uploadParts(myUrl, up, bytes, [1]);
    const unknown = "Upload not found for this file";
    await expectRefused(await part(theirUrl, up.uploadId, 2, bytes.slice(PART)), 404, unknown);
    await expectRefused(await complete(theirUrl, up.uploadId, parts), 404, unknown);
    await expectRefused(await abort(theirUrl, up.uploadId), 404, unknown);
    // A forged id (the layout changed, or R2's id swapped) opens for no key.
    const forged = up.uploadId.replace(/^v1\.\d+\./, `v1.${PART}.`);
    await expectRefused(await part(myUrl, forged, 1, bytesOf(PART)), 404, unknown);
    await expectRefused(await part(myUrl, "not-an-upload", 1, bytesOf(PART)), 404, unknown);
    expect(await stored(theirs)).toBeNull();
    // The upload itself is untouched.
    const all = [...parts, ...(await uploadParts(myUrl, up, bytes, [2]))];
    expect((await complete(myUrl, up.uploadId, all)).status).toBe(201);
    expect(await stored(mine)).toMatchObject({ sha256: await sha256(bytes) });
  });

  it("a part longer or shorter than its place in the layout, or past the last part", async () => {
    const key = newKey();
    const url = await signed(key);
    const up = await started(url, 2 * PART + 100);
    await expectRefused(
      await part(url, up.uploadId, 1, bytesOf(PART + 1)),
      413,
      `Part too large: ${PART + 1} bytes, part 1 of this upload is ${PART}`,
    );
    await expectRefused(
      await part(url, up.uploadId, 3, bytesOf(101)),
      413,
      "Part too large: 101 bytes, part 3 of this upload is 100",
    );
    await expectRefused(
      await part(url, up.uploadId, 1, bytesOf(PART - 1)),
      400,
      `Part 1 of this upload is ${PART} bytes, not ${PART - 1}`,
    );
    await expectRefused(
      await part(url, up.uploadId, 4, bytesOf(100)),
      400,
      "Part 4 is past the upload's last part (3)",
    );
    await expectRefused(
      await part(url, up.uploadId, 0, bytesOf(100)),
      400,
      "partNumber must be a whole number from 1",
    );
    expect(await stored(key)).toBeNull();
  });

  it("a part without Content-Length (a stream of unknown length)", async () => {
    const key = newKey();
    const url = await signed(key);
    const up = await started(url, 2 * PART);
    const chunk = bytesOf(1024);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(chunk);
        controller.close();
      },
    });
    const res = await call(`${url}&uploadId=${encodeURIComponent(up.uploadId)}&partNumber=1`, {
      method: "PUT",
      body: stream,
    });
    await expectRefused(res, 411, "Content-Length required");
    expect(await stored(key)).toBeNull();
  });

  it("too many parts, a part size out of R2's and the request's bounds, a total over the maximum", async () => {
    const key = newKey();
    const url = await signed(key);
    await expectRefused(
      await start(url, 1001 * PART),
      400,
      `Too many parts: ${1001 * PART} bytes in parts of ${PART} make 1001, at most 1000; use parts of at least ${Math.ceil((1001 * PART) / 1000)} bytes`,
    );
    await expectRefused(
      await start(url, 2 * PART, PART - 1),
      400,
      `partSize must be from ${PART} to ${MAX_BODY_BYTES} bytes`,
    );
    await expectRefused(
      await start(url, 2 * MAX_BODY_BYTES, MAX_BODY_BYTES + 1),
      400,
      `partSize must be from ${PART} to ${MAX_BODY_BYTES} bytes`,
    );
    await expectRefused(
      await start(url, MAX_OUTPUT_BYTES + 1, null),
      413,
      `Upload too large: ${MAX_OUTPUT_BYTES + 1} bytes, at most ${MAX_OUTPUT_BYTES} (20 GiB)`,
    );
    await expectRefused(await start(url, 0), 400, "size must be a whole number of bytes from 1");
    await expectRefused(
      await call(`${url}&uploads`, { method: "POST" }),
      400,
      "size is required (the file's bytes)",
    );
    expect(await stored(key)).toBeNull();
  });

  it("a completion that leaves parts out, lists one twice, out of order or malformed", async () => {
    const key = newKey();
    const url = await signed(key);
    const bytes = bytesOf(2 * PART + 5, 10);
    const up = await started(url, bytes.byteLength);
    const parts = await uploadParts(url, up, bytes);
    const [p1, p2, p3] = parts;
    const cases: [unknown, string][] = [
      [[p1, p3], "Missing parts: 2 (the upload has 3)"],
      [[p1], "Missing parts: 2, 3 (the upload has 3)"],
      [[p1, p2, p2, p3], "Part 2 is listed twice"],
      [[p2, p1, p3], "Parts must be listed in ascending order"],
      [[p1, p2, p3, { partNumber: 4, etag: "x" }], "Part 4 is past the upload's last part (3)"],
      [[], "parts must list every part of the upload: [{partNumber, etag}, ...]"],
      [[{ partNumber: "1", etag: p1!.etag }, p2, p3], "each part needs its partNumber, from 1 to 1000"],
      [[{ partNumber: 1 }, p2, p3], "each part needs its partNumber and the etag its upload answered"],
      [[{ partNumber: 1, etag: 7 }, p2, p3], "each part needs the etag its upload answered"],
    ];
    for (const [list, error] of cases)
      await expectRefused(await complete(url, up.uploadId, list), 400, error);
    await expectRefused(
      await call(`${url}&uploadId=${encodeURIComponent(up.uploadId)}`, { method: "POST", body: "{" }),
      400,
      "Malformed JSON body",
    );
    expect(await stored(key)).toBeNull();
    expect((await complete(url, up.uploadId, parts)).status).toBe(201);
    expect(await stored(key)).toMatchObject({ sha256: await sha256(bytes) });
  });

  it("a POST or DELETE that names no upload", async () => {
    const key = newKey();
    const url = await signed(key);
    await expectRefused(
      await call(url, { method: "POST" }),
      400,
      "POST starts an upload in parts (?uploads&size=) or completes one (?uploadId=)",
    );
    await expectRefused(
      await call(url, { method: "DELETE" }),
      400,
      "DELETE aborts an upload in parts (?uploadId=)",
    );
    expect(await stored(key)).toBeNull();
  });
});
