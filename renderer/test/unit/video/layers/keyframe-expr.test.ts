/**
 * Keyframes as ffmpeg expressions (keyframe-expr.ts): exact strings for each segment kind. That ffmpeg's value of
 * them is the contract's `valueAt` at every frame is checked with ffmpeg itself in
 * renderer/test/video/render-keyframes.test.ts.
 */
import { BEZIER_STEPS } from "@media-render/contract/keyframes";
import { describe, expect, it } from "vitest";
import { keyframeExpr, layerTime, volumeFilter } from "../../../../src/video/layers/keyframe-expr.ts";

describe("keyframeExpr", () => {
  it("writes a plain number as it is", () => {
    expect(keyframeExpr(0.25, "T")).toBe("0.25");
  });

  it("holds the first value before the first keyframe and the last after the last, linear between", () => {
    expect(
      keyframeExpr(
        [
          { time: 1, value: 10 },
          { time: 3, value: 20 },
        ],
        "T",
      ),
    ).toBe("if(lte(T,1),10,if(lt(T,3),10+10*((T-1)/2),20))");
  });

  it("holds a step segment's value, and finds a curve's parameter by the contract's bisection", () => {
    expect(
      keyframeExpr(
        [
          { time: 0, value: 1, easing: "step" },
          { time: 1, value: 2 },
        ],
        "T",
      ),
    ).toBe("if(lte(T,0),1,if(lt(T,1),1,2))");
    const eased = keyframeExpr(
      [
        { time: 0, value: 0, easing: "ease-in" },
        { time: 1, value: 1 },
      ],
      "T",
    );
    expect(eased).toContain(`while(lt(ld(3),${BEZIER_STEPS}),`);
    expect(eased).toContain("*0.42+3*(1-ld(4))*ld(4)*ld(4)*1+");
  });
});

describe("layerTime and volumeFilter", () => {
  it("snaps the filter's time to its frame number before counting from the layer's first frame", () => {
    expect(layerTime("t", 25, 50)).toBe("((round(t*25)-50)/25)");
  });

  it("evaluates keyframed volumes per audio frame, never below 0, and a plain volume once", () => {
    expect(volumeFilter(0.5)).toBe("volume=0.5");
    expect(
      volumeFilter([
        { time: 0, value: 0 },
        { time: 2, value: 1 },
      ]),
    ).toBe("volume='clip(if(lte(t,0),0,if(lt(t,2),0+1*((t-0)/2),1)),0,1000000)':eval=frame");
  });
});
