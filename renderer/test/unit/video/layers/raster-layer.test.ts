/**
 * Rasterised layers (raster-layer.ts): text drawn on one sheet of PNG (cut out of it by a crop), a word-by-word
 * title's states shown one after another, an html page's frames from an image sequence or a pipe. The still sheet is
 * opened once however many layers it holds. A window of the timeline shows the state (or captured frame) the whole
 * render shows at each of its frames.
 */
import { describe, expect, it } from "vitest";
import { inPlace } from "../../../../src/video/layers/raster-layer.ts";
import type { Layer, RasterAsset, RasterFrame } from "../../../../src/video/types.ts";
import { compileOne } from "../../../helpers/graph-spec.ts";

/** A 100 x 40 box at (10, 20), the `n`th on the text sheet read from stdin. */
const onSheet = (n: number): RasterFrame => ({
  path: "pipe:0",
  crop: { x: 0, y: 40 * n },
  x: 10,
  y: 20,
  width: 100,
  height: 40,
});
const still: RasterAsset = { frames: [onSheet(1)], times: [0] };
/** Three states shown from 0, 0.2 and 0.4 s: frames 0, 5 and 10 at 25 fps. */
const states: RasterAsset = { frames: [onSheet(0), onSheet(1), onSheet(2)], times: [0, 0.2, 0.4] };
const wordByWord = { type: "title", text: "one two three", style: "word-by-word" };
const STDIN = ["-f", "png_pipe", "-protocol_whitelist", "pipe", "-i", "pipe:0"];

describe("a still rasterised layer", () => {
  it("crops its box out of the sheet and loops it, placed where the sheet drew it", () => {
    const { ctx, out } = compileOne(wordByWord, { rasters: { c0l0: still } });
    expect(ctx.inputs).toEqual([STDIN]);
    expect(ctx.filters).toEqual([
      "[0:v]crop=100:40:0:40,format=yuva420p,loop=loop=24:size=1,settb=1/25,setpts=N+0[txt0]",
    ]);
    expect(out).toEqual({ label: "txt0", x: 10, y: 20, w: 100, h: 40, coversFrame: false });
  });

  it("scales a frame captured larger than it is drawn (a preview's html page) and reads a file as PNG only", () => {
    const page: RasterFrame = { path: "/w/page.png", resize: true, x: 0, y: 0, width: 160, height: 90 };
    const { ctx } = compileOne(
      { type: "html", html: "<p>x</p>" },
      { rasters: { c0l0: { frames: [page], times: [0] } } },
    );
    expect(ctx.inputs).toEqual([["-f", "png_pipe", "-protocol_whitelist", "file", "-i", "/w/page.png"]]);
    expect(ctx.filters[0]).toBe(
      "[0:v]scale=160:90,format=yuva420p,loop=loop=24:size=1,settb=1/25,setpts=N+0[txt0]",
    );
  });

  it("draws nothing when the rasteriser drew nothing for it", () => {
    const { ctx, out } = compileOne(wordByWord);
    expect([out, ctx.inputs, ctx.filters]).toEqual([null, [], []]);
  });
});

describe("states shown one after another (word by word, letter by letter)", () => {
  it("loops each state over its frames and joins them, all from the one sheet", () => {
    const { ctx } = compileOne(wordByWord, { rasters: { c0l0: states } });
    expect(ctx.inputs).toEqual([STDIN]);
    expect(ctx.filters).toEqual([
      "[0:v]crop=100:40:0:0,format=yuva420p,loop=loop=4:size=1,setpts=N[st1]",
      "[0:v]crop=100:40:0:40,format=yuva420p,loop=loop=4:size=1,setpts=N[st2]",
      "[0:v]crop=100:40:0:80,format=yuva420p,loop=loop=14:size=1,setpts=N[st3]",
      "[st1][st2][st3]concat=n=3:v=1:a=0,settb=1/25,setpts=N+0[txt0]",
    ]);
  });

  it("in a window, shows only the states of its frames, each for its part of them", () => {
    // Frames 7-11: the second state's last three (7-9), the third's first two (10-11).
    const { ctx } = compileOne(wordByWord, { rasters: { c0l0: states }, range: { from: 7, to: 12 } });
    expect(ctx.filters).toEqual([
      "[0:v]crop=100:40:0:40,format=yuva420p,loop=loop=2:size=1,setpts=N[st1]",
      "[0:v]crop=100:40:0:80,format=yuva420p,loop=loop=1:size=1,setpts=N[st2]",
      "[st1][st2]concat=n=2:v=1:a=0,settb=1/25,setpts=N+7[txt0]",
    ]);
    // From frame 15 on only the last state is shown.
    const late = compileOne(wordByWord, { rasters: { c0l0: states }, range: { from: 15, to: 25 } });
    expect(late.ctx.filters).toEqual([
      "[0:v]crop=100:40:0:80,format=yuva420p,loop=loop=9:size=1,setpts=N[st1]",
      "[st1]concat=n=1:v=1:a=0,settb=1/25,setpts=N+15[txt0]",
    ]);
  });

  it("draws nothing when every state lies past the layer", () => {
    const after: RasterAsset = { frames: [onSheet(0), onSheet(1)], times: [2, 3] };
    expect(compileOne(wordByWord, { rasters: { c0l0: after } }).out).toBeNull();
  });
});

describe("an animated html layer's frames", () => {
  const html = { type: "html", html: "<p>x</p>", animated: true, duration: 1 };
  const first: RasterFrame = { path: "/w/h-00000.png", x: 0, y: 0, width: 160, height: 90 };

  it("reads a captured image sequence at the frame rate, holding its last frame to the layer's end", () => {
    const { ctx } = compileOne(html, {
      rasters: { c0l0: { frames: [first], times: [0], sequencePattern: "/w/h-%05d.png" } },
    });
    expect(ctx.inputs).toEqual([
      [
        "-framerate",
        "25",
        "-start_number",
        "0",
        "-f",
        "image2",
        "-protocol_whitelist",
        "file",
        "-i",
        "/w/h-%05d.png",
      ],
    ]);
    expect(ctx.filters).toEqual([
      "[0:v]format=yuva420p,tpad=stop_mode=clone:stop=-1,trim=end_frame=25,settb=1/25,setpts=N+0[txt0]",
    ]);
  });

  it("reads frames streamed while they are captured from a pipe that cannot be replayed", () => {
    const { ctx } = compileOne(html, {
      rasters: { c0l0: { frames: [first], times: [0], stream: async () => {} } },
      range: { from: 10, to: 20 },
    });
    expect(ctx.inputs).toEqual([
      [
        "-framerate",
        "25",
        "-thread_queue_size",
        "64",
        "-f",
        "png_pipe",
        "-protocol_whitelist",
        "pipe",
        "-i",
        "pipe:3",
      ],
    ]);
    expect(ctx.filters).toEqual([
      "[0:v]format=yuva420p,tpad=stop_mode=clone:stop=-1,trim=end_frame=10,settb=1/25,setpts=N+10[txt0]",
    ]);
    expect(ctx.oneShotPipes).toBe(1);
  });
});

describe("the motion of each text type around the raster", () => {
  it("leaves an html page where it was captured, unmoved", () => {
    const win = { startFrame: 0, frames: 25, start: 0, duration: 1, skip: 0, drawn: 25 };
    const html = { type: "html", html: "<p>x</p>" } as Layer;
    expect(inPlace(html, win, { x: 3, y: 4, w: 10, h: 10 }, { W: 320, H: 180, fps: 25 })).toEqual({
      pre: [],
      post: [],
      x: 3,
      y: 4,
    });
  });

  it("zooms and fades a title in (zoompan before the retiming, fade after it)", () => {
    const { ctx } = compileOne({ type: "title", text: "Hi" }, { rasters: { c0l0: still } });
    expect(ctx.filters).toEqual([
      "[0:v]crop=100:40:0:40,format=yuva420p,loop=loop=24:size=1,zoompan=z='1+0.1*((in+0)/24)':x='(iw-iw/zoom)/2':y='(ih-ih/zoom)/2':d=1:s=100x40:fps=25,settb=1/25,setpts=N+0,fade=t=in:st=0:d=0.5:alpha=1[txt0]",
    ]);
  });

  it("draws title-background's title after its background, under the title's key", () => {
    const both = compileOne(
      { type: "title-background", text: "x", background: { type: "fill-color", color: "#102030" } },
      { rasters: { c0l1: still }, pick: 1 },
    );
    expect(both.layer.type).toBe("title-background");
    expect(both.out).toMatchObject({ label: "txt0", x: 10, y: 20 });
    const background = compileOne(
      { type: "title-background", text: "x", background: { type: "fill-color", color: "#102030" } },
      { rasters: { c0l1: still } },
    );
    expect(background.ctx.filters[0]).toMatch(/^color=c=0x102030:/);
  });

  it("slides a news title in from the left and a subtitle with its alpha eased, as overlay expressions", () => {
    const news = compileOne({ type: "news-title", text: "Hi" }, { rasters: { c0l0: still } });
    expect(news.out?.x).toBe(
      "10-110*(1-(if(gte(clip(((t-0)/1-0)*3,0,1),1),1,1-pow(2,-10*clip(((t-0)/1-0)*3,0,1)))))",
    );
    expect(news.ctx.filters[0]).toBe(
      "[0:v]crop=100:40:0:40,format=yuva420p,loop=loop=24:size=1,settb=1/25,setpts=N+0[txt0]",
    );
    const sub = compileOne(
      { type: "subtitle", text: "Hi" },
      { rasters: { c0l0: still }, range: { from: 5, to: 25 } },
    );
    expect(sub.ctx.filters[0]).toBe(
      "[0:v]crop=100:40:0:40,format=yuva420p,loop=loop=19:size=1,settb=1/25,setpts=N+5,settb=AVTB,setpts='(if(gte(clip(((T-0)/1-0)*1,0,1),1),1,1-pow(2,-10*clip(((T-0)/1-0)*1,0,1))))/TB',fade=t=in:st=0:d=1:alpha=1,settb=1/25,setpts=N+5[txt0]",
    );
  });
});
