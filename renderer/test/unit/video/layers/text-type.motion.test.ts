/** The pieces text types animate with (text-type.ts), as ffmpeg expressions and filters. */
import { describe, expect, it } from "vitest";
import { bannerEase, easeOutExpo, fadeIn, fadeOut } from "../../../../src/video/layers/text-type.ts";

describe("fades", () => {
  it("fades alpha in or out over `dur` seconds from `at`, never shorter than a frame", () => {
    expect(fadeIn(25, 0.4, 0.5)).toBe("fade=t=in:st=0.4:d=0.5:alpha=1");
    expect(fadeOut(25, 1.6, 0.2)).toBe("fade=t=out:st=1.6:d=0.2:alpha=1");
    expect(fadeIn(25, 0, 0)).toBe("fade=t=in:st=0:d=0.04:alpha=1");
  });
});

describe("eases", () => {
  it("writes editly's easeOutExpo of an expression", () => {
    expect(easeOutExpo("p")).toBe("(1-pow(2,-10*p))");
  });

  it("writes editly's banner clock over the layer's window, by delay and speed, reaching exactly 1", () => {
    const win = { startFrame: 5, frames: 50, start: 0.2, duration: 2, skip: 0, drawn: 50 };
    expect(bannerEase({}, win, 1, "t")).toBe(
      "if(gte(clip(((t-0.2)/2-0)*1,0,1),1),1,1-pow(2,-10*clip(((t-0.2)/2-0)*1,0,1)))",
    );
    expect(bannerEase({ delay: 0.5, speed: 2 }, win, 3, "T")).toBe(
      "if(gte(clip(((T-0.2)/2-0.5)*6,0,1),1),1,1-pow(2,-10*clip(((T-0.2)/2-0.5)*6,0,1)))",
    );
    // A zero-length window does not divide by zero.
    expect(bannerEase({}, { ...win, duration: 0 }, 1, "t")).toContain("/0.001-");
  });
});
