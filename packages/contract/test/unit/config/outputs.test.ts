/**
 * The output grammar: formats, editly's outPath naming the format, alpha only where it can be kept, the GIF's
 * length cap, and audio-only prices.
 */
import { describe, expect, it } from "vitest";
import { validateJobConfig } from "../../../src/config/index.ts";
import { estimateVideoTokens } from "../../../src/config/estimate.ts";

const clip = (duration: number) => ({ duration, layers: [{ type: "fill-color", color: "#123456" }] });

const fields = (config: Record<string, unknown>) => {
  const r = validateJobConfig("video", config);
  return r.valid ? [] : r.errors.map((e) => [e.field, e.message]);
};

describe("video output formats", () => {
  it.each(["mp4", "mov", "webm", "gif", "mp3", "wav", "m4a"])("accepts format %s as the output", (format) => {
    const r = validateJobConfig("video", { format, clips: [clip(2)] });
    expect(r.valid && r.outputFormat).toBe(format);
  });

  it("refuses a format it cannot write, listing the ones it can", () => {
    const [[field, message]] = fields({ format: "avi", clips: [clip(2)] }) as [[string, string]];
    expect(field).toBe("config.format");
    expect(message).toContain("gif");
  });

  it.each([
    ["./ph.gif", "gif"],
    ["out/ALPHA.MOV", "mov"],
    ["voice.mp3", "mp3"],
    ["./x.webp", "mp4"],
    ["no-extension", "mp4"],
  ])("takes the format from outPath %s when format is absent (%s)", (outPath, format) => {
    const r = validateJobConfig("video", { outPath, clips: [clip(2)] });
    expect(r.valid && r.outputFormat).toBe(format);
    expect(r.valid && r.config.format).toBe(format === "mp4" ? undefined : format);
    expect(r.warnings.map((w) => w.field)).toEqual(["config.outPath"]);
  });

  it("lets format win over outPath", () => {
    const r = validateJobConfig("video", { outPath: "./a.gif", format: "webm", clips: [clip(2)] });
    expect(r.valid && r.outputFormat).toBe("webm");
  });

  it("accepts alpha with mov and webm, and refuses it where the format cannot keep it", () => {
    expect(fields({ format: "mov", alpha: true, clips: [clip(1)] })).toEqual([]);
    expect(fields({ format: "webm", alpha: true, clips: [clip(1)] })).toEqual([]);
    expect(fields({ alpha: true, clips: [clip(1)] })).toEqual([
      ["config.alpha", 'alpha needs format "mov" (ProRes 4444) or "webm"; the format is mp4'],
    ]);
    expect(fields({ outPath: "a.gif", alpha: true, clips: [clip(1)] })[0]?.[0]).toBe("config.alpha");
  });

  it("caps a GIF's length, and checks its dithering", () => {
    expect(fields({ format: "gif", clips: [clip(60)] })).toEqual([]);
    expect(fields({ format: "gif", clips: [clip(30), clip(30.4)] })).toEqual([
      ["config.clips", "a GIF lasts at most 60 s; this one would last 60.4 s"],
    ]);
    expect(fields({ format: "gif", gif: { dither: "bayer" }, clips: [clip(1)] })).toEqual([]);
    expect(fields({ format: "gif", gif: { dither: "noise" }, clips: [clip(1)] })[0]?.[0]).toBe(
      "config.gif.dither",
    );
  });
});

describe("output prices", () => {
  it("charges an audio-only render 3 + 1 per started second, a GIF like a video", () => {
    expect(estimateVideoTokens(2.5, false, "mp3")).toBe(3 + 3);
    expect(estimateVideoTokens(2.5, false, "gif")).toBe(10 + 6);
    const r = validateJobConfig("video", { format: "wav", clips: [clip(4)] });
    expect(r.valid && r.estimatedTokens).toBe(3 + 4);
  });
});

describe("stills and previews", () => {
  it("makes a still's job an image of its format, priced 2, before the video's end", () => {
    const r = validateJobConfig("video", { still: { time: 1, format: "jpeg" }, clips: [clip(2)] });
    expect(r.valid && [r.outputFormat, r.estimatedTokens]).toEqual(["jpeg", 2]);
    expect(fields({ still: { time: 2 }, clips: [clip(2)] })).toEqual([
      ["config.still.time", "must be before the end of the video (2 s)"],
    ]);
    expect(fields({ still: { time: 1 }, format: "mp3", clips: [clip(2)] })[0]?.[0]).toBe("config.still");
  });

  it("charges a preview by the seconds it renders, and refuses an empty range", () => {
    const r = validateJobConfig("video", { preview: { scale: 0.25, from: 2, to: 4.5 }, clips: [clip(10)] });
    expect(r.valid && r.estimatedTokens).toBe(10 + 2 * 3);
    const open = validateJobConfig("video", { preview: { from: 8 }, clips: [clip(10)] });
    expect(open.valid && open.estimatedTokens).toBe(10 + 2 * 2);
    expect(fields({ preview: { from: 3, to: 3 }, clips: [clip(10)] })[0]?.[0]).toBe("config.preview");
    expect(fields({ preview: { scale: 0.05 }, clips: [clip(10)] })[0]?.[0]).toBe("config.preview.scale");
    expect(fields({ preview: { to: 2 }, poster: { time: 1 }, clips: [clip(10)] })).toEqual([
      ["config.preview", "a preview takes no still, poster or thumbnails"],
    ]);
  });
});

describe("thumbnail sprites", () => {
  const tall = (thumbnails: Record<string, unknown>) =>
    fields({ width: 1280, height: 4096, thumbnails: { ...thumbnails }, clips: [clip(10)] });

  it("refuses a sprite sheet of more pixels than the largest image, naming the field and the sizes", () => {
    // Issue 42: 100 thumbnails 1280 px wide of a 1280x4096 video made a 12800x40960 sheet.
    expect(tall({ count: 100, width: 1280, sprite: true })).toEqual([
      [
        "config.thumbnails.sprite",
        "the sprite sheet of 100 thumbnails of 1280x4096 px would be 12800x40960 px (524.3 million pixels); at " +
          "most 16.8 million (4096x4096): make the thumbnails narrower (width) or fewer, or leave the sprite out",
      ],
    ]);
    // The same thumbnails without the sheet are frames of their own: allowed.
    expect(tall({ count: 100, width: 1280 })).toEqual([]);
  });

  it("counts the frames an interval makes, and bounds the sheet at exactly 4096x4096", () => {
    // One frame every 0.1 s of 10 s: 100 tiles of 408x408, a 4080x4080 sheet: within the bound.
    const square = (thumbnails: Record<string, unknown>) =>
      fields({ width: 1280, height: 1280, thumbnails, clips: [clip(10)] });
    expect(square({ interval: 0.1, width: 408, sprite: true })).toEqual([]);
    // 100 tiles of 410x410 = 4100x4100 px: just over.
    expect(square({ interval: 0.1, width: 410, sprite: true })[0]?.[0]).toBe("config.thumbnails.sprite");
    // A default 1280x720 video with 100 default 160 px thumbnails: a 1600x900 sheet.
    expect(fields({ thumbnails: { count: 100, sprite: true }, clips: [clip(10)] })).toEqual([]);
  });
});
