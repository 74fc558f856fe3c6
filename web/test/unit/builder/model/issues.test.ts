/** The validator's errors and warnings looked up by the field a control edits (web/src/builder/model/issues.ts). */
import { describe, expect, it } from "vitest";
import { hasErrorAt, issuesOf, messagesAt, NO_ISSUES } from "../../../../src/builder/model/issues.ts";

const problems = [
  { field: "config.layers[0]", message: "is wrong as a whole" },
  { field: "config.layers[0].x", message: "must be a number" },
  { field: "config.layers[0].position.x", message: "must be at most 1" },
  { field: "config.layers[10].x", message: "elsewhere" },
  { message: "no field" },
];

describe("messagesAt", () => {
  it("gives a field's own messages, and those inside it led by their own field", () => {
    expect(messagesAt(problems, "config.layers[0]")).toEqual([
      "is wrong as a whole",
      "x: must be a number",
      "position.x: must be at most 1",
    ]);
    expect(messagesAt(problems, "config.layers[0]", true)).toEqual(["is wrong as a whole"]);
    expect(messagesAt(problems, "config.layers[1]")).toEqual([]);
  });

  it("says whether anything at or inside a field has an error", () => {
    const issues = issuesOf({ errors: problems, warnings: [] } as never);
    expect([hasErrorAt(issues, "config.layers[0].position"), hasErrorAt(issues, "config.width")]).toEqual([
      true,
      false,
    ]);
    expect(issuesOf(undefined)).toBe(NO_ISSUES);
  });
});
