/** The JSON view's lines (web/src/builder/json/locate.ts): where a field is written, where the text stops being JSON. */
import { describe, expect, it } from "vitest";
import { fieldLocator, lineAt, offsetOfLine, syntaxProblem } from "../../../../src/builder/json/locate.ts";

const TEXT = `{
  "width": 100,
  "layers": [
    {
      "type": "text",
      "x": 5
    }
  ]
}`;

describe("lines", () => {
  it("finds the line of an offset and the offset of a line", () => {
    expect([lineAt(TEXT, 0), lineAt(TEXT, TEXT.indexOf('"x"')), lineAt(TEXT, 10_000)]).toEqual([1, 6, 9]);
    expect(offsetOfLine(TEXT, 2)).toBe(TEXT.indexOf('  "width"'));
    expect(offsetOfLine(TEXT, 99)).toBe(TEXT.length);
  });
});

describe("fieldLocator", () => {
  it("points at the line of a field's value, else of its nearest written parent", () => {
    const at = fieldLocator(TEXT);
    expect(at("config.layers[0].x")).toBe(6);
    expect(at("config.width")).toBe(2);
    // A missing property points at its object; a missing item at its list.
    expect(at("config.layers[0].y")).toBe(4);
    expect(at("config.layers[3].x")).toBe(3);
    expect(at("config")).toBe(1);
    expect(at("type")).toBeNull();
  });

  it("finds nothing in text that is not JSON at all", () => {
    expect(fieldLocator("")("config.width")).toBeNull();
  });
});

describe("syntaxProblem", () => {
  it("is null for JSON, and names the first problem's line otherwise (comments and trailing commas too)", () => {
    expect(syntaxProblem(TEXT)).toBeNull();
    expect(syntaxProblem('{\n  "a": 1,\n}')).toMatchObject({ line: 3 });
    expect(syntaxProblem('{\n  // note\n  "a": 1\n}')).toMatchObject({ line: 2 });
    expect(syntaxProblem('{\n  "a": 1\n  "b": 2\n}')?.message).toMatch(/^CommaExpected \(/);
  });
});
