/**
 * The variables of `mrs templates render` (client/src/cli/templates.ts): a --vars file's object, each --var over it,
 * and a --var that is not name=value refused as a usage mistake.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/cli/command-line.ts";
import { variablesOf } from "../../../src/cli/templates.ts";

describe("a template render's variables", () => {
  it("takes the file's object, then each --var over it (a value may hold '=')", () => {
    const file = join(mkdtempSync(join(tmpdir(), "mrs-vars-")), "vars.json");
    writeFileSync(file, JSON.stringify({ title: "Hello", count: 3 }));
    expect(variablesOf(file, ["title=Bye", "query=a=b"])).toEqual({ title: "Bye", count: 3, query: "a=b" });
  });

  it("answers no variables without either", () => {
    expect(variablesOf(undefined)).toEqual({});
  });

  it.each(["title", "=x", ""])("refuses --var %j", (pair) => {
    expect(() => variablesOf(undefined, [pair])).toThrow(UsageError);
    expect(() => variablesOf(undefined, [pair])).toThrow(
      `--var takes name=value, not ${JSON.stringify(pair)}`,
    );
  });
});
