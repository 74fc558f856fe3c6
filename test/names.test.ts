/**
 * Names say what the thing is (CONTRIBUTING.md, "Names"): no single-letter binding in source code outside a
 * tiny lambda. A binding is a variable, a parameter, a catch parameter or a function's name; a tiny lambda is an
 * arrow or function expression of at most three lines, where `(a, b) => a.start - b.start` reads at a glance.
 *
 * Letters that are names in their own right stay allowed everywhere: `_` (unused), `i`, `j`, `k` (an index or a
 * counter), `x`, `y`, `z`, `w`, `h` (a point's coordinates, a box's width and height, in drawing code), `e` as a
 * parameter (the error caught, the event handled) and, in the Worker (`src/`), `c` as a parameter (Hono's context,
 * the framework's own name for it).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseSync } from "oxc-parser";
import { describe, expect, it } from "vitest";
import { lineFinder, root, SOURCE_ROOTS, sourceFiles } from "./source-tree.ts";

const ALLOWED = new Set(["_", "i", "j", "k", "x", "y", "z", "w", "h"]);
const TINY_LAMBDA_LINES = 3;

interface Syntax {
  type?: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

interface Identifier extends Syntax {
  type: "Identifier";
  name: string;
}

const isIdentifier = (value: unknown): value is Identifier =>
  !!value && typeof value === "object" && (value as Syntax).type === "Identifier";

/** The single-letter bindings of `text` (the source file at `path`), each as `path:line name`. */
const shortNames = (path: string, text: string): string[] => {
  const lineOf = lineFinder(text);
  const found: string[] = [];
  const flag = (id: unknown, role: "variable" | "parameter" | "catch" | "function") => {
    if (!isIdentifier(id) || id.name.length !== 1 || ALLOWED.has(id.name)) return;
    if (id.name === "e" && (role === "parameter" || role === "catch")) return;
    if (id.name === "c" && role === "parameter" && path.startsWith("src/")) return;
    found.push(`${path}:${lineOf(id.start)} ${id.name}`);
  };
  const visit = (node: unknown, inTinyLambda: boolean): void => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach((child) => visit(child, inTinyLambda));
    const syntax = node as Syntax;
    let tiny = inTinyLambda;
    if (/Function/.test(syntax.type ?? "")) {
      const lines = lineOf(syntax.end) - lineOf(syntax.start) + 1;
      tiny ||= syntax.type !== "FunctionDeclaration" && lines <= TINY_LAMBDA_LINES;
      if (syntax.type === "FunctionDeclaration") flag(syntax.id, "function");
      if (!tiny) {
        const params = syntax.params as { items?: unknown[] } | unknown[] | undefined;
        for (const param of Array.isArray(params) ? params : (params?.items ?? [])) {
          const left = (param as Syntax).type === "AssignmentPattern" ? (param as Syntax).left : param;
          flag(left, "parameter");
        }
      }
    }
    if (!tiny && syntax.type === "VariableDeclarator") flag(syntax.id, "variable");
    if (!tiny && syntax.type === "CatchClause") flag(syntax.param, "catch");
    for (const [key, value] of Object.entries(syntax))
      if (key !== "type" && typeof value === "object") visit(value, tiny);
  };
  visit(parseSync(path, text).program, false);
  return found;
};

describe("names", () => {
  const found = SOURCE_ROOTS.flatMap(sourceFiles)
    .filter((path) => path !== "client/src/schema.ts") // generated (npm run client:generate)
    .flatMap((path) => shortNames(path, readFileSync(join(root, path), "utf8")));

  it("finds single-letter bindings outside tiny lambdas, and lets idioms and tiny lambdas be", () => {
    const sample = [
      "const f = (a) => a;",
      "function g(p, e, c, i) {",
      "  const s = p.map((v) => v * 2);",
      "  try { return s; } catch (e) { return null; }",
      "}",
      "const long = (q) => {",
      "  const x = q;",
      "  for (const n of x) {}",
      "  return x;",
      "};",
    ].join("\n");
    expect(shortNames("renderer/src/sample.ts", sample)).toEqual([
      "renderer/src/sample.ts:1 f",
      "renderer/src/sample.ts:2 g",
      "renderer/src/sample.ts:2 p",
      "renderer/src/sample.ts:2 c",
      "renderer/src/sample.ts:3 s",
      "renderer/src/sample.ts:6 q",
      "renderer/src/sample.ts:8 n",
    ]);
    expect(shortNames("src/sample.ts", "function g(c) {\n  return c;\n}\n")).toEqual(["src/sample.ts:1 g"]);
  });

  it("has no single-letter name outside a tiny lambda", () => {
    expect(found, "name these for what they hold").toEqual([]);
  });
});
