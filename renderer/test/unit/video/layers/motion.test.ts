/**
 * A layer's opacity, rotation, scale and keyframed position (motion.ts), applied to the stream its compiler made:
 * exact chains, overlay expressions about the box's centre, and a window starting inside the layer counting time
 * from the layer's first frame.
 */
import { describe, expect, it } from "vitest";
import type { LayerVideo } from "../../../../src/video/graph-context.ts";
import { hasMotion, withMotion } from "../../../../src/video/layers/motion.ts";
import type { Layer } from "../../../../src/video/types.ts";
import { compileOne, LOGO } from "../../../helpers/graph-spec.ts";

const MEDIA = { "/in/logo.png": LOGO };
const overlay = (extra: Record<string, unknown>, options: Parameters<typeof compileOne>[1] = {}) =>
  compileOne(
    { type: "image-overlay", path: "/in/logo.png", width: 0.25, ...extra },
    { media: MEDIA, ...options },
  );
const ramp = (from: number, to: number) => [
  { time: 0, value: from },
  { time: 1, value: to },
];

describe("hasMotion", () => {
  it("is false for a layer at rest (absent, 1, 0, or a position without keyframes)", () => {
    const rest = { type: "pause", opacity: 1, rotation: 0, scale: 1 } as Layer;
    expect(hasMotion(rest)).toBe(false);
    expect(hasMotion({ type: "title", text: "a", position: { x: 0.5, y: 0.5 } } as Layer)).toBe(false);
    expect(hasMotion({ type: "pause", opacity: 0.5 } as Layer)).toBe(true);
    expect(hasMotion({ type: "title", text: "a", position: { x: ramp(0, 1), y: 0.5 } } as Layer)).toBe(true);
  });
});

describe("withMotion", () => {
  it("leaves a layer without motion as its compiler made it", () => {
    const { ctx, out } = overlay({});
    expect(ctx.filters.join(";")).not.toContain("rotate");
    expect(out).toMatchObject({ x: 120, y: 70, w: 80, h: 40 });
  });

  it("turns onto the diagonal's square, scales per frame and fades by warped timestamps, centred on the box", () => {
    const { ctx, out } = overlay({ rotation: 90, scale: ramp(1, 2), opacity: 0.5 });
    const chain = ctx.filters.at(-1)!;
    expect(chain).toMatch(
      /^\[img\d+\]format=yuva420p,rotate=a='\(90\)\*PI\/180':ow=90:oh=90:c=black@0:bilinear=1,/,
    );
    expect(chain).toContain(",scale=w='max(2,2*round(90*clip(if(lte(((round(t*25)-0)/25),0),1,");
    expect(chain).toContain(
      ":eval=frame,settb=AVTB,setpts='clip(0.5,0,1)/TB',fade=t=in:st=0:d=1:alpha=1,settb=1/25,setpts=N+0[mo",
    );
    // Off the frame while the box is under a pixel, else centred on the box.
    expect(out!.x).toMatch(
      /^if\(lt\(min\(90\*clip\(.*\),1\),-1640,\(120\)\+40-\(max\(2,2\*round\(90\*clip\(/,
    );
    expect(out).toMatchObject({ w: 90, h: 90, coversFrame: false });
  });

  it("moves the anchor along keyframed x and y, less its origin's share of the box", () => {
    const { out } = overlay({ position: { x: ramp(0, 1), y: 0.5, originX: "left" } });
    // Frame width 320: the box's centre is 320 * x + (0.5 - 0) * 80.
    expect(out!.x).toBe(
      "320*(if(lte(((round(t*25)-0)/25),0),0,if(lt(((round(t*25)-0)/25),1),0+1*((((round(t*25)-0)/25)-0)/1),1)))+40-(80)/2",
    );
    expect(out!.y).toBe("(70)+20-(40)/2");
  });

  it("keeps the streams drawn after the layer's own (a caption preset's words)", () => {
    const { ctx, win } = overlay({});
    const word: LayerVideo = { label: "w0", x: 1, y: 2, coversFrame: false };
    const out = withMotion({ type: "pause", opacity: 0.5 } as Layer, win, ctx, {
      label: "txt0",
      x: 0,
      y: 0,
      w: 40,
      h: 20,
      coversFrame: false,
      more: [word],
    });
    expect(out.more).toEqual([word]);
    expect(out.label).not.toBe("txt0");
  });

  it("counts a window's time from the layer's first frame, not the window's", () => {
    const { ctx } = overlay({ opacity: ramp(0, 1) }, { duration: 2, range: { from: 20, to: 40 } });
    const chain = ctx.filters.at(-1)!;
    expect(chain).toContain("setpts='clip(if(lte(((round(T*25)-0)/25),0),0,");
    expect(chain).toContain("settb=1/25,setpts=N+20[");
  });
});
