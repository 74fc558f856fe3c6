import { describe, expect, it } from "vitest";
import { validateJobConfig } from "../../../src/config/index.ts";
import { TRANSITION_NAME_PATTERN, TRANSITION_NAMES } from "../../../src/config/transitions.ts";

const clip = (name?: string) => ({
  duration: 1,
  layers: [{ type: "pause" }],
  ...(name ? { transition: { name } } : {}),
});

describe("transition names", () => {
  it("are matched in any casing and normalised to the documented spelling", () => {
    const names = [
      "crosszoom",
      "directional",
      "linearblur",
      "directionalWarp",
      "dreamyzoom",
      "FADE",
      "Random",
    ];
    const r = validateJobConfig("video", { clips: [...names.map(clip), clip()] });
    expect(r.valid).toBe(true);
    const out = r.valid ? (r.config as { clips: { transition?: { name?: string } }[] }) : null;
    expect(out?.clips.slice(0, names.length).map((c) => c.transition?.name)).toEqual([
      "CrossZoom",
      "Directional",
      "LinearBlur",
      "directionalwarp",
      "DreamyZoom",
      "fade",
      "random",
    ]);
  });

  it("refuse an unknown name, naming it", () => {
    const r = validateJobConfig("video", { clips: [clip("Fader"), clip()] });
    expect(r.valid).toBe(false);
    expect(r.valid ? [] : r.errors.map((e) => [e.field, e.message])).toEqual([
      ["config.clips[0].transition.name", expect.stringContaining('Unknown transition "Fader"')],
    ]);
  });

  it("JSON Schema pattern accepts exactly the names in any casing", () => {
    const re = new RegExp(TRANSITION_NAME_PATTERN, "u");
    for (const n of TRANSITION_NAMES) {
      expect(re.test(n) && re.test(n.toUpperCase()) && re.test(n.toLowerCase()), n).toBe(true);
    }
    expect(re.test("Fader")).toBe(false);
    expect(re.test("fade ")).toBe(false);
  });
});
