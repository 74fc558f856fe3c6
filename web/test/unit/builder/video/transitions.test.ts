/** The transition picker's names (web/src/builder/video/transitions.tsx): every name the grammar accepts, in any case. */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { TRANSITION_NAMES } from "@media-render/contract/config/transitions";

// The picker draws thumbnails from the transitions' contact sheet, a Vite virtual module.
vi.mock("virtual:transition-sprite", () => ({ default: "" }));
let picker: typeof import("../../../../src/builder/video/transitions.tsx");
beforeAll(async () => {
  picker = await import("../../../../src/builder/video/transitions.tsx");
});

describe("transition names", () => {
  it("offers exactly the names the grammar accepts, once each, editly's first", () => {
    expect([...picker.TRANSITION_CHOICES].sort()).toEqual([...new Set(TRANSITION_NAMES)].sort());
    expect(new Set(picker.TRANSITION_CHOICES).size).toBe(picker.TRANSITION_CHOICES.length);
    expect(picker.TRANSITION_CHOICES.slice(0, 4)).toEqual([
      "directional-left",
      "directional-right",
      "directional-up",
      "directional-down",
    ]);
  });

  it("writes a name given in any case as it is documented, and leaves an unknown one alone", () => {
    expect(picker.canonicalTransition("CROSSZOOM")).toBe("CrossZoom");
    expect(picker.canonicalTransition("fade")).toBe("fade");
    expect(picker.canonicalTransition("nope")).toBe("nope");
  });
});
