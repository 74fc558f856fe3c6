/**
 * The renderer's side of the output formats table: every format a video job can name has encoder settings that fit
 * its entry (contract output-formats.ts), the render's target follows the entry (alpha, canvas, audio only, caps), and
 * for any job the main output's arguments hold what its kind needs. Exact argument lists: encode.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RENDER_FORMATS } from "@media-render/contract/config/outputs";
import {
  OUTPUT_FORMAT_NAMES,
  OUTPUT_FORMATS,
  type OutputFormatEntry,
} from "@media-render/contract/output-formats";
import { demuxerOfOutput, MEDIA_DEMUXERS } from "../../../../src/probe/demuxers.ts";
import { videoSpec } from "../../../../src/video/spec.ts";
import { formatArgs } from "../../../../src/video/outputs/encode.ts";
import {
  canvasHasAlpha,
  ENCODERS,
  encoderOf,
  type EncoderName,
} from "../../../../src/video/outputs/encoders.ts";
import { outputTarget, shapeSpec } from "../../../../src/video/outputs/target.ts";
import { videoConfig } from "../../../helpers/video-config.ts";

/** Whether a pixel format carries an alpha plane. */
const hasAlphaPlane = (pixelFormat: string | undefined) =>
  /^(yuva|rgba|bgra|argb|gbrap|ya)/.test(pixelFormat ?? "");

const rendered = RENDER_FORMATS.map((f) => [f, OUTPUT_FORMATS[f] as OutputFormatEntry] as const);

describe("the encoder settings of every format the renderer writes", () => {
  it.each(rendered)("%s: settings that fit its kind", (format, entry) => {
    const settings = encoderOf(format)!;
    expect(settings).toBeDefined();
    const picture = settings.codec !== undefined;
    const sound = settings.audio !== undefined;
    expect([picture, sound]).toEqual(
      {
        video: [true, true],
        audio: [false, true],
        image: [true, false],
        "animated image": [true, false],
      }[entry.kind],
    );
    // An animated image is finished from an intermediate; nothing else is.
    expect(settings.intermediate !== undefined).toBe(entry.kind === "animated image");
    // The renderer can read back what it writes (posters and thumbnails are taken from the file).
    expect(MEDIA_DEMUXERS).toContain(demuxerOfOutput(format));
  });

  it.each(rendered)("%s: keeps alpha exactly as its entry says", (format, entry) => {
    const plain = encoderOf(format)!;
    const asked = encoderOf(format, true)!;
    const onRequest = entry.alpha === "on request";
    // An image's alpha is an image job's (Chromium's): a still is drawn opaque.
    expect(hasAlphaPlane(plain.pixelFormat)).toBe(entry.alpha === "always" && entry.kind !== "image");
    expect(asked === plain).toBe(!onRequest);
    expect(hasAlphaPlane(asked.pixelFormat)).toBe(onRequest || hasAlphaPlane(plain.pixelFormat));
    expect(asked.codec?.(false).includes("prores_ks") ?? false).toBe(onRequest);
  });

  it.each(rendered.filter(([, e]) => e.splittable))(
    "%s: splits into H.264 segments joined by stream copy",
    (format) => {
      const settings = encoderOf(format)!;
      expect(settings.codec!(false).slice(0, 2)).toEqual(["-c:v", "libx264"]);
      expect(settings.segmentMuxer).toBe("mp4");
    },
  );

  it("has no settings nobody uses: each is a format's encoder or its alpha variant", () => {
    const used = new Set<string>();
    for (const f of OUTPUT_FORMAT_NAMES) {
      const key = (OUTPUT_FORMATS[f] as OutputFormatEntry).encoder;
      if (key === undefined) continue;
      used.add(key);
      const variant = ENCODERS[key as EncoderName].alpha;
      if (variant) used.add(variant);
    }
    expect([...used].sort()).toEqual(Object.keys(ENCODERS).sort());
  });

  it("composes on an alpha canvas only for a video format that always keeps alpha", () => {
    for (const f of OUTPUT_FORMAT_NAMES) {
      const e = OUTPUT_FORMATS[f] as OutputFormatEntry;
      expect(canvasHasAlpha(f)).toBe(e.kind === "video" && e.alpha === "always");
    }
    expect(canvasHasAlpha(undefined)).toBe(false);
  });
});

describe("any main output's arguments", () => {
  it("map the streams its kind keeps, name its muxer and its pixel format, and write the file once", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...RENDER_FORMATS),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 120 }),
        fc.double({ min: 0.04, max: 3600, noNaN: true }),
        (format, alpha, fast, fps, duration) => {
          const entry = OUTPUT_FORMATS[format] as OutputFormatEntry;
          const keeps = alpha && entry.alpha === "on request";
          const args = formatArgs({ format, alpha: keeps, fast, fps, duration, outPath: "/w/o" });
          expect(args.filter((a) => a === "/w/o")).toHaveLength(1);
          const settings = encoderOf(format, keeps)!;
          const muxer = settings.intermediate?.muxer ?? entry.muxer;
          // The first muxer named is the file's; after it only the null muxer of a stream not kept.
          expect(args[args.indexOf("-f") + 1]).toBe(muxer);
          expect(args.indexOf("-f")).toBeLessThan(args.indexOf("/w/o"));
          const maps = args.flatMap((a, i) => (a === "-map" ? [args[i + 1]] : []));
          const nulls = args.filter((a) => a === "null").length;
          expect([maps, nulls]).toEqual(
            {
              video: [["[vout]", "[aout]"], 0],
              audio: [["[aout]", "[vout]"], 1],
              "animated image": [["[vout]", "[aout]"], 1],
              image: [["[vout]"], 0],
            }[entry.kind],
          );
          expect(args.includes("-frames:v")).toBe(entry.kind === "image");
          const pix = args.indexOf("-pix_fmt");
          expect(pix < 0 ? undefined : args[pix + 1]).toBe(settings.pixelFormat);
          const t = args.indexOf("-t");
          expect(t < 0).toBe(entry.kind === "image");
          expect(t < 0 ? "" : args[t + 1]).not.toMatch(/e/);
        },
      ),
    );
  });
});

describe("the render's target follows the format's entry", () => {
  const base = {
    width: 1920,
    height: 1080,
    fps: 50,
    clips: [{ duration: 2, layers: [{ type: "fill-color", color: "#123456" }] }],
  };

  it.each(OUTPUT_FORMAT_NAMES.filter((f) => OUTPUT_FORMATS[f].uses.includes("video" as never)))(
    "%s: alpha and its canvas, audio only, and its caps",
    (format) => {
      const entry = OUTPUT_FORMATS[format] as OutputFormatEntry;
      for (const alpha of [undefined, true]) {
        // Built past the grammar (which refuses alpha where it cannot be kept) to see what the target does with it.
        const config = { ...videoConfig({ ...base, format }), alpha };
        const target = outputTarget(config);
        const keeps = entry.alpha === "always" || (entry.alpha === "on request" && alpha === true);
        expect([target.format, target.alpha, target.canvas]).toEqual([format, keeps, keeps ? "webm" : "mp4"]);
        expect(target.audioOnly).toBe(entry.kind === "audio");
        const spec = shapeSpec(videoSpec(config, target.canvas), target);
        const { caps } = entry;
        // A GIF fits its caps (aspect kept); an audio-only render draws on a 64 px canvas it throws away.
        const size = caps
          ? [caps.maxSide, (1080 * caps.maxSide) / 1920, caps.maxFps]
          : entry.kind === "audio"
            ? [64, 64, 50]
            : [1920, 1080, 50];
        expect([spec.width, spec.height, spec.fps]).toEqual(size);
      }
    },
  );

  it("draws a still on the opaque canvas, whatever its format could hold", () => {
    for (const format of ["png", "jpeg"] as const)
      for (const video of ["mp4", "webm", "mov"] as const) {
        const target = outputTarget(videoConfig({ ...base, format: video, still: { time: 1, format } }));
        expect([target.format, target.alpha, target.canvas, target.stillTime]).toEqual([
          format,
          false,
          "mp4",
          1,
        ]);
      }
  });
});
