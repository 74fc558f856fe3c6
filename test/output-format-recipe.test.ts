/**
 * CONTRIBUTING.md's recipe "Adding an output format" stays true: it names at most four files, each exists, and no
 * other source file (the Worker, the renderer, the contract, the web app; tests aside) compares a value with an
 * output format's name or lists format names, which is what made adding a format touch ten files. The input side
 * (what uploads and references may be, and how they are probed) lists extensions of its own: it is named below.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { root, sourceFiles } from "./source-tree.ts";
import { OUTPUT_FORMAT_NAMES, OUTPUT_FORMATS } from "@media-render/contract/output-formats";

const SOURCES = ["packages/contract/src", "src", "renderer/src", "web/src"];

/** Files that list extensions of the formats the service reads, not writes (input formats). */
const INPUT_SIDE: Record<string, string> = {
  "packages/contract/src/config/file-ref.ts":
    "the extensions a reference may end in (outputs' added from the table)",
  "src/files/sniff.ts": "the file names an upload's detected type agrees with",
  "renderer/src/probe/ffprobe-args.ts": "the extensions passed to ffprobe as a hint",
  "renderer/src/probe/header-facts.ts": "an input's codec by its header (an animated PNG's length)",
  "renderer/src/video/animated-webp.ts": "an input that is an animated WebP, by its header",
  "renderer/src/video/webp-decode.ts": "the input sharp must find a WebP",
};

/** The recipe's section of CONTRIBUTING.md, and the file each numbered step touches (its first code span). */
const recipe = (): { text: string; files: string[] } => {
  const doc = readFileSync(join(root, "CONTRIBUTING.md"), "utf8");
  const start = doc.indexOf("\n## Adding an output format\n");
  expect(start).toBeGreaterThan(0);
  const end = doc.indexOf("\n## ", start + 1);
  const text = doc.slice(start, end < 0 ? undefined : end);
  const files = [...text.matchAll(/^\d+\. `([^`]+)`/gm)].map((m) => m[1]!);
  return { text, files };
};

/** The TypeScript sources under `dir` (the recipes name no script). */
const walk = (dir: string): string[] => sourceFiles(dir).filter((path) => /\.tsx?$/.test(path));

const names = [...new Set(OUTPUT_FORMAT_NAMES.flatMap((f) => [f, ...OUTPUT_FORMATS[f].extensions]))].join(
  "|",
);
/** A comparison with a format's name, a `case` of one, two names listed side by side, or a name mapped to one. */
const FORMAT_LOGIC = new RegExp(
  [
    `[=!]==\\s*"(?:${names})"`,
    `"(?:${names})"\\s*[=!]==`,
    `case "(?:${names})":`,
    `"(?:${names})",\\s*"(?:${names})"`,
    `\\b(?:${names}):\\s*"(?:${names})"`,
  ].join("|"),
);

/** The lines of `text` that hold format logic. */
const formatLogic = (text: string): string[] => text.split("\n").filter((line) => FORMAT_LOGIC.test(line));

describe("the recipe for adding an output format", () => {
  it("touches at most four files, each of which exists", () => {
    const { files } = recipe();
    expect(files[0]).toBe("packages/contract/src/output-formats.ts");
    expect(files.length).toBeGreaterThan(0);
    expect(files.length).toBeLessThanOrEqual(4);
    for (const file of files) expect(existsSync(join(root, file)), file).toBe(true);
  });

  it("leaves no format comparison or list in any other source file", () => {
    const { files } = recipe();
    const allowed = new Set([...files, ...Object.keys(INPUT_SIDE)]);
    const found = SOURCES.flatMap((dir) => walk(dir))
      .map((p) => relative(root, join(root, p)).split(sep).join("/"))
      .filter((p) => !allowed.has(p))
      .flatMap((p) => formatLogic(readFileSync(join(root, p), "utf8")).map((line) => `${p}: ${line.trim()}`));
    expect(found).toEqual([]);
  });

  it("finds the scattered checks it exists to keep out", () => {
    for (const line of [
      'if (format === "webm") {',
      'const alpha = format === "webm" || (format === "mov" && config.alpha === true);',
      'const SPLIT_FORMATS: ReadonlySet<string> = new Set(["mp4", "mov"]);',
      '  if (job.type === "IMAGE" || ["gif", "png", "jpeg"].includes(job.outputFormat)) return "image";',
      '    case "m4a":',
      'const EXT = { png: "png", jpeg: "jpg" } as const;',
    ])
      expect(formatLogic(line)).toEqual([line]);
    for (const line of [
      '...["-f", "wav", "-i", path],',
      'await page.screenshot({ type: "png" });',
      "// mp4 or mov",
    ])
      expect(formatLogic(line)).toEqual([]);
  });
});
