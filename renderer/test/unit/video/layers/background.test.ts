/**
 * The full-frame backgrounds (background.ts): fill-color and pause, linear-gradient, radial-gradient, rainbow-colors.
 * Each is drawn once and looped (or zoomed, or turned) per frame; the chains are the contract with ffmpeg, so they
 * are asserted whole. A window of the timeline that starts inside the layer (`range`) draws the frames it skips to,
 * at the times the whole render draws them: same picture, same angle, same zoom.
 */
import { describe, expect, it } from "vitest";
import { compileOne } from "../../../helpers/graph-spec.ts";

/** 320x180 at 25 fps: one 1 s clip is 25 frames. */
const TAIL = "settb=1/25,setpts=N+0";

describe("fill-color and pause", () => {
  it("draws one frame of the colour and loops it over the layer, opaque in yuv420p, covering the frame", () => {
    const { ctx, out } = compileOne({ type: "fill-color", color: "#336699" });
    expect(ctx.filters).toEqual([
      `color=c=0x336699:s=320x180:r=25,trim=end_frame=1,format=yuv420p,loop=loop=24:size=1,${TAIL}[fill0]`,
    ]);
    expect(ctx.inputs).toEqual([]);
    expect(out).toEqual({ label: "fill0", x: 0, y: 0, coversFrame: true });
  });

  it("keeps a translucent colour's alpha (yuva420p) and then covers nothing", () => {
    const { ctx, out } = compileOne({ type: "fill-color", color: "rgba(255, 0, 0, 0.5)" });
    expect(ctx.filters[0]).toBe(
      `color=c=0xff0000@0.500:s=320x180:r=25,trim=end_frame=1,format=yuva420p,loop=loop=24:size=1,${TAIL}[fill0]`,
    );
    expect(out?.coversFrame).toBe(false);
  });

  it("fills a pause black, and a fill-color without a colour with one of editly's palette seeded by the job", () => {
    expect(compileOne({ type: "pause" }).ctx.filters[0]).toMatch(/^color=c=black:/);
    const seeded = compileOne({ type: "fill-color" }).ctx.filters[0]!;
    expect(seeded).toMatch(/^color=c=0x[0-9a-f]{6}:s=320x180:r=25,/);
    // The same job and layer give the same colour every time (a chunk draws what the whole render draws).
    expect(compileOne({ type: "fill-color" }).ctx.filters[0]).toBe(seeded);
  });

  it("in a window, loops only the frames drawn and stamps them with the layer's frame numbers", () => {
    // The layer starts at 0.2 s (frame 5); the window draws clip frames 10-19: layer frames 5-14.
    const { ctx, win } = compileOne({ type: "pause", start: 0.2 }, { range: { from: 10, to: 20 } });
    expect(win).toMatchObject({ startFrame: 5, skip: 5, drawn: 10 });
    expect(ctx.filters[0]).toBe(
      "color=c=black:s=320x180:r=25,trim=end_frame=1,format=yuv420p,loop=loop=9:size=1,settb=1/25,setpts=N+10[fill0]",
    );
  });
});

describe("linear-gradient", () => {
  const turn = "rotate=a='(t-0)/1*PI/6':ow=320:oh=180:c=none";
  const chain = (ramp: string, format = "yuv420p") =>
    `gradients=s=640x360:r=25:c0=0xff0000:c1=0x0000ff:n=2:${ramp}:speed=0.00001,trim=end_frame=1,format=${format},loop=loop=24:size=1,${TAIL},${turn}[lgrad0]`;

  it("draws editly's ramp (corner to centre of a picture twice the frame) once and turns it 30 degrees over the layer", () => {
    const { ctx, out } = compileOne({ type: "linear-gradient", colors: ["red", "blue"] });
    expect(ctx.filters).toEqual([chain("x0=0:y0=0:x1=320:y1=180")]);
    expect(out).toEqual({ label: "lgrad0", x: 0, y: 0, coversFrame: true });
  });

  it("spans the frame across, down or corner to corner for each direction", () => {
    const ramp = (direction: string) =>
      compileOne({ type: "linear-gradient", colors: ["red", "blue"], direction }).ctx.filters[0];
    expect(ramp("horizontal")).toBe(chain("x0=160:y0=180:x1=479:y1=180"));
    expect(ramp("vertical")).toBe(chain("x0=320:y0=90:x1=320:y1=269"));
    expect(ramp("diagonal")).toBe(chain("x0=160:y0=90:x1=479:y1=269"));
  });

  it("keeps alpha when a colour is translucent, and covers nothing then", () => {
    const { ctx, out } = compileOne({ type: "linear-gradient", colors: ["red", "#0000ff80"] });
    expect(ctx.filters[0]).toContain(":c0=0xff0000:c1=0x0000ff@0.502:n=2:");
    expect(ctx.filters[0]).toContain("format=yuva420p,");
    expect(out?.coversFrame).toBe(false);
  });

  it("takes eight colours evenly from a longer list (ffmpeg's gradients has c0..c7)", () => {
    const colors = Array.from({ length: 10 }, (_, i) => `#0000${(i + 1).toString(16).padStart(2, "0")}`);
    const { ctx } = compileOne({ type: "linear-gradient", colors });
    expect(ctx.filters[0]).toContain(
      ":c0=0x000001:c1=0x000002:c2=0x000004:c3=0x000005:c4=0x000006:c5=0x000007:c6=0x000009:c7=0x00000a:n=8:",
    );
  });

  it("picks two seeded colours when given fewer than two", () => {
    const none = compileOne({ type: "linear-gradient" }).ctx.filters[0]!;
    expect(none).toMatch(/:c0=0x[0-9a-f]{6}:c1=0x[0-9a-f]{6}:n=2:/);
  });

  it("in a window, turns each frame by the angle of its time in the layer", () => {
    // A 2 s clip; the layer from 0.5 s (frame 13, 0.52 s: frames are whole) to the end; the window from frame 20.
    const { ctx, win } = compileOne(
      { type: "linear-gradient", colors: ["red", "blue"], start: 0.5 },
      { duration: 2, range: { from: 20, to: 50 } },
    );
    expect(win).toMatchObject({ startFrame: 13, frames: 37, skip: 7, drawn: 30 });
    expect(ctx.filters[0]).toMatch(
      /loop=loop=29:size=1,settb=1\/25,setpts=N\+20,rotate=a='\(t-0\.52\)\/1\.48\*PI\/6':ow=320:oh=180:c=none\[lgrad0\]$/,
    );
  });
});

describe("radial-gradient", () => {
  it("draws the still at the corner's distance and zooms it from editly's 0.6 to 1.2 of the longer side", () => {
    const { ctx, out } = compileOne({ type: "radial-gradient", colors: ["red", "blue", "green"] });
    // 0.6 x 320 over the distance from the centre (160, 90) to the corner pixel (319, 179): 1.053705.
    expect(ctx.filters).toEqual([
      "gradients=s=320x180:r=25:c0=0xff0000:c1=0x0000ff:c2=0x008000:n=3:type=radial:x0=160:y0=90:x1=319:y1=179:speed=0.00001,trim=end_frame=1,format=yuv420p,zoompan=z='1.053705*(1+(on+0)/25)':x='(iw-iw/zoom)/2':y='(ih-ih/zoom)/2':d=25:s=320x180:fps=25,settb=1/25,setpts=N+0[rgrad0]",
    ]);
    expect(out?.coversFrame).toBe(true);
  });

  it("in a window, counts the zoom from the layer's frame the window starts at", () => {
    const { ctx } = compileOne(
      { type: "radial-gradient", colors: ["red", "blue"] },
      { range: { from: 5, to: 25 } },
    );
    expect(ctx.filters[0]).toContain("zoompan=z='1.053705*(1+(on+5)/25)':");
    expect(ctx.filters[0]).toMatch(/:d=20:s=320x180:fps=25,settb=1\/25,setpts=N\+5\[rgrad0\]$/);
  });
});

describe("rainbow-colors", () => {
  it("draws seven colours on a square as wide as the frame's diagonal, turned 0.02 rad a frame", () => {
    const { ctx, out } = compileOne({ type: "rainbow-colors" });
    // The diagonal of 320x180 is 367.2 px: a 370 px square (even, plus a pixel each side).
    expect(ctx.filters).toEqual([
      `gradients=s=370x370:r=25:c0=red:c1=orange:c2=yellow:c3=green:c4=blue:c5=indigo:c6=violet:n=7:x0=25:y0=95:x1=345:y1=275:speed=0.00001,trim=end_frame=1,format=yuv420p,loop=loop=24:size=1,${TAIL},rotate=a='(t-0)*0.5':ow=320:oh=180[rainbow0]`,
    ]);
    expect(out?.coversFrame).toBe(true);
  });

  it("in a window, turns from the layer's own start, not the window's", () => {
    const { ctx } = compileOne({ type: "rainbow-colors", start: 0.4 }, { range: { from: 15, to: 25 } });
    expect(ctx.filters[0]).toMatch(/loop=loop=9:size=1,settb=1\/25,setpts=N\+15,rotate=a='\(t-0\.4\)\*0\.5'/);
  });
});
