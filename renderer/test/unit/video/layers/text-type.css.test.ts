/**
 * text-type.ts's CSS: cssColor, the second fence keeping anything but a colour out of the text sheet's CSS; sizedLength,
 * a length in px, or in CSS that follows a fitted box's font size to the same pixel.
 */
import { describe, expect, it } from "vitest";
import { cssColor, sizedLength } from "../../../../src/video/layers/text-type.ts";

describe("cssColor", () => {
  it("passes colours through and falls back for none or for anything that could end the declaration", () => {
    expect(
      ["#ff000080", "rgba(0, 0, 0, 0.5)", " tomato ", "hsl(10, 50%, 50%)"].map((c) => cssColor(c, "x")),
    ).toEqual(["#ff000080", "rgba(0, 0, 0, 0.5)", "tomato", "hsl(10, 50%, 50%)"]);
    expect(
      [undefined, "red;background:url(x)", "red}body{", 'red"', "red/*"].map((c) => cssColor(c, "#000")),
    ).toEqual(["#000", "#000", "#000", "#000", "#000"]);
  });
});

describe("sizedLength", () => {
  it("is k font sizes plus extra px, rounded up or to the nearest pixel, at a known size", () => {
    expect(sizedLength(false, 30, 0.25, 0, "up")).toBe("8px");
    expect(sizedLength(false, 30, 0.25, 4, "nearest")).toBe("12px");
    expect(sizedLength(false, 10, 0.45, 0, "nearest")).toBe("5px");
  });

  it("follows the font size the page fits a box to, rounded the same way", () => {
    expect(sizedLength(true, 30, 0.25, 4, "up")).toBe("round(up, 0.25em + 4px, 1px)");
    expect(sizedLength(true, 30, 0.8, 0, "nearest")).toBe("round(nearest, 0.8em + 0px, 1px)");
  });
});
