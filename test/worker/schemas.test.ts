import { describe, expect, it } from "vitest";
import { limits } from "@media-render/contract/config";
import { body, call } from "./helpers.ts";

type Listing = { schemas: { name: string; description: string; url: string; usage: string }[] };
type Served = { schema: Record<string, any>; description: string; version: string };

describe("GET /api/v1/schemas", () => {
  it("lists the image and video schemas without an API key", async () => {
    const res = await call("/api/v1/schemas");
    expect(res.status).toBe(200);
    const b = await body<Listing>(res);
    expect(b.success).toBe(true);
    expect(b.data!.schemas.map((s) => [s.name, s.url])).toEqual([
      ["image", "/api/v1/schemas/image"],
      ["video", "/api/v1/schemas/video"],
    ]);
    for (const s of b.data!.schemas) {
      expect(s.description.length).toBeGreaterThan(20);
      expect(s.usage).toContain("POST /api/v1/jobs");
    }
  });

  it("serves the image schema with its limits, version and a message", async () => {
    const res = await call("/api/v1/schemas/image");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const b = await body<Served>(res);
    expect(b).toMatchObject({ success: true, message: expect.stringContaining("Image config schema") });
    expect(b.data!.version).toBe("1.4.0");
    const { schema } = b.data!;
    expect(schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(schema.required).toEqual(["width", "height", "layers"]);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.width).toEqual({ type: "integer", minimum: 1, maximum: limits.IMAGE_MAX_SIZE });
    expect(schema.properties.layers).toMatchObject({ minItems: 1, maxItems: limits.IMAGE_MAX_LAYERS });
    const layerTypes = schema.$defs.ImageLayer.oneOf.map((o: any) => o.properties.type.const);
    expect(layerTypes).toEqual(["image", "text", "rectangle", "circle", "gradient", "html"]);
    expect(schema.description).toContain('"wrap": true needs "width"');
  });

  it("serves the video schema with every layer type and transition name", async () => {
    const b = await body<Served>(await call("/api/v1/schemas/video"));
    const { schema } = b.data!;
    expect(schema.properties.fps).toEqual({
      type: "integer",
      minimum: 1,
      maximum: limits.VIDEO_MAX_FPS,
      default: 25,
    });
    expect(schema.$defs.VideoLayer.oneOf).toHaveLength(19); // editly's 17 (its banner too), html and speech
    expect(schema.$defs.GlobalLayer.oneOf).toHaveLength(15); // gl layers may be global too
    // Names match in any casing: a pattern the grammar agrees with, the documented spellings as examples.
    const name = schema.$defs.Transition.properties.name as { pattern: string; examples: string[] };
    expect(name.examples).toEqual(
      expect.arrayContaining(["fade", "random", "dummy", "directional-left", "ZoomRigthWipe"]),
    );
    const pattern = new RegExp(name.pattern);
    for (const n of ["CrossZoom", "crosszoom", "CROSSZOOM", "directionalWarp", "fade"])
      expect(n).toMatch(pattern);
    expect("crosszoomx").not.toMatch(pattern);
    expect(schema.description).toContain("at most 3600 s");
  });

  it("answers an unknown schema name with the 404 envelope", async () => {
    const res = await call("/api/v1/schemas/audio");
    expect(res.status).toBe(404);
    expect(await body(res)).toMatchObject({ success: false, error: "Not found" });
  });
});
