/**
 * client/src/schema.ts is what scripts/lib/openapi-to-ts.mjs makes of the committed client/openapi.json (which
 * test/worker/docs.test.ts holds to the document the Worker serves), and the generator's types are right.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openApiToTs, tsType } from "../../scripts/lib/openapi-to-ts.mjs";

const root = join(import.meta.dirname, "..", "..");

describe("client/src/schema.ts", () => {
  it("is generated from client/openapi.json (else run npm run client:generate)", () => {
    const doc = JSON.parse(readFileSync(join(root, "client", "openapi.json"), "utf8"));
    expect(readFileSync(join(root, "client", "src", "schema.ts"), "utf8")).toBe(openApiToTs(doc));
  });

  it("types each JSON Schema form the document uses", () => {
    expect(tsType({ type: "string" })).toBe("string");
    expect(tsType({ type: ["integer", "null"] })).toBe("number | null");
    expect(tsType({ enum: ["a", "b"] })).toBe('"a" | "b"');
    expect(tsType({ const: false })).toBe("false");
    expect(tsType({ $ref: "#/components/schemas/ImageConfig.Color" })).toBe("ImageConfigColor");
    expect(tsType({ type: "array", items: { type: "number" } })).toBe("Array<number>");
    expect(tsType({ anyOf: [{ type: "string" }, { type: "number" }] })).toBe("(string) | (number)");
    expect(
      tsType({
        type: "object",
        required: ["a"],
        properties: { a: { type: "string" }, "b-c": { type: "number" } },
      }),
    ).toBe('{\n  a: string;\n  "b-c"?: number;\n}');
    expect(tsType({ type: "object", additionalProperties: { type: "string" } })).toBe(
      "{\n  [key: string]: string;\n}",
    );
    expect(tsType({ type: "object" })).toBe("{\n  [key: string]: unknown;\n}");
    expect(tsType({ not: {} })).toBe("{\n  [key: string]: unknown;\n}");
  });
});
