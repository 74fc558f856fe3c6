/**
 * `image` and `image-overlay` (image.ts): the still decoded once (at the JPEG's lowest sufficient resolution, turned
 * by its EXIF orientation), resized once into its box, then looped, panned (a crop) or zoomed (zoompan over an
 * oversampled copy) per frame. Exact chains for each branch; a window starts each motion at its own frame.
 */
import { describe, expect, it } from "vitest";
import {
  frameOf,
  isAnimated,
  jpegLowres,
  orientationFilter,
  overlayFractions,
} from "../../../../src/video/layers/image.ts";
import type { Layer } from "../../../../src/video/types.ts";
import { compileOne, LOGO, PHOTO, probed } from "../../../helpers/graph-spec.ts";

const MEDIA = {
  "/in/photo.jpg": PHOTO,
  "/in/logo.png": LOGO,
  "/in/wide.png": { ...LOGO, width: 320, height: 180 },
  "/in/turned.jpg": { ...PHOTO, width: 3000, height: 4000, orientation: 6 },
  "/in/clip.mp4": probed(),
  "/in/steps.gif": probed({
    width: 32,
    height: 32,
    duration: 2.8,
    hasAudio: false,
    videoCodec: "gif",
    demuxer: "gif",
  }),
};
const image = (extra: Record<string, unknown> = {}, options: Parameters<typeof compileOne>[1] = {}) =>
  compileOne({ type: "image", path: "/in/photo.jpg", ...extra }, { media: MEDIA, ...options });
const overlay = (extra: Record<string, unknown> = {}) =>
  compileOne({ type: "image-overlay", path: "/in/logo.png", ...extra }, { media: MEDIA });

/** How the photo is read: a 4000x3000 JPEG drawn at 320x180 decodes at an eighth (-lowres 3). */
const PHOTO_INPUT = ["-lowres", "3", "-f", "image2", "-protocol_whitelist", "file", "-i", "/in/photo.jpg"];
const TAIL = "settb=1/25,setpts=N+0";

describe("image", () => {
  it("covers the frame and zooms in by default (Ken Burns), from a still resized once to 1.5x", () => {
    const { ctx, out } = image();
    expect(ctx.inputs).toEqual([PHOTO_INPUT]);
    expect(ctx.filters).toEqual([
      "[0:v]scale=480:270:force_original_aspect_ratio=increase,crop=480:270,setsar=1[rs1]",
      `[rs1]format=yuv420p,zoompan=z='1+0.1*((on+0)/24)':x='(iw-iw/zoom)/2':y='(ih-ih/zoom)/2':d=25:s=320x180:fps=25,format=yuv420p,${TAIL}[img0]`,
    ]);
    expect(out).toEqual({ label: "img0", x: 0, y: 0, w: 320, h: 180, coversFrame: true });
  });

  it("zooms out by zoomAmount, and loops the still unmoved when zoomDirection is null", () => {
    expect(image({ zoomDirection: "out", zoomAmount: 0.3 }).ctx.filters[1]).toContain(
      "zoompan=z='1+0.3*(1-((on+0)/24))':",
    );
    expect(image({ zoomDirection: null }).ctx.filters).toEqual([
      "[0:v]scale=320:180:force_original_aspect_ratio=increase,crop=320:180,setsar=1[rs1]",
      `[rs1]format=yuv420p,loop=loop=24:size=1,${TAIL}[img0]`,
    ]);
  });

  it("pans by cropping a copy resized once to 1 + zoomAmount, at whole pixels", () => {
    const left = image({ zoomDirection: "left" }).ctx.filters;
    expect(left).toEqual([
      "[0:v]scale=352:198:force_original_aspect_ratio=increase,crop=352:198,setsar=1[rs1]",
      `[rs1]format=yuv420p,loop=loop=24:size=1,crop=320:180:x='floor(32*(n+0)/24+0.5)':y='9':exact=1,${TAIL}[img0]`,
    ]);
    const crop = (zoomDirection: string) =>
      /crop=320:180:x='([^']*)':y='([^']*)'/.exec(image({ zoomDirection }).ctx.filters[1]!)!.slice(1);
    expect(crop("right")).toEqual(["floor(32*(1-(n+0)/24)+0.5)", "9"]);
    expect(crop("up")).toEqual(["16", "floor(18*(n+0)/24+0.5)"]);
    expect(crop("down")).toEqual(["16", "floor(18*(1-(n+0)/24)+0.5)"]);
  });

  it("in a window, starts the zoom or the pan at the layer's frame the window starts at", () => {
    const range = { from: 10, to: 15 };
    const zoom = image({}, { range }).ctx.filters[1]!;
    expect(zoom).toContain("zoompan=z='1+0.1*((on+10)/24)':");
    expect(zoom).toMatch(/:d=5:s=320x180:fps=25,format=yuv420p,settb=1\/25,setpts=N\+10\[img0\]$/);
    const pan = image({ zoomDirection: "left" }, { range }).ctx.filters[1]!;
    expect(pan).toBe(
      "[rs1]format=yuv420p,loop=loop=4:size=1,crop=320:180:x='floor(32*(n+10)/24+0.5)':y='9':exact=1,settb=1/25,setpts=N+10[img0]",
    );
  });

  it("resizes into a box with each resizeMode, and places a box smaller than the frame", () => {
    const still = { zoomDirection: null };
    expect(image({ ...still, resizeMode: "stretch" }).ctx.filters[0]).toBe(
      "[0:v]scale=320:180,setsar=1[rs1]",
    );
    const contained = image({
      ...still,
      resizeMode: "contain",
      width: 0.5,
      height: 0.5,
      position: "top-left",
    });
    expect(contained.ctx.filters).toEqual([
      "[0:v]scale=160:90:force_original_aspect_ratio=decrease,format=yuva420p,pad=160:90:(ow-iw)/2:(oh-ih)/2:color=black@0,setsar=1[rs1]",
      `[rs1]format=yuva420p,loop=loop=24:size=1,${TAIL}[img0]`,
    ]);
    // contain leaves transparent bars: the layer covers nothing even at full size.
    expect(contained.out).toEqual({ label: "img0", x: 16, y: 9, w: 160, h: 90, coversFrame: false });
    expect(image({ ...still, resizeMode: "contain" }).out?.coversFrame).toBe(false);
    expect(image({ ...still, resizeMode: "contain-blur" }).ctx.filters).toEqual([
      "[0:v]split[cbA2][cbB3]",
      "[cbA2]scale=40:22,boxblur=4:2,scale=320:180,setsar=1[cbBg4]",
      "[cbB3]scale=320:180:force_original_aspect_ratio=decrease,setsar=1[cbFg5]",
      "[cbBg4][cbFg5]overlay=(W-w)/2:(H-h)/2:format=auto[rs1]",
      `[rs1]format=yuv420p,loop=loop=24:size=1,${TAIL}[img0]`,
    ]);
  });

  it("stretches a picture of the box's own aspect whatever the mode, keeping a PNG's alpha", () => {
    const { ctx, out } = compileOne(
      { type: "image", path: "/in/wide.png", zoomDirection: null, resizeMode: "contain" },
      { media: MEDIA },
    );
    expect(ctx.inputs).toEqual([["-f", "png_pipe", "-protocol_whitelist", "file", "-i", "/in/wide.png"]]);
    expect(ctx.filters[0]).toBe("[0:v]scale=320:180,setsar=1[rs1]");
    expect(ctx.filters[1]).toMatch(/^\[rs1\]format=yuva420p,/);
    expect(out?.coversFrame).toBe(false);
  });

  it("turns a JPEG by its EXIF orientation in the graph, with ffmpeg's own turning off", () => {
    const { ctx } = compileOne(
      { type: "image", path: "/in/turned.jpg", zoomDirection: null },
      { media: MEDIA },
    );
    expect(ctx.inputs[0]!.slice(0, 3)).toEqual(["-noautorotate", "-lowres", "3"]);
    expect(ctx.filters[0]).toBe(
      "[0:v]transpose=1,scale=320:180:force_original_aspect_ratio=increase,crop=320:180,setsar=1[rs1]",
    );
  });

  it("draws nothing for a file the probe did not see", () => {
    const { ctx, out } = compileOne({ type: "image", path: "/in/none.jpg" }, { media: MEDIA });
    expect([out, ctx.inputs, ctx.filters]).toEqual([null, [], []]);
  });
});

describe("image-overlay", () => {
  it("is sized by width, its height from the picture's aspect, centred, never zoomed by default", () => {
    const { ctx, out } = overlay({ width: 0.25 });
    expect(ctx.inputs).toEqual([["-f", "png_pipe", "-protocol_whitelist", "file", "-i", "/in/logo.png"]]);
    expect(ctx.filters).toEqual([
      "[0:v]scale=80:40,setsar=1[rs1]",
      `[rs1]format=yuva420p,loop=loop=24:size=1,${TAIL}[img0]`,
    ]);
    expect(out).toEqual({ label: "img0", x: 120, y: 70, w: 80, h: 40, coversFrame: false });
  });

  it("takes a width above 1 as pixels of the frame, and is placed by its position", () => {
    expect(overlay({ width: 80, position: "bottom-right" }).out).toMatchObject({ x: 224, y: 131 });
    expect(overlay({ width: 80, position: "bottom-right" }).ctx.filters[0]).toBe(
      "[0:v]scale=80:40,setsar=1[rs1]",
    );
  });

  it("is sized by height when no width is given, and fills the frame's width when neither is", () => {
    expect(overlay({ height: 0.5, position: { x: 0.5, y: 0, originY: "top" } })).toMatchObject({
      out: { x: 70, y: 0 },
      ctx: { filters: ["[0:v]scale=180:90,setsar=1[rs1]", expect.any(String)] },
    });
    expect(overlay().ctx.filters[0]).toBe("[0:v]scale=320:160,setsar=1[rs1]");
    expect(overlay().out).toMatchObject({ x: 0, y: 10 });
  });

  it("zooms when asked, from a copy oversampled 1.5x, drawn at its box's size", () => {
    const { ctx } = overlay({ width: 0.25, zoomDirection: "in" });
    expect(ctx.filters).toEqual([
      "[0:v]scale=120:60,setsar=1[rs1]",
      `[rs1]format=yuva420p,zoompan=z='1+0.1*((on+0)/24)':x='(iw-iw/zoom)/2':y='(ih-ih/zoom)/2':d=25:s=80x40:fps=25,format=yuva420p,${TAIL}[img0]`,
    ]);
  });
});

describe("the still's decoding", () => {
  it("asks a JPEG for the smallest power-of-two reduction still as large as the drawing (at most 1/8)", () => {
    expect(jpegLowres(PHOTO, 480, 270)).toEqual(["-lowres", "3"]);
    expect(jpegLowres(PHOTO, 1000, 750)).toEqual(["-lowres", "2"]);
    expect(jpegLowres(PHOTO, 1001, 750)).toEqual(["-lowres", "1"]);
    expect(jpegLowres(PHOTO, 2001, 100)).toEqual([]);
    // Only JPEG decoders reduce.
    expect(jpegLowres(LOGO, 10, 10)).toEqual([]);
  });

  it("maps each EXIF orientation to the flips and turns that show it upright", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map(orientationFilter)).toEqual([
      "",
      "hflip",
      "hflip,vflip",
      "vflip",
      "transpose=0",
      "transpose=1",
      "transpose=3",
      "transpose=2",
      "",
    ]);
  });

  it("reads an overlay's pixel sizes as fractions of the configured frame, and leaves other layers alone", () => {
    const layer = { type: "image-overlay", path: "/in/logo.png", width: 640, height: 0.5 } as Layer;
    expect(overlayFractions(layer, 1280, 720)).toEqual({ ...layer, width: 0.5, height: 0.5 });
    const other = { type: "image", path: "/in/photo.jpg", width: 0.5 } as Layer;
    expect(overlayFractions(other, 1280, 720)).toBe(other);
  });
});

describe("frameTime: one frame of a moving picture as a still", () => {
  it("seeks a video exactly to it and takes the first frame on the render's grid, then holds it like a still", () => {
    const { ctx, out } = overlay({ path: "/in/clip.mp4", width: 0.5, frameTime: 1.25 });
    expect(ctx.inputs).toEqual([
      ["-ss", "1.25", "-f", "mov", "-protocol_whitelist", "file", "-i", "/in/clip.mp4"],
    ]);
    expect(ctx.filters).toEqual([
      "[0:v]fps=25:start_time=0,trim=end_frame=1,scale=160:90,setsar=1[rs1]",
      `[rs1]format=yuv420p,loop=loop=24:size=1,${TAIL}[img0]`,
    ]);
    expect(out).toMatchObject({ x: 80, y: 45 });
  });

  it("reads an animated picture from its start and takes the frame it plays at the nearest frame of the layer", () => {
    expect(frameOf(MEDIA["/in/steps.gif"]!, 0.62, 25)).toEqual({
      options: [],
      pre: "fps=25:start_time=0,tpad=stop_mode=clone:stop=-1,trim=start_frame=16:end_frame=17",
    });
    expect(frameOf(MEDIA["/in/clip.mp4"]!, 0, 30)).toEqual({
      options: ["-ss", "0"],
      pre: "fps=30:start_time=0,trim=end_frame=1",
    });
  });

  it("draws nothing at or after the file's end; a still picture ignores it", () => {
    expect(overlay({ path: "/in/clip.mp4", frameTime: 4 }).out).toBeNull();
    expect(overlay({ path: "/in/clip.mp4", frameTime: 3.99 }).out).not.toBeNull();
    expect(overlay({ frameTime: 3 }).ctx.inputs).toEqual(overlay().ctx.inputs);
    expect(overlay({ frameTime: 3 }).ctx.filters).toEqual(overlay().ctx.filters);
  });

  it("plays a moving picture without frameTime: a video seeks (windows), an animated picture does not", () => {
    expect([PHOTO, LOGO, MEDIA["/in/steps.gif"]!, MEDIA["/in/clip.mp4"]!].map(isAnimated)).toEqual([
      false,
      false,
      true,
      true,
    ]);
    const gif = compileOne(
      { type: "image-overlay", path: "/in/steps.gif" },
      { media: MEDIA, duration: 4, range: { from: 50, to: 100 } },
    );
    expect(gif.ctx.inputs[0]!.slice(0, 2)).toEqual(["-ss", "0"]);
    const video = compileOne(
      { type: "image-overlay", path: "/in/clip.mp4" },
      { media: MEDIA, duration: 4, range: { from: 50, to: 100 } },
    );
    expect(video.ctx.inputs[0]!.slice(0, 2)).toEqual(["-ss", "2"]);
  });
});
