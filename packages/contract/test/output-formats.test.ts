/**
 * The output formats table (src/output-formats.ts) is consistent with itself and with every list derived from it:
 * MIME types and extensions round trip, each kind asks for what it needs, the split rule holds only H.264 in mp4 or
 * mov, the grammar's pickers, the wire's formats, the reference extensions and the prices come from it. The renderer's
 * side of each entry (its encoder settings): renderer/test/unit/video/outputs/encoders.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateJobConfig } from "../src/config/index.ts";
import { estimateVideoTokens } from "../src/config/estimate.ts";
import { FILE_EXTENSIONS, kindOfReference } from "../src/config/file-ref.ts";
import { IMAGE_FORMATS } from "../src/config/image.ts";
import * as limits from "../src/config/limits.ts";
import * as prices from "../src/config/prices.ts";
import {
  AUDIO_FORMATS,
  FRAME_DEFAULTS,
  FRAME_FORMATS,
  formatOfPath,
  RENDER_FORMATS,
  renderFormatOf,
  VIDEO_FORMATS,
} from "../src/config/outputs.ts";
import { mimeOf } from "../src/mime.ts";
import {
  canonicalFormat,
  fileExtension,
  isPictureFormat,
  keepsAlpha,
  OUTPUT_FORMAT_NAMES,
  OUTPUT_FORMATS,
  outputFormat,
  type OutputFormatEntry,
} from "../src/output-formats.ts";
import { splittable } from "../src/windows.ts";

const entries = OUTPUT_FORMAT_NAMES.map((name) => [name, OUTPUT_FORMATS[name] as OutputFormatEntry] as const);

describe("each entry of the table", () => {
  it.each(entries)(
    "%s: its MIME type is the one every extension of it names, its name among them",
    (name, e) => {
      expect(e.extensions).toContain(name);
      for (const ext of e.extensions) {
        expect(ext).toBe(ext.toLowerCase());
        expect(mimeOf(ext)).toBe(e.mime);
        expect(mimeOf(ext.toUpperCase())).toBe(e.mime);
      }
      for (const alias of e.aliases ?? []) {
        expect(canonicalFormat(alias)).toBe(name);
        expect(e.extensions).toContain(alias);
      }
      expect(canonicalFormat(name)).toBe(name);
    },
  );

  it("names each extension and each MIME type for one format only", () => {
    const exts = entries.flatMap(([, e]) => e.extensions);
    expect(new Set(exts).size).toBe(exts.length);
    const mimes = entries.map(([, e]) => e.mime);
    expect(new Set(mimes).size).toBe(mimes.length);
  });

  it.each(entries)(
    "%s: what its kind needs (a muxer and an encoder where ffmpeg writes it, audio priced as audio)",
    (name, e) => {
      expect(e.uses.length).toBeGreaterThan(0);
      // ffmpeg writes every format a video job may name; only an image job's own (webp) is Chromium's.
      const written = e.uses.includes("video") || e.uses.includes("frame");
      expect(e.encoder !== undefined && e.muxer !== undefined).toBe(written);
      expect(e.price === "audio").toBe(e.kind === "audio");
      expect(e.price === "image").toBe(e.kind === "image");
      // A frame or image job format is one picture; a video job's format is anything but one picture.
      const picture = e.uses.includes("frame") || e.uses.includes("image");
      expect(picture && e.uses.includes("video")).toBe(false);
      expect(e.kind === "image").toBe(picture);
      expect(isPictureFormat(name)).toBe(e.kind === "image" || e.kind === "animated image");
      expect(e.kind === "audio" && e.alpha !== "none").toBe(false);
      expect(e.alphaCodec !== undefined).toBe(e.alpha === "on request");
      expect(e.caps === undefined || (e.kind === "animated image" && e.caps.maxSide > 0)).toBe(true);
    },
  );

  it.each(entries)("%s: splits into chunks only as H.264 video in mp4 or mov", (name, e) => {
    if (!e.splittable) return;
    expect(e.kind).toBe("video");
    expect(e.encoder).toBe("h264");
    expect(["mp4", "mov"]).toContain(e.muxer);
  });
});

describe("what is derived from the table", () => {
  it("lists the video job's formats, the audio ones, the frames' and an image job's in the table's order", () => {
    expect(VIDEO_FORMATS).toEqual(["mp4", "mov", "webm", "gif", "mp3", "wav", "m4a"]);
    expect(AUDIO_FORMATS).toEqual(["mp3", "wav", "m4a"]);
    expect(FRAME_FORMATS).toEqual(["png", "jpeg"]);
    expect(RENDER_FORMATS).toEqual([...VIDEO_FORMATS, ...FRAME_FORMATS]);
    expect(IMAGE_FORMATS).toEqual(["png", "jpeg", "jpg", "webp"]);
    for (const f of RENDER_FORMATS) expect(outputFormat(f)).toBeDefined();
  });

  it("knows no format by an inherited property's name", () => {
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      expect(outputFormat(name)).toBeUndefined();
      expect(mimeOf(name)).toBe("application/octet-stream");
    }
  });

  it("defaults to mp4, and to png for a still and a poster, jpeg for thumbnails (written .jpg)", () => {
    expect(renderFormatOf({})).toBe(limits.VIDEO_DEFAULTS.format);
    expect(renderFormatOf({ format: "gif", still: {} })).toBe("png");
    expect(renderFormatOf({ format: "gif", still: { format: "jpeg" } })).toBe("jpeg");
    expect(FRAME_DEFAULTS).toEqual({ still: "png", poster: "png", thumbnails: "jpeg" });
    expect(fileExtension("jpeg")).toBe("jpg");
    expect(fileExtension("png")).toBe("png");
  });

  it("accepts every extension the service writes as a reference of the slot its kind fits", () => {
    for (const [, e] of entries) {
      const slot = e.kind === "video" || e.kind === "audio" ? e.kind : "image";
      for (const ext of e.extensions) {
        expect(FILE_EXTENSIONS[slot]).toContain(ext);
        expect(kindOfReference(`https://example.com/out.${ext}`)).toBe(slot);
      }
    }
    // The listed order is the messages' (config.clips[].layers[].path).
    expect(FILE_EXTENSIONS.video).toEqual(["mp4", "webm", "mov", "avi"]);
  });

  it("takes the format from any spelling of an outPath's extension, and only a video job's formats", () => {
    const caseOf = (s: string, flips: boolean[]) =>
      [...s].map((c, i) => (flips[i] ? c.toUpperCase() : c)).join("");
    fc.assert(
      fc.property(
        fc.constantFrom(...OUTPUT_FORMAT_NAMES.flatMap((f) => OUTPUT_FORMATS[f].extensions)),
        fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        fc.stringMatching(/^[a-z0-9/._-]{0,12}$/),
        (ext, flips, stem) => {
          const format = formatOfPath(`${stem}.${caseOf(ext, flips)}`);
          const owner = OUTPUT_FORMAT_NAMES.find((f) =>
            (OUTPUT_FORMATS[f].extensions as readonly string[]).includes(ext),
          )!;
          expect(format).toBe((VIDEO_FORMATS as readonly string[]).includes(owner) ? owner : undefined);
        },
      ),
    );
  });

  it("prices each video job format by its rule: 10 + 2 a started second, audio 3 + 1", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...VIDEO_FORMATS),
        fc.double({ min: 0.01, max: 3600, noNaN: true }),
        (f, s) => {
          const started = Math.ceil(Math.round(s * 1000) / 1000);
          const [base, perSecond] =
            OUTPUT_FORMATS[f].price === "audio"
              ? [prices.TOKENS_AUDIO_BASE, prices.TOKENS_AUDIO_PER_SECOND]
              : [prices.TOKENS_VIDEO_BASE, prices.TOKENS_VIDEO_PER_SECOND];
          expect(estimateVideoTokens(s, false, f)).toBe(base + perSecond * started);
        },
      ),
    );
  });

  it("splits a long render of a splittable format only, and only without alpha", () => {
    for (const f of RENDER_FORMATS) {
      expect(splittable({}, f)).toBe(OUTPUT_FORMATS[f].splittable);
      expect(splittable({ alpha: true }, f)).toBe(false);
    }
    expect(splittable({}, "avi")).toBe(false);
  });

  it("keeps alpha where the table says: always, or on request", () => {
    for (const f of OUTPUT_FORMAT_NAMES) {
      const { alpha } = OUTPUT_FORMATS[f];
      expect(keepsAlpha(f, undefined)).toBe(alpha === "always");
      expect(keepsAlpha(f, true)).toBe(alpha !== "none");
    }
  });

  it("refuses alpha with a video job's format that cannot keep it, naming those that can", () => {
    for (const format of VIDEO_FORMATS) {
      const r = validateJobConfig("video", {
        format,
        alpha: true,
        clips: [{ duration: 1, layers: [{ type: "fill-color", color: "#123456" }] }],
      });
      const refused = OUTPUT_FORMATS[format].alpha === "none";
      expect(r.valid ? [] : r.errors.map((e) => e.message)).toEqual(
        refused ? [`alpha needs format "mov" (ProRes 4444) or "webm"; the format is ${format}`] : [],
      );
    }
  });

  it("takes a still only from a video format, and caps an animated image's length", () => {
    const clip = { duration: 2, layers: [{ type: "fill-color", color: "#123456" }] };
    for (const format of VIDEO_FORMATS) {
      const still = validateJobConfig("video", { format, still: { time: 1 }, clips: [clip] });
      expect(still.valid).toBe(OUTPUT_FORMATS[format].kind === "video");
      const caps = (OUTPUT_FORMATS[format] as OutputFormatEntry).caps;
      const long = validateJobConfig("video", {
        format,
        clips: Array.from({ length: 31 }, () => clip),
      });
      expect(long.valid).toBe(caps === undefined);
    }
  });
});
