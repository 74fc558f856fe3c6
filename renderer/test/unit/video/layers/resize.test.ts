/**
 * Resize modes (resize.ts, reference §2.5) as filter chains into a box: cover crops, contain pads with transparency,
 * stretch scales, contain-blur lays the picture over a blurred small copy of itself. A picture of the box's aspect
 * is stretched whatever the mode (all modes agree there). A property checks contain-blur's copy is always large
 * enough for its blur, which ffmpeg refuses otherwise.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resizeInto, sameAspect, simpleResize } from "../../../../src/video/layers/resize.ts";
import { contextOf, specOf } from "../../../helpers/graph-spec.ts";

const context = () => contextOf(specOf({ clips: [{ duration: 1, layers: [{ type: "pause" }] }] }));

describe("simpleResize", () => {
  it("writes cover, contain and stretch as one chain each", () => {
    expect(simpleResize("cover", 320, 180)).toBe(
      "scale=320:180:force_original_aspect_ratio=increase,crop=320:180",
    );
    expect(simpleResize("contain", 320, 180)).toBe(
      "scale=320:180:force_original_aspect_ratio=decrease,format=yuva420p,pad=320:180:(ow-iw)/2:(oh-ih)/2:color=black@0",
    );
    expect(simpleResize("stretch", 320, 180)).toBe("scale=320:180");
  });
});

describe("resizeInto", () => {
  it("runs `pre` first, then the mode, and returns the label it wrote", () => {
    const ctx = context();
    expect(resizeInto(ctx, "0:v", "hflip", "cover", 320, 180, { width: 100, height: 100 })).toBe("rs0");
    expect(ctx.filters).toEqual([
      "[0:v]hflip,scale=320:180:force_original_aspect_ratio=increase,crop=320:180,setsar=1[rs0]",
    ]);
  });

  it("stretches a picture whose aspect is within 1 % of the box's, whatever the mode", () => {
    const ctx = context();
    resizeInto(ctx, "0:v", "", "contain-blur", 320, 180, { width: 1920, height: 1085 });
    expect(ctx.filters).toEqual(["[0:v]scale=320:180,setsar=1[rs0]"]);
    expect([sameAspect(1920, 1080, 320, 180), sameAspect(1920, 1100, 320, 180)]).toEqual([true, false]);
  });

  it("draws contain-blur as a blurred eighth-size copy scaled back, the picture contained over it", () => {
    const ctx = context();
    expect(resizeInto(ctx, "0:v", "", "contain-blur", 1280, 720, { width: 1000, height: 1000 })).toBe("rs0");
    expect(ctx.filters).toEqual([
      "[0:v]split[cbA1][cbB2]",
      "[cbA1]scale=160:90,boxblur=12:2,scale=1280:720,setsar=1[cbBg3]",
      "[cbB2]scale=1280:720:force_original_aspect_ratio=decrease,setsar=1[cbFg4]",
      "[cbBg3][cbFg4]overlay=(W-w)/2:(H-h)/2:format=auto[rs0]",
    ]);
  });

  it("keeps contain-blur's copy at least four blur radii on each side, for any box", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 4096 }), fc.integer({ min: 2, max: 4096 }), (bw, bh) => {
        const ctx = context();
        resizeInto(ctx, "0:v", "", "contain-blur", bw, bh, { width: 7, height: 3 });
        if (sameAspect(7, 3, bw, bh)) return;
        const [, sw, sh, radius] = /scale=(\d+):(\d+),boxblur=(\d+):2/.exec(ctx.filters[1]!)!.map(Number);
        expect(radius).toBeGreaterThanOrEqual(1);
        expect(radius).toBeLessThanOrEqual(12);
        expect(Math.min(sw!, sh!)).toBeGreaterThanOrEqual(4 * radius!);
      }),
      { numRuns: 300 },
    );
  });
});
