/**
 * CONTRIBUTING.md's recipe "Adding a layer type" stays true: each job's list names at most four files, each of which
 * exists (or, for a new module, its folder); the drawing tables hold exactly the types of the contract's tables
 * (the typecheck says so too, this says it where a table is read by name); the served JSON Schemas, and so the
 * builder's choices, list the tables' types; the builder's new layers are the tables' starters; and no other source
 * file lists layer types side by side or switches over them, which is what made a type touch a dozen files.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { root, sourceFiles } from "./source-tree.ts";
import { validateJobConfig } from "@media-render/contract/config";
import { IMAGE_LAYER_TYPES, newImageLayer } from "@media-render/contract/config/image-layer-types";
import { newVideoLayer, VIDEO_LAYER_TYPES } from "@media-render/contract/config/video-layer-types";
import { LAYER_TYPES } from "../renderer/src/video/layers/index.ts";
import { LAYER_HTML } from "@media-render/image-page/compile-html";
import { configJsonSchema } from "../src/schemas/json-schemas.ts";
import { layerTypes, schemaAt, schemaDoc, type Schema } from "../web/src/builder/schema/fields.ts";

const SOURCES = ["packages/contract/src", "src", "renderer/src", "web/src"];
const VIDEO_TYPES = Object.keys(VIDEO_LAYER_TYPES);
const IMAGE_TYPES = Object.keys(IMAGE_LAYER_TYPES);

/** A subsection of the recipe, and the file each numbered step touches (its first code span). */
const recipe = (title: string): string[] => {
  const doc = readFileSync(join(root, "CONTRIBUTING.md"), "utf8");
  const section = doc.indexOf("\n## Adding a layer type\n");
  expect(section).toBeGreaterThan(0);
  const start = doc.indexOf(`\n### ${title}\n`, section);
  expect(start, title).toBeGreaterThan(section);
  const end = doc.slice(start + 1).search(/\n##/);
  const text = doc.slice(start, end < 0 ? undefined : start + 1 + end);
  return [...text.matchAll(/^\d+\. `([^`]+)`/gm)].map((m) => m[1]!);
};

const RECIPES = {
  "A video layer type": [
    "packages/contract/src/config/video-layer-types.ts",
    "renderer/src/video/layers/index.ts",
  ],
  "An image layer type": [
    "packages/contract/src/config/image-layer-types.ts",
    "packages/image-page/src/compile-html.ts",
  ],
};

/** The TypeScript sources under `dir` (the recipes name no script). */
const walk = (dir: string): string[] => sourceFiles(dir).filter((path) => /\.tsx?$/.test(path));

/**
 * Names that are also job types, file kinds, format kinds or property names ("image", "video", "text"...): two of
 * them side by side are not a list of layer types unless a name of a layer type alone stands beside them.
 */
const SHARED_NAMES = new Set([
  "video",
  "audio",
  "image",
  "text",
  "html",
  "title",
  "gradient",
  "pause",
  "speech",
]);
const NAMES = [...new Set([...VIDEO_TYPES, ...IMAGE_TYPES])].map((n) => n.replace(/[-]/g, "\\-")).join("|");
const PAIR = new RegExp(`"(${NAMES})"\\s*[,|]\\s*"(${NAMES})"`, "g");
const CASE = new RegExp(`case "(${NAMES})":`, "g");

/** The lines of `text` that list layer types or switch over them (comments aside). */
const layerLists = (text: string): string[] =>
  text.split("\n").filter((line) => {
    if (/^\s*(\*|\/\/|\/\*)/.test(line)) return false;
    const pairs = [...line.matchAll(PAIR)].some(([, a, b]) => !SHARED_NAMES.has(a!) || !SHARED_NAMES.has(b!));
    const cases = [...line.matchAll(CASE)].some(([, name]) => !SHARED_NAMES.has(name!));
    return pairs || cases;
  });

describe("the recipe for adding a layer type", () => {
  for (const [title, required] of Object.entries(RECIPES))
    it(`${title}: touches at most four files, each there (a new module: its folder)`, () => {
      const files = recipe(title);
      expect(files.length).toBeLessThanOrEqual(4);
      for (const file of required) expect(files).toContain(file);
      for (const file of files)
        expect(existsSync(join(root, file.includes("<") ? dirname(file) : file)), file).toBe(true);
    });

  it("draws exactly the grammar's types, in its order", () => {
    expect(Object.keys(LAYER_TYPES)).toEqual(VIDEO_TYPES);
    expect(Object.keys(LAYER_HTML)).toEqual(IMAGE_TYPES);
  });

  it("serves the tables' types (the builder's choices), each starting as a layer the service accepts", () => {
    const video = schemaDoc(configJsonSchema("video") as unknown as Schema);
    const items = (path: (string | number)[], config: unknown) =>
      schemaAt(video, config, path)!.items as Schema;
    expect(layerTypes(video, items(["clips", 0, "layers"], { clips: [{ layers: [] }] }))).toEqual(
      VIDEO_TYPES,
    );
    expect(layerTypes(video, items(["globalLayers"], { globalLayers: [] }))).toEqual(
      VIDEO_TYPES.filter((t) => VIDEO_LAYER_TYPES[t as keyof typeof VIDEO_LAYER_TYPES].global === true),
    );
    const image = schemaDoc(configJsonSchema("image") as unknown as Schema);
    expect(layerTypes(image, schemaAt(image, { layers: [] }, ["layers"])!.items as Schema)).toEqual(
      IMAGE_TYPES,
    );

    const files: Record<string, string> = {
      video: "/video/2026-01-01/u/clip.mp4",
      audio: "/audio/2026-01-01/u/song.mp3",
      image: "/image/2026-01-01/u/photo.png",
    };
    const refused = [
      ...VIDEO_TYPES.map((type) =>
        validateJobConfig("video", {
          clips: [{ duration: 2, layers: [newVideoLayer(type, (k) => files[k])] }],
        }),
      ),
      ...IMAGE_TYPES.map((type) =>
        validateJobConfig("image", {
          width: 1280,
          height: 720,
          layers: [newImageLayer(type, { width: 1280, height: 720 }, (k) => files[k])],
        }),
      ),
    ].flatMap((result) => (result.valid ? [] : result.errors.map((e) => `${e.field}: ${e.message}`)));
    expect(refused).toEqual([]);
  });

  it("has the builder add the tables' layers, with no starters of its own", () => {
    const builder = walk("web/src").map((p) => [p, readFileSync(join(root, p), "utf8")] as const);
    expect(builder.filter(([, text]) => /const new\w*Layer\s*=/.test(text)).map(([p]) => p)).toEqual([]);
    const imports = (name: string, module: string) =>
      builder.filter(([, text]) =>
        new RegExp(
          `import \\{[^}]*\\b${name}\\b[^}]*\\} from "@media-render/contract/config/${module}"`,
        ).test(text),
      );
    expect(imports("newVideoLayer", "video-layer-types")).toHaveLength(1);
    expect(imports("newImageLayer", "image-layer-types")).toHaveLength(1);
  });

  it("leaves no list of layer types, and no switch over them, in any other source file", () => {
    const recipeFiles = Object.keys(RECIPES).flatMap(recipe);
    // A new module's folder holds the types' own modules (a family module names its types).
    const folders = recipeFiles.filter((f) => f.includes("<")).map((f) => `${dirname(f)}/`);
    const allowed = new Set(recipeFiles);
    const found = SOURCES.flatMap((dir) => walk(dir))
      .filter((p) => !allowed.has(p) && !folders.some((folder) => p.startsWith(folder)))
      .flatMap((p) => layerLists(readFileSync(join(root, p), "utf8")).map((line) => `${p}: ${line.trim()}`));
    expect(found).toEqual([]);
  });

  it("finds the scattered lists it exists to keep out", () => {
    for (const line of [
      '  if (["title", "subtitle", "news-title", "title-background", "slide-in-text", "speech"].includes(type))',
      '  if (["video", "audio", "detached-audio", "image", "image-overlay"].includes(type)) {',
      '    case "rectangle":',
      'type Shape = "rectangle" | "circle";',
    ])
      expect(layerLists(line)).toEqual([line]);
    for (const line of [
      'export const JOB_TYPES = ["image", "video"] as const;',
      '    case "text":',
      ' * (`"fill-color", "pause"`) in a comment',
      'const MULTILINE = new Set(["text", "html", "css"]);',
    ])
      expect(layerLists(line)).toEqual([]);
  });
});
