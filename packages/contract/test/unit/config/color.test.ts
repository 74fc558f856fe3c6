import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { COLOR_NAMES, parseColor } from "../../../src/config/color.ts";
import { Color } from "../../../src/config/common.ts";

const accepts = (s: string) => v.safeParse(Color, s).success;

describe("colours: one parser for validation and the video renderer", () => {
  it("reads every form a config may use", () => {
    expect(parseColor("#f00")).toEqual({ r: 255, g: 0, b: 0, a: 1 });
    expect(parseColor("#f008")).toEqual({ r: 255, g: 0, b: 0, a: 0x88 / 255 });
    expect(parseColor("#1E90FF")).toEqual({ r: 30, g: 144, b: 255, a: 1 });
    expect(parseColor("#00000080")).toEqual({ r: 0, g: 0, b: 0, a: 128 / 255 });
    expect(parseColor("rgba(0, 0, 0, 0.5)")).toEqual({ r: 0, g: 0, b: 0, a: 0.5 });
    expect(parseColor("rgb(100% 50% 0% / 25%)")).toEqual({ r: 255, g: 127.5, b: 0, a: 0.25 });
    expect(parseColor("hsl(120deg, 100%, 25%)")).toEqual({ r: 0, g: 127.5, b: 0, a: 1 });
    expect(parseColor("hsla(0 100% 50% / 0.5)")).toEqual({ r: 255, g: 0, b: 0, a: 0.5 });
    expect(parseColor("GREen")).toEqual({ r: 0, g: 128, b: 0, a: 1 });
    expect(parseColor("transparent")).toEqual({ r: 0, g: 0, b: 0, a: 0 });
    expect(COLOR_NAMES).toHaveLength(148);
  });

  it("refuses words that are not CSS colour names and functional forms that are not colours", () => {
    // Found by the generated configs: words the old pattern let through, which ffmpeg then refused mid-render.
    for (const bad of [
      "nterth",
      "isprot",
      "rgb(,,,)",
      "rgb(1 2)",
      "hsl(1, 2, 3, 4, 5)",
      "rgba(1 2 3 / )",
      "#12345",
    ])
      expect([bad, parseColor(bad), accepts(bad)]).toEqual([bad, null, false]);
  });

  it("accepts exactly what it parses: any rgb() of channels and alpha, any hex, any name", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 100 }),
        (r, g, b, a) => {
          const hex = `#${[r, g, b].map((n) => n.toString(16).padStart(2, "0")).join("")}`;
          expect(parseColor(hex)).toEqual({ r, g, b, a: 1 });
          expect(parseColor(`rgba(${r}, ${g}, ${b}, ${a / 100})`)).toEqual({ r, g, b, a: a / 100 });
          expect(accepts(hex) && accepts(`rgb(${r} ${g} ${b} / ${a}%)`)).toBe(true);
        },
      ),
    );
    for (const name of COLOR_NAMES) expect(accepts(name) && accepts(name.toUpperCase())).toBe(true);
  });
});
