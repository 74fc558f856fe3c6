import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { body, call, fixture, newAccount, testCtx, upload } from "../helpers.ts";

type Uploaded = {
  id: string;
  filename: string;
  originalName: string;
  mimeType: string;
  storageUrl: string;
  metadata: {
    category: string;
    validationResult: { errors: string[]; isValid: boolean; fileSize: number; detectedMimeType: string };
  };
  expiresAt: string;
  createdAt: string;
};

describe("file upload", () => {
  it("stores an image, sniffs its type and reads its size from the header", async () => {
    const { key, userId } = await newAccount();
    const bytes = fixture("img2.jpg");
    const res = await upload(key, "holiday.jpeg", bytes);
    expect(res.status).toBe(201);
    const b = await body<Uploaded>(res);
    expect(b.success).toBe(true);
    const f = b.data!;
    expect(Object.keys(f).sort()).toEqual([
      "createdAt",
      "expiresAt",
      "filename",
      "id",
      "metadata",
      "mimeType",
      "originalName",
      "storageUrl",
    ]);
    expect(f).toMatchObject({ originalName: "holiday.jpeg", mimeType: "image/jpeg" });
    expect(f.storageUrl).toMatch(new RegExp(`^/image/\\d{4}-\\d{2}-\\d{2}/${userId}/${f.id}\\.jpg$`));
    expect(f.metadata).toEqual({
      category: "image",
      validationResult: {
        errors: [],
        isValid: true,
        fileSize: bytes.byteLength,
        detectedMimeType: "image/jpeg",
      },
    });
    const row = await env.DB.prepare("SELECT width, height, size, user_id FROM media_files WHERE id = ?")
      .bind(f.id)
      .first();
    expect(row).toEqual({ width: 4000, height: 3000, size: bytes.byteLength, user_id: userId });
    const object = await env.FILES.head(f.storageUrl.slice(1));
    expect(object?.size).toBe(bytes.byteLength);
  });

  it("stores the display size of a photo turned by its EXIF orientation", async () => {
    const { key } = await newAccount();
    const photo = fixture("img2.jpg");
    // APP1 "Exif" with IFD0 = { Orientation = 6 } (turned a quarter clockwise), big-endian TIFF.
    const exif = [
      ...[0xff, 0xe1, 0x00, 0x22, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00],
      ...[0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01],
      ...[0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
    ];
    const turned = new Uint8Array([...photo.subarray(0, 2), ...exif, ...photo.subarray(2)]);
    const res = await upload(key, "portrait.jpg", turned);
    expect(res.status).toBe(201);
    const f = (await body<Uploaded>(res)).data!;
    const row = await env.DB.prepare("SELECT width, height FROM media_files WHERE id = ?").bind(f.id).first();
    expect(row).toEqual({ width: 3000, height: 4000 });
  });

  it("reads video size and duration with the renderer's ffprobe", async () => {
    const { key } = await newAccount();
    const res = await upload(key, "clip.mp4", fixture("kohlipe3.mp4"));
    expect(res.status).toBe(201);
    const f = (await body<Uploaded>(res)).data!;
    expect(f.metadata.category).toBe("video");
    const row = await env.DB.prepare("SELECT width, height, duration FROM media_files WHERE id = ?")
      .bind(f.id)
      .first<{ width: number; height: number; duration: number }>();
    expect(row).toMatchObject({ width: 600, height: 338 });
    expect(row!.duration).toBeCloseTo(34.9, 1);
  });

  it("reads audio duration", async () => {
    const { key } = await newAccount();
    const f = (
      await body<Uploaded>(await upload(key, "voice.m4a", fixture("sample1.m4a"), { category: "audio" }))
    ).data!;
    expect(f.mimeType).toBe("audio/mp4");
    const row = await env.DB.prepare("SELECT duration FROM media_files WHERE id = ?")
      .bind(f.id)
      .first<{ duration: number }>();
    expect(row!.duration).toBeCloseTo(2.0, 1);
  });

  it("accepts a font in the font category", async () => {
    const { key } = await newAccount();
    const res = await upload(key, "Patua.ttf", fixture("PatuaOne-Regular.ttf"), { category: "font" });
    expect(res.status).toBe(201);
    expect((await body<Uploaded>(res)).data!.metadata.category).toBe("font");
  });

  it("refuses a script disguised as a PNG and stores nothing", async () => {
    const { key, userId } = await newAccount();
    const res = await upload(key, "evil.png", new TextEncoder().encode("#!/bin/sh\nrm -rf /\n"));
    expect(res.status).toBe(400);
    const b = await body(res);
    expect(b.error).toBe("File validation failed");
    expect(b.details?.errors?.[0]).toMatchObject({ field: "file", code: "INVALID_FILE" });
    const count = await env.DB.prepare("SELECT count(*) AS n FROM media_files WHERE user_id = ?")
      .bind(userId)
      .first<{ n: number }>();
    expect(count!.n).toBe(0);
  });

  it("refuses a JPEG named .png (name and content disagree)", async () => {
    const { key } = await newAccount();
    const res = await upload(key, "photo.png", fixture("img2.jpg"));
    expect(res.status).toBe(400);
    expect((await body(res)).details?.errors?.[0]?.message).toMatch(/does not match its content/);
  });

  it("refuses a category that contradicts the content", async () => {
    const { key } = await newAccount();
    const res = await upload(key, "emoji.png", fixture("emoji.png"), { category: "font" });
    expect(res.status).toBe(400);
  });

  it("refuses a request without a file field", async () => {
    const { key } = await newAccount();
    const form = new FormData();
    form.set("category", "image");
    const res = await call("/api/v1/files/upload", {
      method: "POST",
      headers: { "x-api-key": key },
      body: form,
    });
    expect(res.status).toBe(400);
    expect((await body(res)).details?.errors?.[0]?.field).toBe("file");
  });

  it("refuses a declared body larger than the upload limit with 413 before reading it", async () => {
    const { key } = await newAccount();
    const res = await call("/api/v1/files/upload", {
      method: "POST",
      headers: {
        "x-api-key": key,
        "content-type": "multipart/form-data; boundary=x",
        "content-length": String(200 * 1024 * 1024),
      },
      body: "--x--",
    });
    expect(res.status).toBe(413);
    expect((await body(res)).success).toBe(false);
  });
});

describe("file download", () => {
  it("streams the stored bytes back with type, length and disposition", async () => {
    const { key } = await newAccount();
    const bytes = fixture("emoji.png");
    const f = (await body<Uploaded>(await upload(key, "emoji.png", bytes))).data!;
    const res = await call(`/api/v1/files/${f.id}/download`, { headers: { "x-api-key": key } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-length")).toBe(String(bytes.byteLength));
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="emoji.png"');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  it("drops bidirectional overrides, tag characters and other invisible format characters from the download name, and replaces controls", async () => {
    const { key } = await newAccount();
    // "invoice\u202Egnp.exe" shows as "invoiceexe.png" in a right-to-left override; a download must show what it is.
    const cases: [string, string][] = [
      ["invoice\u202Egnp.png", "invoicegnp.png"],
      ["a\u2066b\u2067c\u2068d\u2069e\u202A\u202B\u202C\u202D\u200E\u200F\u061C.png", "abcde.png"],
      ["tab\there\u0085\u009Bx\u007F.png", "tab_here_x_.png"],
      ["zero\u200Bwidth\uFEFF.png", "zerowidth.png"],
      // Tag characters spell invisible text ("exe" here); only the recommended subdivision flags keep theirs.
      ["report\u{E0001}\u{E0065}\u{E0078}\u{E0065}.png", "report.png"],
    ];
    for (const [name, shown] of cases) {
      const f = (await body<Uploaded>(await upload(key, name, fixture("emoji.png")))).data!;
      const res = await call(`/api/v1/files/${f.id}/download`, { headers: { "x-api-key": key } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${shown}"`);
    }
  });

  it("keeps the rest of a Unicode name intact: accents, right-to-left script, emoji joined with ZWJ, the Welsh flag", async () => {
    const { key } = await newAccount();
    const name = "Café שלום 👩\u200D💻 \u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}.png";
    const f = (await body<Uploaded>(await upload(key, name, fixture("emoji.png")))).data!;
    const res = await call(`/api/v1/files/${f.id}/download`, { headers: { "x-api-key": key } });
    const disposition = res.headers.get("content-disposition")!;
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toBe(name);
  });

  it("answers 404 for another account's file", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const f = (await body<Uploaded>(await upload(owner.key, "emoji.png", fixture("emoji.png")))).data!;
    const res = await call(`/api/v1/files/${f.id}/download`, { headers: { "x-api-key": other.key } });
    expect(res.status).toBe(404);
    expect(await body(res)).toEqual({ success: false, error: "File not found" });
  });

  it("lets a media:read key download but not upload", async () => {
    const owner = await newAccount();
    const f = (await body<Uploaded>(await upload(owner.key, "emoji.png", fixture("emoji.png")))).data!;
    const { createApiKey } = await import("../../../src/keys/create-api-key.ts");
    const ro = await createApiKey(testCtx(), {
      userId: owner.userId,
      name: "ro",
      permissions: [{ resource: "media", action: "read" }],
    });
    expect((await call(`/api/v1/files/${f.id}/download`, { headers: { "x-api-key": ro.key } })).status).toBe(
      200,
    );
    expect((await upload(ro.key, "emoji.png", fixture("emoji.png"))).status).toBe(403);
  });
});
