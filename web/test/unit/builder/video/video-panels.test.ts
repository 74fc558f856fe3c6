/**
 * New layers of a video config (web/src/builder/video/video-panels.tsx, `newVideoLayer`): every type the served
 * schema lists starts as a layer the service accepts, given a file of its kind to point at; without one, a file
 * layer starts with no path for the user to pick.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { validateJobConfig } from "@media-render/contract/config";
import { configJsonSchema } from "../../../../../src/schemas/json-schemas.ts";
import { layerTypes, schemaAt, schemaDoc, type Schema } from "../../../../src/builder/schema/fields.ts";

// The panels load the transitions' contact sheet (a Vite virtual module) and the page's API client (its origin).
vi.mock("virtual:transition-sprite", () => ({ default: "" }));
let newVideoLayer: typeof import("../../../../src/builder/video/video-panels.tsx").newVideoLayer;
beforeAll(async () => {
  vi.stubGlobal("location", new URL("http://127.0.0.1:8787/builder"));
  ({ newVideoLayer } = await import("../../../../src/builder/video/video-panels.tsx"));
});
afterAll(() => {
  vi.unstubAllGlobals();
});

const FILES: Record<string, string> = {
  video: "/video/2026-01-01/u/clip.mp4",
  audio: "/audio/2026-01-01/u/song.mp3",
  image: "/image/2026-01-01/u/photo.png",
};

describe("newVideoLayer", () => {
  it("starts every layer type of the schema as one the service accepts (before: speech and gl did not)", () => {
    const served = schemaDoc(configJsonSchema("video") as unknown as Schema);
    const items = schemaAt(served, { clips: [{ layers: [] }] }, ["clips", 0, "layers"])!.items as Schema;
    const refused = layerTypes(served, items).flatMap((type) => {
      const result = validateJobConfig("video", {
        clips: [{ duration: 2, layers: [newVideoLayer(type, (category) => FILES[category])] }],
      });
      return result.valid
        ? []
        : [`${type}: ${result.errors.map((e) => `${e.field} ${e.message}`).join("; ")}`];
    });
    expect(refused).toEqual([]);
  });

  it("gives a file layer the first file of its kind, or none to pick from", () => {
    expect(newVideoLayer("image-overlay", (c) => FILES[c])).toEqual({
      type: "image-overlay",
      path: FILES.image,
    });
    expect(newVideoLayer("detached-audio", (c) => FILES[c])).toEqual({
      type: "detached-audio",
      path: FILES.audio,
    });
    expect(newVideoLayer("video", () => undefined)).toEqual({ type: "video" });
  });
});
