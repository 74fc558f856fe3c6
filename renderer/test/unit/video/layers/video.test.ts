/**
 * `video` layers (video.ts): the segment cut from the file (and stretched to the layer when `cutTo` is given), its
 * frames taken on the layer's frame grid, resized into its box (contain-blur by default), placed, zoomed or panned,
 * held on its last frame when it runs short, and its sound when the job keeps source audio. A window of the timeline
 * starting inside the layer seeks into the file instead of decoding what it does not draw, and must still draw the
 * frames the whole render draws there, the held last frame included.
 */
import { describe, expect, it } from "vitest";
import { videoSegment } from "../../../../src/video/layers/video.ts";
import type { LayerOf } from "../../../../src/video/types.ts";
import { compileOne, probed } from "../../../helpers/graph-spec.ts";

const MEDIA = {
  "/in/clip.mp4": probed(),
  "/in/four3.mp4": probed({ width: 640, height: 480 }),
  "/in/alpha.webm": probed({ hasAlpha: true, videoCodec: "vp9", demuxer: "matroska,webm" }),
  "/in/alpha8.webm": probed({ hasAlpha: true, videoCodec: "vp8", demuxer: "matroska,webm" }),
  "/in/opaque.webm": probed({ videoCodec: "vp9", demuxer: "matroska,webm" }),
  "/in/song.mp4": probed({ width: 0, height: 0, hasVideo: false, videoCodec: null }),
};
const KEEP = { keepSourceAudio: true };
const video = (extra: Record<string, unknown> = {}, options: Parameters<typeof compileOne>[1] = {}) =>
  compileOne({ type: "video", path: "/in/clip.mp4", ...extra }, { media: MEDIA, ...options });
/** The value after `flag` in an input's options. */
const option = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

describe("videoSegment", () => {
  const layer = (extra: Partial<LayerOf<"video">> = {}) =>
    ({ type: "video", path: "/in/clip.mp4", ...extra }) as LayerOf<"video">;

  it("plays from cutFrom at 1x, as much of the file as the layer lasts", () => {
    expect(videoSegment(layer(), 4, 1)).toEqual({ cutFrom: 0, length: 1, speed: 1, loop: false });
    expect(videoSegment(layer({ cutFrom: 3.5 }), 4, 2)).toEqual({
      cutFrom: 3.5,
      length: 0.5,
      speed: 1,
      loop: false,
    });
  });

  it("stretches an explicit cutFrom..cutTo to the layer's length", () => {
    expect(videoSegment(layer({ cutFrom: 1, cutTo: 3 }), 4, 1)).toEqual({
      cutFrom: 1,
      length: 2,
      speed: 2,
      loop: false,
    });
    expect(videoSegment(layer({ cutFrom: 1, cutTo: 1.5 }), 4, 2)).toEqual({
      cutFrom: 1,
      length: 0.5,
      speed: 0.25,
      loop: false,
    });
    // A cut of the layer's own length plays at 1x.
    expect(videoSegment(layer({ cutFrom: 1, cutTo: 2 }), 4, 1)).toEqual({
      cutFrom: 1,
      length: 1,
      speed: 1,
      loop: false,
    });
  });

  it("cuts a file of unknown length (0: no duration in its header) where asked, and stretches only an explicit cut", () => {
    expect(videoSegment(layer({ cutFrom: 1 }), 0, 2)).toEqual({
      cutFrom: 1,
      length: 2,
      speed: 1,
      loop: false,
    });
    expect(videoSegment(layer({ cutFrom: 1, cutTo: 2 }), 0, 2)).toEqual({
      cutFrom: 1,
      length: 1,
      speed: 0.5,
      loop: false,
    });
    expect(videoSegment(layer(), 0, 3)).toEqual({ cutFrom: 0, length: 3, speed: 1, loop: false });
  });

  it("keeps the cut inside the file", () => {
    expect(videoSegment(layer({ cutFrom: 9 }), 4, 1).cutFrom).toBeCloseTo(3.99, 9);
    expect(videoSegment(layer({ cutFrom: 3, cutTo: 9 }), 4, 1)).toEqual({
      cutFrom: 3,
      length: 1,
      speed: 1,
      loop: false,
    });
  });
});

describe("video", () => {
  it("seeks to the cut, reads one frame past the layer, takes its frames on the layer's grid and contains-blurs it", () => {
    const { ctx, out } = video({ resizeMode: "stretch" });
    expect(ctx.inputs).toEqual([
      ["-ss", "0", "-t", "1.04", "-f", "mov", "-protocol_whitelist", "file", "-i", "/in/clip.mp4"],
    ]);
    expect(ctx.filters).toEqual([
      "[0:v]setpts=PTS/1+0/TB,fps=25:start_time=0,scale=320:180,setsar=1[rs0]",
      "[rs0]format=yuv420p,tpad=stop_mode=clone:stop=-1,trim=end_frame=25,settb=1/25,setpts=N+0[vid1]",
    ]);
    expect(out).toEqual({ label: "vid1", x: 0, y: 0, w: 320, h: 180, coversFrame: true });
    // Without resizeMode: contain-blur (the file is 16:9 like the frame, so it is stretched; a square one is not).
    const square = compileOne(
      { type: "video", path: "/in/clip.mp4" },
      { media: { "/in/clip.mp4": probed({ width: 300, height: 300 }) } },
    );
    expect(square.ctx.filters[0]).toMatch(
      /^\[0:v\]setpts=PTS\/1\+0\/TB,fps=25:start_time=0,split\[cbA1\]\[cbB2\]$/,
    );
  });

  it("plays a cut stretched to the layer at its speed, and its sound with atempo when the job keeps it", () => {
    const { ctx } = video({ cutFrom: 1, cutTo: 3, mixVolume: 0.5 }, { config: KEEP });
    expect(ctx.inputs[0]!.slice(0, 4)).toEqual(["-ss", "1", "-t", "2.04"]);
    expect(ctx.filters[0]).toMatch(/^\[0:v\]setpts=PTS\/2\+0\/TB,fps=25:start_time=0,/);
    expect(ctx.filters.at(-1)).toBe("[0:a]asetpts=PTS-STARTPTS,atempo=2,volume=0.5[va2]");
    expect(ctx.clipAudio).toEqual([{ label: "va2", offset: 0, duration: 1 }]);
  });

  it("adds no sound unless the job keeps source audio, the file has some and atempo can play it (0.5-100x)", () => {
    expect(video().ctx.filters.some((c) => c.includes("[0:a]"))).toBe(false);
    const silent = compileOne(
      { type: "video", path: "/in/clip.mp4" },
      { media: { "/in/clip.mp4": probed({ hasAudio: false }) }, config: KEEP },
    );
    expect(silent.ctx.clipAudio).toEqual([]);
    // A quarter speed (0.5 s of file over 2 s) is drawn, its sound dropped.
    const slow = video({ cutFrom: 1, cutTo: 1.5 }, { config: KEEP, duration: 2 });
    expect(slow.ctx.filters.at(-1)).toMatch(/tpad=stop_mode=clone/);
    expect(slow.ctx.clipAudio).toEqual([]);
  });

  it("holds the last frame when the file runs out before the layer ends", () => {
    const { ctx } = video({ cutFrom: 3.5 }, { duration: 2 });
    expect(ctx.inputs[0]!.slice(0, 4)).toEqual(["-ss", "3.5", "-t", "0.54"]);
    expect(ctx.filters.at(-1)).toContain("tpad=stop_mode=clone:stop=-1,trim=end_frame=50,");
  });

  it("plays a file of unknown length from its cut, and a window of it decodes from the cut (no end to stay clear of)", () => {
    const media = { "/in/recorded.webm": probed({ duration: 0, videoCodec: "vp8", demuxer: "matroska" }) };
    const whole = compileOne(
      { type: "video", path: "/in/recorded.webm", cutFrom: 1 },
      { media, duration: 2 },
    );
    expect(whole.ctx.inputs[0]!.slice(0, 4)).toEqual(["-ss", "1", "-t", "2.04"]);
    const window = compileOne(
      { type: "video", path: "/in/recorded.webm", cutFrom: 1 },
      { media, duration: 2, range: { from: 30, to: 40 } },
    );
    expect(window.ctx.inputs[0]!.slice(0, 4)).toEqual(["-ss", "1", "-t", "2.04"]);
    expect(window.ctx.filters.at(-1)).toContain("trim=start_frame=30:end_frame=40,");
  });

  it("draws nothing for a file without a picture, or a cut at or past the file's end", () => {
    expect(compileOne({ type: "video", path: "/in/song.mp4" }, { media: MEDIA }).out).toBeNull();
    const past = video({ cutFrom: 4 });
    expect([past.out, past.ctx.inputs]).toEqual([null, []]);
  });

  it("places a box smaller than the frame by position, or by editly's left/top and origin", () => {
    const pip = video({
      path: "/in/four3.mp4",
      width: 0.5,
      height: 0.5,
      position: "bottom-right",
      resizeMode: "cover",
    });
    expect(pip.out).toEqual({ label: "vid1", x: 144, y: 81, w: 160, h: 90, coversFrame: false });
    expect(pip.ctx.filters[0]).toContain("scale=160:90:force_original_aspect_ratio=increase,crop=160:90,");
    const editly = video({
      width: 0.5,
      height: 0.5,
      left: 0.5,
      top: 0.5,
      originX: "center",
      originY: "center",
    });
    expect(editly.out).toMatchObject({ x: 80, y: 45 });
  });

  it("decodes VP8 and VP9 with alpha by libvpx (ffmpeg's own decoders drop it), and keeps the alpha", () => {
    const vp9 = compileOne({ type: "video", path: "/in/alpha.webm" }, { media: MEDIA });
    expect(vp9.ctx.inputs[0]!.slice(0, 2)).toEqual(["-c:v", "libvpx-vp9"]);
    expect(vp9.ctx.filters.at(-1)).toMatch(/^\[rs0\]format=yuva420p,/);
    expect(vp9.out?.coversFrame).toBe(false);
    const vp8 = compileOne({ type: "video", path: "/in/alpha8.webm" }, { media: MEDIA });
    expect(vp8.ctx.inputs[0]!.slice(0, 2)).toEqual(["-c:v", "libvpx"]);
    const opaque = compileOne({ type: "video", path: "/in/opaque.webm" }, { media: MEDIA });
    expect(opaque.ctx.inputs[0]![0]).toBe("-ss");
  });

  it("zooms a moving picture frame by frame (zoompan d=1) and pans it with a crop of one resize", () => {
    const zoom = video({ zoomDirection: "in", resizeMode: "stretch" });
    expect(zoom.ctx.filters.at(-1)).toBe(
      "[rs0]format=yuv420p,zoompan=z='1+0.1*((in+0)/24)':x='(iw-iw/zoom)/2':y='(ih-ih/zoom)/2':d=1:s=320x180:fps=25,tpad=stop_mode=clone:stop=-1,trim=end_frame=25,settb=1/25,setpts=N+0[vid1]",
    );
    const pan = video({ path: "/in/four3.mp4", zoomDirection: "right", resizeMode: "cover" });
    expect(pan.ctx.filters[0]).toContain("scale=352:198:force_original_aspect_ratio=increase,crop=352:198,");
    expect(pan.ctx.filters.at(-1)).toContain(",crop=320:180:x='floor(32*(1-(n+0)/24)+0.5)':y='9':exact=1,");
  });
});

describe("video in a window of the timeline", () => {
  it("seeks past the frames it skips and takes the same frames of the file the whole render takes there", () => {
    // The cut 1-3 s plays at 2x over the 1 s layer; the window starts at frame 10: 0.4 s in, 0.8 s into the cut.
    const { ctx } = video({ cutFrom: 1, cutTo: 3 }, { range: { from: 10, to: 20 } });
    expect(ctx.inputs[0]!.slice(0, 4)).toEqual(["-ss", "1.8", "-t", "1.24"]);
    expect(ctx.filters[0]).toMatch(/^\[0:v\]setpts=PTS\/2\+0\.4\/TB,fps=25:start_time=0\.4,/);
    expect(ctx.filters.at(-1)).toMatch(/,trim=end_frame=10,settb=1\/25,setpts=N\+10\[vid1\]$/);
    // A window makes no sound (its sound is the whole mix, cut: window-mix.ts).
    expect(ctx.clipAudio).toEqual([]);
  });

  it("counts a zoom and a pan from the layer's frame the window starts at", () => {
    const zoom = video({ zoomDirection: "out", resizeMode: "cover" }, { range: { from: 5, to: 25 } });
    expect(zoom.ctx.filters.at(-1)).toContain("zoompan=z='1+0.1*(1-((in+5)/24))':");
    const pan = video({ zoomDirection: "up", resizeMode: "cover" }, { range: { from: 5, to: 25 } });
    expect(pan.ctx.filters.at(-1)).toContain("crop=320:180:x='16':y='floor(18*(n+5)/24+0.5)':exact=1,");
  });

  it("still decodes the file's last frames when it starts where the whole render holds the last frame", () => {
    // 0.5 s of file (3.5-4 s) over a 2 s layer: the whole render holds its last frame from about frame 12 on. A
    // window from frame 30 must show that frame: a seek to 3.5 + 1.2 s would find no frame at all.
    const { ctx } = video({ cutFrom: 3.5 }, { duration: 2, range: { from: 30, to: 40 } });
    const seek = Number(option(ctx.inputs[0]!, "-ss"));
    const read = Number(option(ctx.inputs[0]!, "-t"));
    // From a second before the file's end (here the cut itself: it starts later than that), to the end.
    expect(seek).toBe(3.5);
    expect(seek + read).toBeGreaterThanOrEqual(4);
    // Decoded from the frame the seek lands on, on the layer's grid, then cut to the window's frames.
    const lead = Math.round((seek - 3.5) * 25);
    expect(ctx.filters[0]).toContain(`fps=25:start_time=${lead / 25}`);
    expect(ctx.filters.at(-1)).toContain(
      `tpad=stop_mode=clone:stop=-1,trim=start_frame=${30 - lead}:end_frame=${40 - lead},settb=1/25,setpts=N+30[vid1]`,
    );
    // 3 s of file over a 4 s layer, the window from 3.6 s: decoded from a second before the file's end (frame 50).
    const long = video({ cutFrom: 1 }, { duration: 4, range: { from: 90, to: 100 } });
    expect(long.ctx.inputs[0]!.slice(0, 4)).toEqual(["-ss", "3", "-t", "1.04"]);
    expect(long.ctx.filters[0]).toContain("setpts=PTS/1+2/TB,fps=25:start_time=2,");
    expect(long.ctx.filters.at(-1)).toContain(
      "trim=start_frame=40:end_frame=50,settb=1/25,setpts=N+90[vid1]",
    );
  });
});
