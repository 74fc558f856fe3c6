/**
 * Keyframed width and height as resize factors (sizes.ts): which layers have them, the size a layer is laid out at
 * (the largest its keyframes reach), and each axis's factor over it.
 */
import { describe, expect, it } from "vitest";
import { laidOut, sizeFactors } from "../../../../src/video/layers/sizes.ts";
import type { Layer } from "../../../../src/video/types.ts";

const ramp = (from: number, to: number) => [
  { time: 0, value: from },
  { time: 1, value: to },
];

describe("sizeFactors", () => {
  it("is null for a layer without keyframed sizes, or one that has none", () => {
    expect(sizeFactors({ type: "image", path: "/a.png", width: 0.5 } as Layer)).toBeNull();
    expect(sizeFactors({ type: "title", text: "a" } as Layer)).toBeNull();
  });

  it("lays a layer out at its largest size and divides each frame's size by it, per axis", () => {
    expect(laidOut(ramp(0.2, 0.8))).toBe(0.8);
    expect(laidOut(0.3)).toBe(0.3);
    const factors = sizeFactors({ type: "video", path: "/a.mp4", width: ramp(0.2, 0.8) } as Layer)!;
    expect(factors.x!("T")).toBe("(clip(if(lte(T,0),0.2,if(lt(T,1),0.2+0.6*((T-0)/1),0.8)),0.01,1)/0.8)");
    expect(factors.y).toBeUndefined();
  });

  it("resizes an image-overlay on both axes by its width, else by its height", () => {
    const byWidth = sizeFactors({
      type: "image-overlay",
      path: "/a.png",
      width: ramp(0.1, 0.5),
      height: 0.2,
    } as Layer)!;
    expect(byWidth.x).toBe(byWidth.y);
    expect(
      sizeFactors({ type: "image-overlay", path: "/a.png", width: 0.3, height: ramp(0.1, 0.5) } as Layer),
    ).toBeNull();
    expect(
      sizeFactors({ type: "image-overlay", path: "/a.png", height: ramp(0.1, 0.5) } as Layer),
    ).not.toBeNull();
  });
});
