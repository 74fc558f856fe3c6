/** Streaming uploads: the multipart reader, R2 multipart for large files, size limits, validation, URL import. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { importFromUrl } from "../../../src/files/import-url.ts";
import { readMultipart, type PartInfo } from "../../../src/files/multipart.ts";
import { uploadFile } from "../../../src/files/upload-file.ts";
import { PayloadTooLarge, ValidationFailed } from "../../../src/lib/errors.ts";
import { asCaller, body, call, fixture, newAccount, testCtx, upload } from "../helpers.ts";
import { withDns } from "../fake-internet.ts";

const enc = new TextEncoder();

/** A multipart body for `parts`, as a stream delivering `chunk` bytes at a time. */
const multipart = (
  boundary: string,
  parts: Array<{ name: string; filename?: string; type?: string; data: Uint8Array | string }>,
) => {
  const chunks: Uint8Array[] = [];
  for (const p of parts) {
    const disp = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ""}`;
    chunks.push(
      enc.encode(
        `--${boundary}\r\nContent-Disposition: ${disp}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ""}\r\n`,
      ),
    );
    chunks.push(typeof p.data === "string" ? enc.encode(p.data) : p.data);
    chunks.push(enc.encode("\r\n"));
  }
  chunks.push(enc.encode(`--${boundary}--\r\n`));
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) all.set(c, (at += c.length) - c.length);
  return all;
};

const crc32 = (bytes: Uint8Array) => {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
};

/** A real 1-bit grayscale PNG of `width`x`height` black pixels: tiny on disk, huge once decoded. */
const pixelBomb = async (width: number, height: number) => {
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(enc.encode(type), 4);
    out.set(data, 8);
    view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
    return out;
  };
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([1, 0, 0, 0, 0], 8); // bit depth 1, grayscale, deflate, filter 0, no interlace
  const row = new Uint8Array(1 + Math.ceil(width / 8)); // filter byte + zero bits
  const rows = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let y = 0; y < height; y++) controller.enqueue(row);
      controller.close();
    },
  });
  const idat = new Uint8Array(
    await new Response(rows.pipeThrough(new CompressionStream("deflate"))).arrayBuffer(),
  );
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", idat),
    chunk("IEND", new Uint8Array()),
  ];
  return new Uint8Array(await new Blob(parts).arrayBuffer());
};

const streamOf = (bytes: Uint8Array, chunk: number) => {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, (at += chunk)));
    },
  });
};

const collect = async (bytes: Uint8Array, boundary: string, chunk: number) => {
  const parts: Array<PartInfo & { data: number[] }> = [];
  await readMultipart(streamOf(bytes, chunk), boundary, (info) => {
    const part = { ...info, data: [] as number[] };
    parts.push(part);
    return { write: (c) => void part.data.push(...c), close: () => undefined };
  });
  return parts;
};

/** A WAV header followed by `dataBytes` of silence, produced lazily (nothing large in memory). */
const wavStream = (dataBytes: number, chunk = 256 * 1024) => {
  const header = new Uint8Array(44);
  const v = new DataView(header.buffer);
  const tag = (at: number, s: string) => [...s].forEach((ch, i) => (header[at + i] = ch.charCodeAt(0)));
  tag(0, "RIFF");
  v.setUint32(4, 36 + dataBytes, true);
  tag(8, "WAVE");
  tag(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, 8000, true);
  v.setUint32(28, 16000, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  tag(36, "data");
  v.setUint32(40, dataBytes, true);
  const boundary = "wavboundary";
  const pre = enc.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="long.wav"\r\n\r\n`,
  );
  const post = enc.encode(
    `\r\n--${boundary}\r\nContent-Disposition: form-data; name="ttlHours"\r\n\r\n48\r\n--${boundary}--\r\n`,
  );
  let sent = -2;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent === -2) c.enqueue(pre);
      else if (sent === -1) c.enqueue(header);
      else if (sent < dataBytes) c.enqueue(new Uint8Array(Math.min(chunk, dataBytes - sent)));
      else if (sent === dataBytes) c.enqueue(post);
      else return c.close();
      sent = sent < 0 ? sent + 1 : sent === dataBytes ? dataBytes + 1 : Math.min(dataBytes, sent + chunk);
    },
  });
  return { stream, boundary };
};

describe("multipart reader", () => {
  it("splits parts identically whatever the chunking, even with boundary-like bytes inside the data", async () => {
    const data = enc.encode("line\r\n--notquite\r\n--bound\r\nx\r\n-");
    const bytes = multipart("bound42", [
      { name: "category", data: "audio" },
      { name: "file", filename: "a b.bin", type: "application/octet-stream", data },
    ]);
    for (const chunk of [1, 2, 7, 64, bytes.length]) {
      const parts = await collect(bytes, "bound42", chunk);
      expect(parts.map((p) => [p.name, p.filename, p.contentType])).toEqual([
        ["category", null, null],
        ["file", "a b.bin", "application/octet-stream"],
      ]);
      expect(new TextDecoder().decode(new Uint8Array(parts[0]!.data))).toBe("audio");
      expect(new Uint8Array(parts[1]!.data)).toEqual(data);
    }
  });

  it("refuses a body that ends before its closing boundary", async () => {
    const bytes = multipart("b", [{ name: "file", filename: "x.png", data: "abc" }]).slice(0, -8);
    await expect(collect(bytes, "b", 5)).rejects.toThrowError(ValidationFailed);
  });
});

describe("streaming upload", () => {
  it("streams a 10 MiB file into R2 through a multipart upload and measures it", async () => {
    const { key, userId } = await newAccount();
    const dataBytes = 10 * 1024 * 1024; // more than one 8 MiB part
    const { stream, boundary } = wavStream(dataBytes);
    const res = await call("/api/v1/files/upload", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": `multipart/form-data; boundary=${boundary}` },
      body: stream,
      // @ts-expect-error workerd needs duplex for a streamed request body
      duplex: "half",
    });
    expect(res.status).toBe(201);
    const f = (
      await body<{
        id: string;
        storageUrl: string;
        expiresAt: string;
        createdAt: string;
        metadata: { category: string };
      }>(res)
    ).data!;
    expect(f.metadata.category).toBe("audio");
    expect(Date.parse(f.expiresAt) - Date.parse(f.createdAt)).toBe(48 * 3600_000);
    const object = await env.FILES.head(f.storageUrl.slice(1));
    expect(object?.size).toBe(44 + dataBytes);
    const row = await env.DB.prepare("SELECT duration, size, user_id FROM media_files WHERE id = ?")
      .bind(f.id)
      .first();
    expect(row).toEqual({ duration: dataBytes / 16000, size: 44 + dataBytes, user_id: userId });
  });

  it("stops a body past the size limit with 413 and leaves neither object nor row", async () => {
    const { userId } = await newAccount();
    const { stream, boundary } = wavStream(3 * 1024 * 1024);
    const before = await env.FILES.list({ prefix: `audio/` });
    await expect(
      uploadFile(asCaller(userId), { body: stream, boundary, maxBytes: 1024 * 1024 }),
    ).rejects.toThrowError(PayloadTooLarge);
    const after = await env.FILES.list({ prefix: `audio/` });
    expect(after.objects.filter((o) => o.key.includes(userId))).toEqual([]);
    expect(after.objects.length).toBe(before.objects.length);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM media_files WHERE user_id = ?")
      .bind(userId)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
  });

  it("refuses a bad ttlHours and removes the stored object", async () => {
    const { key, userId } = await newAccount();
    const res = await upload(key, "emoji.png", fixture("emoji.png"), { ttlHours: "9999" });
    expect(res.status).toBe(400);
    expect((await body(res)).details?.errors?.[0]?.field).toBe("ttlHours");
    const listed = await env.FILES.list({ prefix: "image/" });
    expect(listed.objects.some((o) => o.key.includes(userId))).toBe(false);
  });

  it("refuses a small, very compressible 20000x20000 PNG (a decompression bomb) before any decoder meets it", async () => {
    const { key, userId } = await newAccount();
    const png = await pixelBomb(20_000, 20_000);
    expect(png.byteLength).toBeLessThan(200 * 1024); // ~50 MB of rows, 400 megapixels
    const res = await upload(key, "bomb.png", png);
    expect(res.status).toBe(400);
    const error = (await body(res)).details?.errors?.[0];
    expect(error?.code).toBe("TOO_MANY_PIXELS");
    expect(error?.message).toContain("20000x20000 (400 megapixels)");
    const listed = await env.FILES.list({ prefix: "image/" });
    expect(listed.objects.some((o) => o.key.includes(userId))).toBe(false);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM media_files WHERE user_id = ?")
      .bind(userId)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
    // The same picture at 100 megapixels exactly is accepted.
    expect((await upload(key, "big.png", await pixelBomb(10_000, 10_000))).status).toBe(201);
  });

  it("answers 415 for a non-multipart body and 400 for a malformed one", async () => {
    const { key } = await newAccount();
    const json = await call("/api/v1/files/upload", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: "{}",
    });
    expect(json.status).toBe(415);
    const bad = await call("/api/v1/files/upload", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "multipart/form-data; boundary=zz" },
      body: '--zz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
    });
    expect(bad.status).toBe(400);
    expect((await body(bad)).details?.errors?.[0]?.code).toBe("INVALID_MULTIPART");
  });
});

describe("POST /api/v1/files/validate", () => {
  const validate = (key: string, name: string, bytes: Uint8Array, fields: Record<string, string> = {}) => {
    const form = new FormData();
    form.set("file", new File([bytes], name, { type: "image/png" }));
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    return call("/api/v1/files/validate", { method: "POST", headers: { "x-api-key": key }, body: form });
  };

  it("reports a valid file and stores nothing", async () => {
    const { key, userId } = await newAccount();
    const bytes = fixture("emoji.png");
    const res = await validate(key, "emoji.png", bytes);
    expect(res.status).toBe(200);
    expect((await body(res)).data).toEqual({
      validation: {
        isValid: true,
        fileSize: bytes.length,
        fileType: "png",
        detectedMimeType: "image/png",
        errors: [],
        category: "image",
      },
      uploadedFile: { originalName: "emoji.png", mimetype: "image/png", size: bytes.length },
    });
    const n = await env.DB.prepare("SELECT count(*) AS n FROM media_files WHERE user_id = ?")
      .bind(userId)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
  });

  it("reports a script disguised as a PNG as invalid", async () => {
    const { key } = await newAccount();
    const res = await validate(key, "evil.png", enc.encode("<script>alert(1)</script>"));
    expect(res.status).toBe(200);
    const data = (await body<{ validation: Record<string, unknown> }>(res)).data!;
    expect(data.validation).toMatchObject({
      isValid: false,
      fileType: "unknown",
      category: "unknown",
      detectedMimeType: "application/octet-stream",
    });
    expect(data.validation.errors).toEqual(["Unsupported or unrecognised file content"]);
  });
});

describe("importFromUrl", () => {
  const serve = (routes: Record<string, () => Response>) =>
    withDns(async (r: Request) => routes[r.url]?.() ?? new Response("no", { status: 404 }));

  it("imports a public URL like an upload (sniffed, measured, source url)", async () => {
    const { userId } = await newAccount();
    const bytes = fixture("img2.jpg");
    const row = await importFromUrl(testCtx(), {
      userId,
      url: "https://cdn.example.com/photos/holiday.jpg",
      expected: "image",
      fetcher: serve({
        "https://cdn.example.com/photos/holiday.jpg": () =>
          new Response(bytes, { headers: { "content-type": "image/jpeg" } }),
      }),
    });
    expect(row).toMatchObject({
      source: "url",
      sourceUrl: "https://cdn.example.com/photos/holiday.jpg",
      originalName: "holiday.jpg",
      width: 4000,
      height: 3000,
      category: "image",
    });
    expect((await env.FILES.head(row.storageKey))?.size).toBe(bytes.length);
  });

  it("refuses content that is not what the job expects, keeping nothing", async () => {
    const { userId } = await newAccount();
    await expect(
      importFromUrl(testCtx(), {
        userId,
        url: "https://cdn.example.com/a.mp3",
        expected: "video",
        fetcher: serve({ "https://cdn.example.com/a.mp3": () => new Response(fixture("winxp.mp3")) }),
      }),
    ).rejects.toSatisfy((e) =>
      (e as ValidationFailed).errors.some((x) => /Expected a video file/.test(x.message)),
    );
    const n = await env.DB.prepare("SELECT count(*) AS n FROM media_files WHERE user_id = ?")
      .bind(userId)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
  });

  it("refuses private addresses and redirects into them", async () => {
    const { userId } = await newAccount();
    await expect(
      importFromUrl(testCtx(), { userId, url: "http://169.254.169.254/latest/a.png" }),
    ).rejects.toThrowError(/URL not allowed/);
    await expect(
      importFromUrl(testCtx(), {
        userId,
        url: "https://cdn.example.com/a.png",
        fetcher: serve({
          "https://cdn.example.com/a.png": () =>
            new Response(null, { status: 302, headers: { location: "http://[::1]/a.png" } }),
        }),
      }),
    ).rejects.toThrowError(/URL not allowed/);
  });
});
