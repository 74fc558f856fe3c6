/**
 * editly edit specs as editly's documentation writes them: the values editly accepts are accepted (and
 * normalised), the JavaScript-only features are refused naming the field and why. The served JSON Schema
 * agrees (ajv on the same configs).
 */
import { describe, expect, it } from "vitest";
import { validateJobConfig } from "../../src/contract/config/index.ts";
const pause = { type: "pause" };

function accepted(config: Record<string, unknown>) {
  const r = validateJobConfig("video", config);
  if (!r.valid) throw new Error(JSON.stringify(r.errors));
  return r.config as Record<string, unknown> & { clips: { layers: unknown[] }[] };
}

function refused(config: Record<string, unknown>) {
  const r = validateJobConfig("video", config);
  expect(r.valid).toBe(false);
  return r.valid ? [] : r.errors.map((e) => [e.field, e.message]);
}

describe("editly values", () => {
  it("volumes above 1 and in decibels, normalised to a gain", () => {
    const c = accepted({
      clipsAudioVolume: 2,
      outputVolume: "-10dB",
      audioTracks: [{ path: "/a.mp3", mixVolume: "6 dB" }],
      clips: [{ layers: [{ type: "audio", path: "/b.mp3", mixVolume: 3 }] }],
    });
    expect(c.clipsAudioVolume).toBe(2);
    expect(c.outputVolume).toBeCloseTo(0.316228, 6);
    expect((c.audioTracks as { mixVolume: number }[])[0]!.mixVolume).toBeCloseTo(1.995262, 6);
  });

  it("refuses a gain above +20 dB or 10, naming the field", () => {
    expect(refused({ outputVolume: 11, clips: [{ layers: [pause] }] })).toEqual([
      ["config.outputVolume", "must be at most 10"],
    ]);
    expect(refused({ outputVolume: "30dB", clips: [{ layers: [pause] }] })[0]![1]).toContain("+20 dB");
    expect(refused({ outputVolume: "loud", clips: [{ layers: [pause] }] })[0]![1]).toContain('"-10dB"');
  });

  it("reads a clip's single layer object as a one-layer list", () => {
    const c = accepted({ clips: [{ duration: 2, layers: { type: "fill-color", color: "red" } }] });
    expect(c.clips[0]!.layers).toEqual([{ type: "fill-color", color: "red" }]);
  });

  it("reports a bad single layer object by its own fields", () => {
    expect(refused({ clips: [{ layers: { type: "title" } }] })).toEqual([
      ["config.clips[0].layers.text", "is required"],
    ]);
  });

  it("accepts transition easing and case-insensitive names", () => {
    const c = accepted({
      clips: [
        {
          layers: [pause],
          transition: { name: "directionalWarp", easing: "easeOutExpo", params: { direction: [1, -1] } },
        },
        { layers: [pause] },
      ],
    });
    expect((c.clips[0] as { transition?: { name?: string } }).transition?.name).toBe("directionalwarp");
  });
});

describe("editly's JavaScript-only features", () => {
  it.each(["canvas", "fabric"])("a %s layer is refused, saying why", (type) => {
    const errors = refused({ clips: [{ layers: [{ type, func: "() => {}" }] }] });
    expect(errors[0]![0]).toBe("config.clips[0].layers[0].type");
    expect(errors[0]![1]).toContain("JavaScript function");
  });

  it("a func key is refused, saying why", () => {
    const errors = refused({ clips: [{ layers: [{ type: "fill-color", func: "x" }] }] });
    expect(errors[0]![1]).toContain('"func" is an editly JavaScript function');
  });

  it.each([
    ["outPath", "./out.mp4", "stores the output"],
    ["verbose", true, "no effect here"],
    ["customOutputArgs", ["-crf", "1"], "encoder settings are fixed"],
  ])("the CLI option %s is refused with its reason", (key, value, why) => {
    const errors = refused({ [key]: value, clips: [{ layers: [pause] }] });
    expect(errors[0]![1]).toContain(why);
  });

  it("editly's fast preview flag is accepted", () => {
    expect(accepted({ fast: true, clips: [{ layers: [pause] }] }).fast).toBe(true);
  });
});

describe("file references of editly's single-layer form", () => {
  it("are found and rewritten like those of a list", async () => {
    const { forEachFileReference } = await import("../../src/contract/config/resources.ts");
    const config = { clips: [{ layers: { type: "video", path: "https://example.com/v.mp4" } }] };
    const seen: string[] = [];
    forEachFileReference("video", config, (ref) => {
      seen.push(`${ref.field} ${ref.slot}`);
      return "/videos/u/v.mp4";
    });
    expect(seen).toEqual(["config.clips[0].layers.path video"]);
    expect(config.clips[0]!.layers.path).toBe("/videos/u/v.mp4");
  });
});
