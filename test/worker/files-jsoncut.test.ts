/**
 * JsonCut's file routes (docs/compatibility.md): POST /api/v1/files/{id}/public-link, POST
 * /api/v1/files/validate/{image|video|audio}, GET /api/v1/files/supported-types, and `limit` as the files list's
 * page size; and the retired /api/v1/billing/return.
 */
import { describe, expect, it } from "vitest";
import { createApiKey } from "../../src/keys/create-api-key.ts";
import { body, call, fixture, json, newAccount, testCtx, upload } from "./helpers.ts";

const stored = async (key: string, name: string) =>
  (await body<{ id: string }>(await upload(key, name, fixture(name)))).data!.id;

const validate = (key: string, kind: string, name: string, bytes: Uint8Array) => {
  const form = new FormData();
  form.set("file", new File([bytes], name));
  return call(`/api/v1/files/validate/${kind}`, {
    method: "POST",
    headers: { "x-api-key": key },
    body: form,
  });
};

type Validation = { validation: { isValid: boolean; errors: string[]; category: string; fileType: string } };

describe("POST /api/v1/files/{fileId}/public-link", () => {
  it("answers a signed link like /link that downloads without a key, for the owner only", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const id = await stored(owner.key, "emoji.png");
    const res = await call(`/api/v1/files/${id}/public-link`, {
      method: "POST",
      headers: { "x-api-key": owner.key },
    });
    expect(res.status).toBe(201);
    const { url, expiresAt } = (await body<{ url: string; expiresAt: string }>(res)).data!;
    const expires = Date.parse(expiresAt) - Date.now();
    expect(expires).toBeGreaterThan(3500_000);
    expect(expires).toBeLessThanOrEqual(3600_000);
    const link = new URL(url);
    const download = await call(`${link.pathname}${link.search}`);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(fixture("emoji.png"));
    // A body sets the lifetime, within the same bounds as /link.
    const short = await call(`/api/v1/files/${id}/public-link`, json("POST", { expiresIn: 60 }, owner.key));
    expect(short.status).toBe(201);
    const tooLong = await call(
      `/api/v1/files/${id}/public-link`,
      json("POST", { expiresIn: 9e9 }, owner.key),
    );
    expect(tooLong.status).toBe(400);
    // Another account's file, or none: 404; a read-only media key: 403.
    for (const [fileId, key] of [
      [id, other.key],
      ["nope", owner.key],
    ] as const)
      expect(
        (await call(`/api/v1/files/${fileId}/public-link`, { method: "POST", headers: { "x-api-key": key } }))
          .status,
      ).toBe(404);
    const reader = await createApiKey(testCtx(), {
      userId: owner.userId,
      name: "reader",
      permissions: [{ resource: "media", action: "read" }],
    });
    expect(
      (
        await call(`/api/v1/files/${id}/public-link`, {
          method: "POST",
          headers: { "x-api-key": reader.key },
        })
      ).status,
    ).toBe(403);
  });
});

describe("POST /api/v1/files/validate/{kind}", () => {
  it("accepts a file of the route's kind and refuses another kind with the reason, storing nothing", async () => {
    const { key } = await newAccount();
    const png = await validate(key, "image", "emoji.png", fixture("emoji.png"));
    expect(png.status).toBe(200);
    expect((await body<Validation>(png)).data!.validation).toMatchObject({
      isValid: true,
      errors: [],
      category: "image",
      fileType: "png",
    });
    const mp4 = await validate(key, "video", "kohlipe3.mp4", fixture("kohlipe3.mp4"));
    expect((await body<Validation>(mp4)).data!.validation).toMatchObject({
      isValid: true,
      category: "video",
    });
    const audio = await validate(key, "audio", "sample1.m4a", fixture("sample1.m4a"));
    expect((await body<Validation>(audio)).data!.validation).toMatchObject({
      isValid: true,
      category: "audio",
    });
    const wrong = await validate(key, "video", "emoji.png", fixture("emoji.png"));
    expect(wrong.status).toBe(200);
    expect((await body<Validation>(wrong)).data!.validation).toMatchObject({
      isValid: false,
      errors: ["Expected a video file, got image/png"],
    });
    // A script named .png is refused here as on /validate.
    const evil = await validate(key, "image", "evil.png", new TextEncoder().encode("<script>1</script>"));
    expect((await body<Validation>(evil)).data!.validation.isValid).toBe(false);
    const files = await body<{ total: number }>(
      await call("/api/v1/files", { headers: { "x-api-key": key } }),
    );
    expect(files.data!.total).toBe(0);
  });

  it("answers 404 for another kind, 415 without a form, and 401 without a key", async () => {
    const { key } = await newAccount();
    expect((await validate(key, "font", "emoji.png", fixture("emoji.png"))).status).toBe(404);
    const notForm = await call("/api/v1/files/validate/image", json("POST", { file: "x" }, key));
    expect(notForm.status).toBe(415);
    const form = new FormData();
    form.set("file", new File([fixture("emoji.png")], "emoji.png"));
    expect((await call("/api/v1/files/validate/image", { method: "POST", body: form })).status).toBe(401);
  });
});

describe("GET /api/v1/files/supported-types", () => {
  it("lists each category's extensions and MIME types from the sniffer's own list, and the size limit", async () => {
    const { key } = await newAccount();
    const res = await call("/api/v1/files/supported-types", { headers: { "x-api-key": key } });
    expect(res.status).toBe(200);
    const { categories, maxFileSize } = (
      await body<{
        categories: Record<string, { extensions: string[]; mimeTypes: string[] }>;
        maxFileSize: number;
      }>(res)
    ).data!;
    expect(maxFileSize).toBe(100 * 1024 * 1024);
    expect(Object.keys(categories)).toEqual(["image", "video", "audio", "font", "shader", "captions"]);
    // JsonCut's published extensions are all there.
    expect(categories.image!.extensions).toEqual(
      expect.arrayContaining(["png", "jpg", "jpeg", "gif", "webp"]),
    );
    expect(categories.video!.extensions).toEqual(expect.arrayContaining(["mp4", "webm", "mov"]));
    expect(categories.audio!.extensions).toEqual(expect.arrayContaining(["mp3", "wav", "m4a", "aac"]));
    expect(categories.font!.extensions).toEqual(expect.arrayContaining(["ttf", "otf", "woff", "woff2"]));
    expect(categories.image!.mimeTypes).toContain("image/svg+xml");
    expect((await call("/api/v1/files/supported-types?x=1", { headers: { "x-api-key": key } })).status).toBe(
      400,
    );
    expect((await call("/api/v1/files/supported-types")).status).toBe(401);
  });
});

describe("GET /api/v1/files?limit=", () => {
  it("takes limit as the page size, like per_page, and refuses the two disagreeing", async () => {
    const { key } = await newAccount();
    for (const name of ["emoji.png", "img2.jpg", "emoji.png"]) await stored(key, name);
    const page = (q: string) => call(`/api/v1/files${q}`, { headers: { "x-api-key": key } });
    type List = { files: unknown[]; per_page: number; total: number };
    expect((await body<List>(await page("?limit=2"))).data).toMatchObject({ per_page: 2, total: 3 });
    expect((await body<List>(await page("?limit=2"))).data!.files).toHaveLength(2);
    expect((await body<List>(await page("?limit=2&page=2"))).data!.files).toHaveLength(1);
    expect((await body<List>(await page("?limit=2&per_page=2"))).data!.per_page).toBe(2);
    const both = await page("?limit=2&per_page=3");
    expect(both.status).toBe(400);
    expect((await body(both)).details!.errors).toEqual([
      expect.objectContaining({ field: "limit", message: expect.stringContaining("the same page size") }),
    ]);
    for (const q of ["?limit=0", "?limit=101", "?limit=x"]) expect((await page(q)).status, q).toBe(400);
    expect((await body<List>(await page(""))).data!.per_page).toBe(20);
  });
});

describe("retired routes", () => {
  it("no longer answers GET /api/v1/billing/return (checkout returns to /console/billing)", async () => {
    const res = await call("/api/v1/billing/return?checkout=success&payment=pay_1");
    expect(res.status).toBe(404);
  });
});
