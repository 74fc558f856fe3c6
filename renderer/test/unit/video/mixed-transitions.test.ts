import { describe, expect, it } from "vitest";
import { buildTimeline } from "@media-render/contract/timeline";
import { compileGraph } from "../../../src/video/compile.ts";
import { MIXERS, overlapJoin } from "../../../src/video/mixed-transitions.ts";
import type { VideoSpec } from "../../../src/video/types.ts";
import { colourClip, contextOf, specOf } from "../../helpers/graph-spec.ts";

const SPEC = specOf({ clips: [colourClip(1)] });
const mixer = (name: string) => {
  const m = MIXERS[name];
  if (!m) throw new Error(`no mixer ${name}`);
  return m;
};
/** The filter chains `name` adds to mix `[A]` and `[B]` over `frames` frames into `[M]`. */
const mixed = (name: string, frames: number, spec = SPEC): string[] => {
  const ctx = contextOf(spec);
  mixer(name)(ctx, "A", "B", frames, "M");
  return ctx.filters;
};
const graphOf = (spec: VideoSpec): string =>
  compileGraph({ spec, timeline: buildTimeline(spec), jobId: "job", media: new Map(), rasters: new Map() })
    .filterGraph;

describe("overlapJoin", () => {
  it("keeps A up to the overlap, mixes A's tail with B's head, then B's rest, in frame-number time", () => {
    const ctx = contextOf(SPEC);
    overlapJoin(ctx, "A", "B", 20, 5, "out", mixer("fade"));
    expect(ctx.filters).toEqual([
      "[A]split[ja0s][ja1s]",
      "[ja0s]trim=end_frame=20[ja0]",
      "[ja1s]trim=start_frame=20:end_frame=25,setpts=PTS-STARTPTS[ja1]",
      "[B]split[jb2s][jb3s]",
      "[jb2s]trim=end_frame=5[jb2]",
      "[jb3s]trim=start_frame=5,setpts=PTS-STARTPTS[jb3]",
      "[jb2]format=yuva420p,fade=t=in:s=0:n=5:alpha=1[fbi5]",
      "[ja1][fbi5]overlay=format=yuv420:eof_action=pass[jmix4]",
      "[ja0][jmix4][jb3]concat=n=3:v=1:a=0,settb=1/25,setpts=N[out]",
    ]);
    expect(ctx.inputs).toEqual([]);
  });
});

describe("mixers", () => {
  it("has one for fade, the four wipes, dummy, burn, colorphase and multiply_blend", () => {
    expect(Object.keys(MIXERS).sort()).toEqual(
      [
        "burn",
        "colorphase",
        "dummy",
        "fade",
        "multiply_blend",
        "wipeDown",
        "wipeLeft",
        "wipeRight",
        "wipeUp",
      ].sort(),
    );
  });

  it("dummy switches from A to B at the middle, rounding an odd overlap's middle up", () => {
    expect(mixed("dummy", 5)).toEqual([
      "[A]trim=end_frame=3[ca0]",
      "[B]trim=start_frame=3,setpts=PTS-STARTPTS[cb1]",
      "[ca0][cb1]concat=n=2:v=1:a=0[M]",
    ]);
  });

  it("dummy over a one-frame overlap shows A only, over none B only (the other stream is drained)", () => {
    expect(mixed("dummy", 1)).toEqual(["[B]nullsink;[A]null[M]"]);
    expect(mixed("dummy", 0)).toEqual(["[A]nullsink;[B]null[M]"]);
  });

  it("wipeLeft cuts B's mask at the shader's column ceil(W(1 - n/frames) - 0.5), black | white side by side", () => {
    const edge = "clip(ceil(320*(1-n/10)-0.5),0,320)";
    expect(mixed("wipeLeft", 10)).toEqual([
      "color=c=black:s=320x180:r=25,format=gray[wm0]",
      "color=c=white:s=320x180:r=25,format=gray[wm1]",
      `[wm0][wm1]hstack=inputs=2,trim=end_frame=1,lut=c0='if(gt(val,127),255,0)',loop=loop=9:size=1,settb=1/25,setpts=N,crop=320:180:x='320-(${edge})':y=0[wmask2]`,
      "[B][wmask2]alphamerge[wb3]",
      "[A][wb3]overlay=format=yuv420:eof_action=pass[M]",
    ]);
  });

  it("wipeDown stacks white over black and moves the crop down the frame's height", () => {
    const edge = "clip(floor(180*n/8-0.5)+1,0,180)";
    const chains = mixed("wipeDown", 8);
    expect(chains[0]).toBe("color=c=white:s=320x180:r=25,format=gray[wm0]");
    expect(chains[1]).toBe("color=c=black:s=320x180:r=25,format=gray[wm1]");
    expect(chains[2]).toBe(
      `[wm0][wm1]vstack=inputs=2,trim=end_frame=1,lut=c0='if(gt(val,127),255,0)',loop=loop=7:size=1,settb=1/25,setpts=N,crop=320:180:x=0:y='180-(${edge})'[wmask2]`,
    );
  });

  it("wipes follow an odd frame size (the spec's even size, 322x182 from 323x183)", () => {
    const odd = specOf({ width: 323, height: 183, clips: [colourClip(1)] });
    expect(mixed("wipeRight", 4, odd)[2]).toContain(
      "crop=322:182:x='322-(clip(floor(322*n/4-0.5)+1,0,322))':y=0",
    );
  });

  it("burn lays a warm flash peaking at the middle over the fade", () => {
    expect(mixed("burn", 6)).toEqual([
      "[B]format=yuva420p,fade=t=in:s=0:n=6:alpha=1[fbi3]",
      "[A][fbi3]overlay=format=yuv420:eof_action=pass[bf0]",
      "color=c=0xE6662F@0.4:s=320x180:r=25,trim=end_frame=6,settb=1/25,setpts=N[bg1]",
      "[bg1]format=yuva420p,fade=t=in:s=0:n=3:alpha=1,fade=t=out:s=3:n=3:alpha=1[bfl2]",
      "[bf0][bfl2]overlay=format=yuv420:eof_action=pass[M]",
    ]);
  });

  it("colorphase crosses luma by a fade, U at 30 % and V at 70 % of the overlap", () => {
    const chains = mixed("colorphase", 10);
    expect(chains.at(-1)).toBe("[cpy6][cpu7][cpv8]mergeplanes=0x001122:yuv420p[M]");
    expect(chains).toContain("[cpa1]trim=end_frame=3[ca10]");
    expect(chains).toContain("[cpa2]trim=end_frame=7[ca12]");
  });
});

describe("joins in a compiled graph", () => {
  it("joins clips under a fade with the cheap mixer, B starting where the overlap starts", () => {
    const graph = graphOf(specOf({ clips: [colourClip(1, { name: "fade", duration: 0.4 }), colourClip(1)] }));
    expect(graph).not.toContain("xfade");
    expect(graph).toContain("trim=end_frame=15[ja");
    expect(graph).toContain("trim=start_frame=15:end_frame=25,setpts=PTS-STARTPTS[ja");
    expect(graph).toContain("fade=t=in:s=0:n=10:alpha=1");
    expect(graph).toMatch(/concat=n=3:v=1:a=0,settb=1\/25,setpts=N\[join\d+\]/);
    expect(graph).toContain("trim=end_frame=40[vout]");
  });

  it("keeps xfade in webm, which mixes the alpha planes", () => {
    const graph = graphOf(
      specOf({ clips: [colourClip(1, { name: "fade", duration: 0.4 }), colourClip(1)] }, "webm"),
    );
    expect(graph).toMatch(/xfade=transition=fade:duration=0\.4:offset=0\.6\[join\d+\]/);
    expect(graph).not.toContain("[ja");
  });

  it("cuts clips without a transition with concat, and joins nothing for one clip", () => {
    expect(graphOf(specOf({ clips: [colourClip(1), colourClip(1)] }))).toMatch(
      /\[clip\d+\]\[clip\d+\]concat=n=2:v=1:a=0,settb=1\/25\[join\d+\]/,
    );
    const one = graphOf(specOf({ clips: [colourClip(1)] }));
    expect(one).not.toContain("concat");
    expect(one).not.toContain("join");
  });

  it("draws a wipe by its mask and an xfade-only transition by xfade", () => {
    const wipe = graphOf(
      specOf({ clips: [colourClip(1, { name: "wipeLeft", duration: 0.2 }), colourClip(1)] }),
    );
    expect(wipe).toContain("alphamerge");
    const circle = graphOf(
      specOf({ clips: [colourClip(1, { name: "circleopen", duration: 0.2 }), colourClip(1)] }),
    );
    expect(circle).toMatch(/xfade=transition=\w+:duration=0\.2:offset=0\.8/);
  });
});
