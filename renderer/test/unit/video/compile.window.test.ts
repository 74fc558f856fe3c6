/**
 * Frame-addressable rendering's pure parts (issue 41): which frames a window composes (whole transitions), the
 * window of a chunk, a still and a preview, and what a window's graph holds: the clips and layers it reaches, each
 * from its frame at the window's start, inputs seeked, no sound. Frames compared with the single render's:
 * renderer/test/video/render-windows.test.ts.
 */
import { describe, expect, it } from "vitest";
import { buildTimeline } from "@media-render/contract/timeline";
import { chunkWindows, composedRange } from "@media-render/contract/windows";
import { compileGraph, layerWindow } from "../../../src/video/compile.ts";
import { videoSpec } from "../../../src/video/spec.ts";
import { outputTarget, renderWindow } from "../../../src/video/outputs/target.ts";
import type { MediaInfo } from "../../../src/video/types.ts";
import { withWindowMix } from "../../../src/video/window-mix.ts";
import { videoConfig } from "../../helpers/video-config.ts";

const CLIP: MediaInfo = {
  ...{ width: 600, height: 338, duration: 34.91, hasVideo: true, hasAudio: true, hasAlpha: false },
  ...{ rotation: 0, videoCodec: "hevc", orientation: 1, demuxer: "mov" },
};
const PHOTO: MediaInfo = {
  ...CLIP,
  width: 4000,
  height: 3000,
  duration: 0,
  hasAudio: false,
  videoCodec: "mjpeg",
  demuxer: "image2",
};
const MEDIA = new Map([
  ["/in/clip.mp4", CLIP],
  ["/in/photo.jpg", PHOTO],
]);

/** Three 2 s clips at 10 fps, 0.5 s fades: clips start at frames 0, 15, 30; 55 frames in all. */
const config = videoConfig({
  width: 64,
  height: 36,
  fps: 10,
  keepSourceAudio: true,
  defaults: { transition: { name: "fade", duration: 0.5 } },
  clips: [
    { duration: 2, layers: [{ type: "image", path: "/in/photo.jpg" }] },
    { duration: 2, layers: [{ type: "video", path: "/in/clip.mp4", cutFrom: 3 }] },
    { duration: 2, layers: [{ type: "fill-color", color: "#336699" }] },
  ],
});
const spec = videoSpec(config);
const timeline = buildTimeline(spec);
const graphOf = (window?: { start: number; end: number }) =>
  compileGraph({ spec, timeline, jobId: "job", media: MEDIA, rasters: new Map(), window });

describe("composedRange: a window composes whole transitions", () => {
  it("keeps a window that starts and ends outside transitions, and widens one inside a transition to all of it", () => {
    expect(timeline.totalFrames).toBe(50);
    expect(composedRange(timeline)).toEqual({ from: 0, to: 50 });
    expect(composedRange(timeline, { start: 5, end: 12 })).toEqual({ from: 5, to: 12 });
    // Frame 17 is inside the fade from clip 0 into clip 1 (frames 15-19): composed from 15.
    expect(composedRange(timeline, { start: 17, end: 25 })).toEqual({ from: 15, to: 25 });
    // Ending at 32, inside the second fade (30-34): composed to 35.
    expect(composedRange(timeline, { start: 22, end: 32 })).toEqual({ from: 22, to: 35 });
  });
});

describe("layerWindow: the frames of a layer a window draws", () => {
  it("skips the layer's frames before the window and draws the rest of it inside", () => {
    const layer = { type: "fill-color", start: 0.5, stop: 1.5 } as const;
    expect(layerWindow(layer, 20, 10)).toMatchObject({ startFrame: 5, frames: 10, skip: 0, drawn: 10 });
    expect(layerWindow(layer, 20, 10, { from: 8, to: 20 })).toMatchObject({
      startFrame: 5,
      skip: 3,
      drawn: 7,
    });
    expect(layerWindow(layer, 20, 10, { from: 8, to: 11 })).toMatchObject({ skip: 3, drawn: 3 });
    expect(layerWindow(layer, 20, 10, { from: 15, to: 20 })).toBeNull();
  });
});

describe("renderWindow: the frames a chunk, a still and a preview draw", () => {
  const target = (extra: Record<string, unknown>) => outputTarget(videoConfig({ ...config, ...extra }));
  it("a still draws the frame shown at its time, a preview the frames shown in its range, a whole render all", () => {
    expect(renderWindow(target({}), timeline)).toBeUndefined();
    expect(renderWindow(target({ still: { time: 2.3 } }), timeline)).toEqual({ start: 23, end: 24 });
    expect(renderWindow(target({ still: { time: 0.3 } }), timeline)).toEqual({ start: 3, end: 4 });
    expect(renderWindow(target({ still: { time: 4.999 } }), timeline)).toEqual({ start: 49, end: 50 });
    expect(renderWindow(target({ preview: { from: 1.05, to: 3 } }), timeline)).toEqual({
      start: 11,
      end: 30,
    });
    expect(renderWindow(target({ preview: { from: 0, to: 99 } }), timeline)).toBeUndefined();
    const part = { part: { index: 1, count: 2 }, config: videoConfig(config) };
    // A chunk's window is the contract's balanced one: the photo and video clips weigh more than the colour, so the
    // second half of the work starts before the middle frame.
    const chunk = renderWindow(target({}), timeline, part);
    expect(chunk).toEqual(chunkWindows(config, timeline, 2)[1]);
    expect(chunk!.start).toBeLessThan(timeline.totalFrames / 2);
    expect(chunk!.end).toBe(timeline.totalFrames);
  });
});

describe("a window's graph: only what it draws", () => {
  it("leaves out the clips before and after the window, and every audio chain", () => {
    const graph = graphOf({ start: 36, end: 50 });
    expect(graph.inputs).toEqual([]); // only clip 2 (a colour) is reached
    expect(graph.filterGraph).not.toMatch(/aout|anullsrc|\[\d+:a\]/);
    expect(graph.filterGraph).toMatch(/color=c=0x336699[^\n]*loop=loop=13:size=1,settb=1\/10,setpts=N\+6\[/);
    expect(graph.filterGraph).toMatch(/trim=start_frame=0:end_frame=14|trim=end_frame=14/);
  });

  it("seeks a video into its cut by the frames it skips, and picks its frames on the whole render's grid", () => {
    const whole = graphOf().filterGraph;
    expect(whole).toMatch(/setpts=PTS\/1\+0\/TB,fps=10:start_time=0/);
    const graph = graphOf({ start: 22, end: 28 });
    // Clip 1 starts at frame 15: 7 frames in, 0.7 s into its cut at 3 s.
    const video = graph.inputs.find((args) => args.at(-1) === "/in/clip.mp4")!;
    expect(video.slice(video.indexOf("-ss"), video.indexOf("-ss") + 2)).toEqual(["-ss", "3.7"]);
    expect(graph.filterGraph).toMatch(/setpts=PTS\/1\+0\.7\/TB,fps=10:start_time=0\.7/);
    expect(graph.inputs.some((args) => args.at(-1) === "/in/photo.jpg")).toBe(false);
  });

  it("starts a Ken Burns zoom at the frame the window starts at", () => {
    const zoom = /zoompan=z='([^']*)'[^\n]*?:d=(\d+):/.exec(graphOf({ start: 4, end: 10 }).filterGraph)!;
    expect([zoom[1], zoom[2]]).toEqual(["1+0.1*((on+4)/19)", "6"]);
  });

  it("a preview's range keeps the whole mix, cut to its seconds", () => {
    const window = { start: 22, end: 28 };
    const merged = withWindowMix(graphOf(window), graphOf(), window, 10);
    expect(merged.filterGraph).toMatch(
      /\[wholeaout\]atrim=start=2\.2:end=2\.8,asetpts=PTS-STARTPTS\[aout\]$/,
    );
    // The mix's inputs follow the picture's and its references moved with them.
    const video = merged.inputs.filter((args) => args.at(-1) === "/in/clip.mp4");
    expect(video).toHaveLength(2);
    for (const [, n] of merged.filterGraph.matchAll(/\[(\d+):[av]\]/g))
      expect(Number(n)).toBeLessThan(merged.inputs.length);
  });
});
