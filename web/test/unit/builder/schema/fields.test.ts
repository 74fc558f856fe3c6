/**
 * Property panels from the JSON Schemas the service serves (web/src/builder/schema/fields.ts): which schema
 * describes the object at a path of the config, and which control edits each property. Each branch on small schemas
 * by hand, then the real served schemas (src/schemas/json-schemas.ts, what GET /api/v1/schemas/{image,video}
 * answers): every layer type of every list gets its panel, and the controls its properties need.
 */
import { describe, expect, it } from "vitest";
import { configJsonSchema } from "../../../../../src/schemas/json-schemas.ts";
import {
  controlFor,
  deref,
  fieldsOf,
  layerTypes,
  schemaAt,
  schemaDoc,
  variantOf,
  type Schema,
} from "../../../../src/builder/schema/fields.ts";

const doc = schemaDoc({
  type: "object",
  properties: {
    color: { $ref: "#/$defs/Color" },
    layers: { type: "array", items: { $ref: "#/$defs/Layer" } },
  },
  $defs: {
    Color: { type: "string", pattern: "^#" },
    Position: { anyOf: [{ type: "string" }, { type: "object" }] },
    ImageRef: { type: "string" },
    VideoRef: { type: "string" },
    Layer: { oneOf: [{ $ref: "#/$defs/Text" }, { $ref: "#/$defs/Shape" }] },
    Text: {
      type: "object",
      properties: { type: { const: "text" }, text: { type: "string" } },
      required: ["text"],
    },
    Shape: { type: "object", properties: { type: { const: "shape" }, fill: { $ref: "#/$defs/Color" } } },
    Alias: { $ref: "#/$defs/Color" },
  },
});
const control = (key: string, node: Schema) => controlFor(doc, key, node);

describe("following the schema to a path", () => {
  it("follows $refs, and picks a layer's variant by its type", () => {
    expect(deref(doc, { $ref: "#/$defs/Alias" })).toEqual({ type: "string", pattern: "^#" });
    const config = { layers: [{ type: "shape" }, { type: "text", text: "x" }] };
    expect(schemaAt(doc, config, ["layers", 0])).toBe(doc.defs.Shape);
    expect(schemaAt(doc, config, ["layers", 1])).toBe(doc.defs.Text);
    expect(schemaAt(doc, config, ["layers", 1, "text"])).toEqual({ type: "string" });
    expect(schemaAt(doc, config, ["nothing", "here"])).toBeNull();
    expect(layerTypes(doc, { $ref: "#/$defs/Layer" })).toEqual(["text", "shape"]);
  });

  it("takes the object side of a nullable, the array side for a list, else the first variant", () => {
    const nullable = { anyOf: [{ type: "null" }, { type: "object", properties: {} }] };
    expect(variantOf(doc, nullable, undefined)).toEqual({ type: "object", properties: {} });
    expect(variantOf(doc, { anyOf: [{ type: "string" }, { type: "array" }] }, [1])).toEqual({
      type: "array",
    });
    // A layer of an unknown type: the first object variant.
    expect(variantOf(doc, { $ref: "#/$defs/Layer" }, { type: "nope" })).toBe(doc.defs.Text);
  });
});

describe("the control of each kind of property", () => {
  it("edits named definitions with their own controls: colours, positions, files", () => {
    expect(control("fill", { $ref: "#/$defs/Color" })).toEqual({ kind: "color" });
    expect(control("position", { $ref: "#/$defs/Position" })).toEqual({ kind: "position" });
    expect(control("path", { $ref: "#/$defs/ImageRef" })).toEqual({ kind: "file", categories: ["image"] });
    expect(control("path", { anyOf: [{ $ref: "#/$defs/ImageRef" }, { $ref: "#/$defs/VideoRef" }] })).toEqual({
      kind: "file",
      categories: ["image", "video"],
    });
  });

  it("edits enums as selects (nullable when null is allowed), numbers as sliders when bounded within 1000", () => {
    expect(control("fit", { enum: ["cover", "contain"] })).toEqual({
      kind: "select",
      options: ["cover", "contain"],
      nullable: false,
    });
    expect(control("zoom", { anyOf: [{ type: "null" }, { enum: ["in", "out"] }] })).toEqual({
      kind: "select",
      options: ["in", "out"],
      nullable: true,
    });
    expect(control("opacity", { type: "number", minimum: 0, maximum: 1 })).toEqual({
      kind: "range",
      min: 0,
      max: 1,
      step: 0.01,
    });
    expect(control("blur", { type: "number", minimum: 0, maximum: 10 })).toEqual({
      kind: "range",
      min: 0,
      max: 10,
      step: 0.1,
    });
    expect(control("fps", { type: "integer", minimum: 1, maximum: 60 })).toEqual({
      kind: "range",
      min: 1,
      max: 60,
      step: 1,
    });
    expect(control("speed", { type: "number", exclusiveMinimum: 0, maximum: 100 })).toEqual({
      kind: "range",
      min: 0,
      max: 100,
      step: 1,
    });
    expect(control("x", { type: "number" })).toEqual({
      kind: "number",
      min: undefined,
      max: undefined,
      step: 1,
    });
    expect(control("width", { type: "integer", minimum: 1, maximum: 5000 })).toEqual({
      kind: "number",
      min: 1,
      max: 5000,
      step: 1,
    });
    // A number or its string spelling ("10dB"): edited as the number.
    expect(
      control("volume", { anyOf: [{ type: "number", minimum: 0, maximum: 10 }, { type: "string" }] }),
    ).toEqual({
      kind: "range",
      min: 0,
      max: 10,
      step: 0.1,
    });
  });

  it("edits text on one line or several, with font suggestions, and lists of colours or strings", () => {
    expect(control("text", { type: "string" })).toEqual({
      kind: "text",
      multiline: true,
      maxLength: undefined,
    });
    expect(control("name", { type: "string", maxLength: 80 })).toEqual({
      kind: "text",
      multiline: false,
      maxLength: 80,
    });
    expect(control("note", { type: "string", maxLength: 10_000 })).toMatchObject({ multiline: true });
    expect(control("googleFont", { type: "string" })).toMatchObject({ kind: "text", suggestions: "fonts" });
    expect(
      control("colors", { type: "array", items: { $ref: "#/$defs/Color" }, minItems: 2, maxItems: 8 }),
    ).toEqual({
      kind: "colors",
      min: 2,
      max: 8,
    });
    expect(control("fonts", { type: "array", items: { type: "string" } })).toEqual({
      kind: "strings",
      max: 20,
    });
  });

  it("nests objects, and falls back to JSON for what it has no control for", () => {
    const object = { type: "object", properties: { a: { type: "number" } } };
    expect(control("gif", object)).toEqual({ kind: "object", schema: object, nullable: false });
    expect(control("gif", { anyOf: [{ type: "null" }, object] })).toEqual({
      kind: "object",
      schema: object,
      nullable: true,
    });
    expect(control("layers", { type: "array", items: { $ref: "#/$defs/Layer" } })).toEqual({ kind: "json" });
    expect(control("any", {})).toEqual({ kind: "json" });
    expect(control("mixed", { anyOf: [{ type: "boolean" }, { type: "string" }] })).toEqual({ kind: "json" });
  });
});

describe("fieldsOf", () => {
  it("lists every property but `type`, with whether it is required, its description and its default", () => {
    const node = {
      type: "object",
      required: ["text"],
      properties: {
        type: { const: "text" },
        text: { type: "string", description: "What it says." },
        size: { $ref: "#/$defs/Size" },
      },
    };
    const withSize = schemaDoc({ $defs: { Size: { type: "number", default: 24, description: "Pixels." } } });
    expect(fieldsOf(withSize, node)).toEqual([
      {
        key: "text",
        control: { kind: "text", multiline: true, maxLength: undefined },
        required: true,
        description: "What it says.",
        defaultValue: undefined,
      },
      {
        key: "size",
        control: { kind: "number", min: undefined, max: undefined, step: 1 },
        required: false,
        description: "Pixels.",
        defaultValue: 24,
      },
    ]);
    expect(fieldsOf(withSize, node, ["size"]).map((f) => f.key)).toEqual(["text"]);
  });
});

describe("the served schemas", () => {
  const cases = [
    {
      kind: "image",
      list: ["layers"],
      config: (layer: object) => ({ width: 100, height: 100, layers: [layer] }),
    },
    {
      kind: "video",
      list: ["clips", 0, "layers"],
      config: (layer: object) => ({ clips: [{ layers: [layer] }] }),
    },
    {
      kind: "video",
      list: ["globalLayers"],
      config: (layer: object) => ({ clips: [], globalLayers: [layer] }),
    },
  ] as const;

  it.each(cases)(
    "give every layer type of $kind's $list a panel whose every property has a control",
    ({ kind, list, config }) => {
      const served = schemaDoc(configJsonSchema(kind) as unknown as Schema);
      const types = layerTypes(served, schemaAt(served, config({ type: "x" }), list)!.items as Schema);
      expect(types.length).toBeGreaterThan(4);
      for (const type of types) {
        const node = schemaAt(served, config({ type }), [...list, 0]);
        expect(node, type).not.toBeNull();
        const fields = fieldsOf(served, node!);
        expect(fields.length, type).toBeGreaterThan(0);
        expect(fields.every((f) => f.control !== undefined)).toBe(true);
      }
    },
  );

  it("edits each video layer's files, colours, positions and choices with their controls", () => {
    const served = schemaDoc(configJsonSchema("video") as unknown as Schema);
    const panel = (layer: object) =>
      Object.fromEntries(
        fieldsOf(served, schemaAt(served, { clips: [{ layers: [layer] }] }, ["clips", 0, "layers", 0])!).map(
          (f) => [f.key, f.control],
        ),
      );
    const video = panel({ type: "video", path: "/v.mp4" });
    expect(video.path).toEqual({ kind: "file", categories: ["video"] });
    expect(video.position).toEqual({ kind: "position" });
    expect(video.resizeMode).toMatchObject({
      kind: "select",
      options: ["contain", "contain-blur", "cover", "stretch"],
    });
    expect(video.zoomDirection).toMatchObject({ kind: "select", nullable: true });
    const title = panel({ type: "title", text: "x" });
    expect([title.textColor, title.fontPath, title.googleFont]).toEqual([
      { kind: "color" },
      { kind: "file", categories: ["font"] },
      expect.objectContaining({ kind: "text", suggestions: "fonts" }),
    ]);
    expect(panel({ type: "linear-gradient" }).colors).toMatchObject({ kind: "colors" });
    expect(panel({ type: "audio", path: "/a.mp3" }).path).toEqual({ kind: "file", categories: ["audio"] });
    expect(panel({ type: "image", path: "/i.png" }).path).toEqual({ kind: "file", categories: ["image"] });
  });
});
