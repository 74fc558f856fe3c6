/** cssColor (text-type.ts): the second fence keeping anything but a colour out of the text sheet's CSS. */
import { describe, expect, it } from "vitest";
import { cssColor } from "../../../../src/video/layers/text-type.ts";

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
