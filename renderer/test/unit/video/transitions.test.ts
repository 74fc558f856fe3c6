import { describe, expect, it } from "vitest";
import { TRANSITION_NAMES } from "@media-render/contract/config/transitions";
import { TRANSITIONS } from "@media-render/contract/transition-map";
import { RANDOM_POOL, resolveTransition } from "../../../src/video/transitions.ts";

const XFADE_NAMES = new Set(
  (
    "fade wipeleft wiperight wipeup wipedown slideleft slideright slideup slidedown circlecrop rectcrop distance fadeblack " +
    "fadewhite radial smoothleft smoothright smoothup smoothdown circleopen circleclose vertopen vertclose horzopen horzclose " +
    "dissolve pixelize diagtl diagtr diagbl diagbr hlslice hrslice vuslice vdslice hblur fadegrays wipetl wipetr wipebl " +
    "wipebr squeezeh squeezev zoomin fadefast fadeslow custom"
  ).split(" "),
);

describe("transition table", () => {
  it("maps every name the grammar accepts but random, and nothing else, to a real xfade transition", () => {
    const mapped = TRANSITION_NAMES.filter((n) => n !== "random");
    expect(Object.keys(TRANSITIONS).sort()).toEqual([...mapped].sort());
    expect(mapped.length).toBe(67 + 4 + 1 + 58);
    for (const [name, m] of Object.entries(TRANSITIONS)) {
      expect(XFADE_NAMES.has(m.xfade), name).toBe(true);
      expect(m.match !== "custom" || Boolean(m.expr), `${name} has an expression`).toBe(true);
    }
  });

  it("uses the exact xfade equivalents of the reference", () => {
    expect(resolveTransition("fade", "s").xfade).toBe("fade");
    expect(resolveTransition("CircleCrop", "s").xfade).toBe("circlecrop");
    expect(resolveTransition("windowslice", "s").xfade).toBe("hrslice");
    expect(resolveTransition("squeeze", "s").xfade).toBe("squeezev");
    expect(resolveTransition("directional-left", "s").xfade).toBe("slideleft");
    expect(resolveTransition("RectangleCrop", "s").xfade).toBe("rectcrop");
  });

  it("resolves names case-insensitively and honours params", () => {
    expect(resolveTransition("WIPELEFT", "s").name).toBe("wipeLeft");
    expect(resolveTransition("Directional", "s", { direction: [-1, 0] }).xfade).toBe("slideright");
    expect(resolveTransition("fadecolor", "s", { color: [1, 1, 1] }).xfade).toBe("fadewhite");
    expect(resolveTransition("fadecolor", "s").xfade).toBe("fadeblack");
  });

  it("picks `random` reproducibly from the seed, and differently for different seeds", () => {
    const a = resolveTransition("random", "job_1:0").name;
    expect(resolveTransition("random", "job_1:0").name).toBe(a);
    expect(RANDOM_POOL).toContain(a);
    const picks = new Set(
      Array.from({ length: 20 }, (_, i) => resolveTransition("random", `job_1:${i}`).name),
    );
    expect(picks.size).toBeGreaterThan(5);
  });
});
