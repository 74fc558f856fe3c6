/**
 * Captions from a file (`captionsFile`, issue 33): SubRip and WebVTT upload as category `captions` (sniffed
 * from the text, never from the name), a video job may name one; another account's or a missing file is
 * FILE_NOT_FOUND, a stored file of another kind INVALID_FILE_TYPE, and it cannot be combined with autoSubtitles.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CAPTIONS_FILE_MAX_BYTES, CAPTIONS_FILE_MAX_CUES } from "@media-render/contract/config/limits";
import { sniff } from "../../src/files/sniff.ts";
import { body, call, newAccount, upload } from "./helpers.ts";
import { createJobCall, seedMediaFile } from "./jobs-seed.ts";

const SRT = "1\n00:00:00,500 --> 00:00:01,500\nHello there\n\n2\n00:00:02,000 --> 00:00:03,000\nBye\n";
const VTT = "WEBVTT\n\n00:00.500 --> 00:01.500\nHello there\n";

const job = (extra: Record<string, unknown>) => ({
  type: "video",
  config: { width: 64, height: 64, fps: 10, clips: [{ duration: 3, layers: [{ type: "pause" }] }], ...extra },
});
const errorsOf = async (res: Response) => (await body(res)).details!.errors!;
const bytes = (text: string) => new TextEncoder().encode(text);

describe("captions files", () => {
  it("sniffs SubRip and WebVTT by their text, and prose as neither", () => {
    const kind = (text: string) => sniff(bytes(text));
    expect(kind(SRT)).toMatchObject({ category: "captions", ext: "srt", mimeType: "application/x-subrip" });
    expect(kind(`\uFEFF\r\n${SRT.replace(/\n/g, "\r\n")}`)?.ext).toBe("srt");
    expect(kind(VTT)).toMatchObject({ category: "captions", ext: "vtt", mimeType: "text/vtt" });
    expect(kind("WEBVTT - a title\n\n")?.ext).toBe("vtt");
    expect(kind("WEBVTTX\n")).toBeNull();
    expect(kind("1\nnot a timing line\n")).toBeNull();
    expect(kind("WEBVTT\n\u0000")).toBeNull();
  });

  it("uploads an .srt as a captions file and renders a job that names it", async () => {
    const { key } = await newAccount({ planId: "pro" });
    const up = await upload(key, "talk.srt", bytes(SRT));
    expect(up.status).toBe(201);
    const file = (await body<{ storageUrl: string; metadata: { category: string }; mimeType: string }>(up))
      .data!;
    expect(file.metadata.category).toBe("captions");
    expect(file.mimeType).toBe("application/x-subrip");
    expect(file.storageUrl).toMatch(/^\/captions\/.+\.srt$/);
    const res = await createJobCall(key, job({ captionsFile: file.storageUrl }));
    expect(res.status).toBe(201);
  });

  it("refuses a .vtt name on SubRip content and a .srt that is prose", async () => {
    const { key } = await newAccount();
    expect((await upload(key, "talk.vtt", bytes(SRT))).status).toBe(400);
    expect((await upload(key, "talk.srt", bytes("just some words\n"))).status).toBe(400);
  });

  it("FILE_NOT_FOUND for another account's file, INVALID_FILE_TYPE for a stored picture", async () => {
    const { key, userId } = await newAccount({ planId: "pro" });
    const other = await newAccount();
    const theirs = await seedMediaFile(other.userId, { category: "captions", ext: "srt" });
    const mine = await createJobCall(key, job({ captionsFile: theirs.storageUrl }));
    expect(await errorsOf(mine)).toEqual([
      {
        field: "config.captionsFile",
        message: `File not found: ${theirs.storageUrl}`,
        code: "FILE_NOT_FOUND",
      },
    ]);
    const png = await seedMediaFile(userId, { category: "image", ext: "png" });
    const res = await createJobCall(key, job({ captionsFile: png.storageUrl }));
    expect(res.status).toBe(400);
    const [e] = await errorsOf(res);
    expect(e).toMatchObject({ field: "config.captionsFile", code: "INVALID_FILE_TYPE" });
    expect(e!.message).toMatch(/SubRip/);
  });

  it("refuses a URL of another kind, and captionsFile together with autoSubtitles", async () => {
    const { key } = await newAccount({ planId: "pro" });
    const url = await createJobCall(key, job({ captionsFile: "https://example.com/talk.txt" }));
    expect(url.status).toBe(400);
    expect((await errorsOf(url))[0]!.field).toBe("config.captionsFile");
    const both = await createJobCall(
      key,
      job({ captionsFile: "https://example.com/talk.srt", autoSubtitles: true }),
    );
    expect(both.status).toBe(400);
    expect(await errorsOf(both)).toContainEqual(
      expect.objectContaining({
        field: "config.captionsFile",
        message:
          "captionsFile and autoSubtitles cannot both be on: the file's captions are drawn as they are",
      }),
    );
  });

  describe("limits (issue 42, B)", () => {
    /** A SubRip file of `n` cues, each `text` long. */
    const srtOf = (n: number, text = "Hi") =>
      Array.from({ length: n }, (_, i) => `${i + 1}\n00:00:01,000 --> 00:00:02,000\n${text}\n`).join("\n");
    const vttOf = (n: number, text = "Hi") =>
      `WEBVTT\n\n${Array.from({ length: n }, () => `00:01.000 --> 00:02.000\n${text}\n`).join("\n")}`;
    const stored = async (userId: string) => {
      const listed = await env.FILES.list({ prefix: "captions/" });
      const rows = await env.DB.prepare("SELECT count(*) AS n FROM media_files WHERE user_id = ?")
        .bind(userId)
        .first<{ n: number }>();
      return { objects: listed.objects.filter((o) => o.key.includes(userId)).length, rows: rows!.n };
    };

    it("refuses a captions file over 1 MiB at upload, naming the field, and keeps nothing", async () => {
      const { key, userId } = await newAccount();
      // Few cues, long lines: only the size is over.
      const big = srtOf(10, "x".repeat(Math.ceil(CAPTIONS_FILE_MAX_BYTES / 10)));
      for (const [name, text] of [
        ["big.srt", big],
        ["big.vtt", vttOf(10, "y".repeat(Math.ceil(CAPTIONS_FILE_MAX_BYTES / 10)))],
      ] as const) {
        expect(text.length).toBeGreaterThan(CAPTIONS_FILE_MAX_BYTES);
        const res = await upload(key, name, bytes(text));
        expect(res.status, name).toBe(400);
        const envelope = await body(res);
        expect(envelope).toMatchObject({ success: false, error: "File validation failed" });
        expect(envelope.details!.errors).toEqual([
          {
            field: "file",
            code: "CAPTIONS_FILE_TOO_LARGE",
            message: `A captions file may be at most ${CAPTIONS_FILE_MAX_BYTES} bytes (1 MiB); this one is larger`,
          },
        ]);
      }
      expect(await stored(userId)).toEqual({ objects: 0, rows: 0 });
    });

    it("refuses a captions file of more cues than drawn at upload, and the validate route the same way", async () => {
      const { key, userId } = await newAccount();
      const many = srtOf(CAPTIONS_FILE_MAX_CUES + 1);
      expect(many.length).toBeLessThan(CAPTIONS_FILE_MAX_BYTES);
      const res = await upload(key, "many.srt", bytes(many));
      expect(res.status).toBe(400);
      expect((await body(res)).details!.errors).toEqual([
        {
          field: "file",
          code: "TOO_MANY_CUES",
          message: `A captions file may have at most ${CAPTIONS_FILE_MAX_CUES} cues (timing lines with -->); this one has more`,
        },
      ]);
      const form = new FormData();
      form.set("file", new File([bytes(vttOf(CAPTIONS_FILE_MAX_CUES + 1))], "many.vtt"));
      const validate = await call("/api/v1/files/validate", {
        method: "POST",
        headers: { "x-api-key": key },
        body: form,
      });
      expect(validate.status).toBe(400);
      expect((await body(validate)).details!.errors![0]).toMatchObject({
        field: "file",
        code: "TOO_MANY_CUES",
      });
      expect(await stored(userId)).toEqual({ objects: 0, rows: 0 });
    });

    it("accepts a file at the limits: 2,000 cues, and 1 MiB exactly", async () => {
      const { key, userId } = await newAccount();
      expect((await upload(key, "full.srt", bytes(srtOf(CAPTIONS_FILE_MAX_CUES)))).status).toBe(201);
      const head = srtOf(1, "");
      const exact = head + "z".repeat(CAPTIONS_FILE_MAX_BYTES - head.length);
      expect(bytes(exact).length).toBe(CAPTIONS_FILE_MAX_BYTES);
      expect((await upload(key, "exact.srt", bytes(exact))).status).toBe(201);
      expect(await stored(userId)).toEqual({ objects: 2, rows: 2 });
    });
  });
});
