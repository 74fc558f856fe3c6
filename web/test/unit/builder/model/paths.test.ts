/**
 * Addresses inside a config (web/src/builder/model/paths.ts): immutable get/set/insert/move by a path of keys, and
 * the API's field names (`config.layers[2].x`) both ways. Properties over generated JSON and paths: a set is read
 * back, nothing else changes (and is shared, not copied), and field names round-trip.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  fieldName,
  getIn,
  insertAt,
  moveItem,
  pathOfField,
  setIn,
  within,
  type Path,
} from "../../../../src/builder/model/paths.ts";

describe("getIn and setIn", () => {
  const config = { layers: [{ x: 1 }, { x: 2 }], width: 10 };

  it("reads a value by its path, or undefined where the path leads nowhere", () => {
    expect([
      getIn(config, ["layers", 1, "x"]),
      getIn(config, ["layers", 5]),
      getIn(config, ["width", "x"]),
    ]).toEqual([2, undefined, undefined]);
    expect(getIn(config, [])).toBe(config);
  });

  it("sets a value without touching the original, sharing what did not change", () => {
    const next = setIn(config, ["layers", 0, "x"], 5) as typeof config;
    expect(next).toEqual({ layers: [{ x: 5 }, { x: 2 }], width: 10 });
    expect(config.layers[0]).toEqual({ x: 1 });
    expect(next.layers[1]).toBe(config.layers[1]);
  });

  it("removes a key or an array item for undefined, and creates what is missing on the way", () => {
    expect(setIn(config, ["width"], undefined)).toEqual({ layers: config.layers });
    expect(setIn(config, ["layers", 0], undefined)).toEqual({ layers: [{ x: 2 }], width: 10 });
    expect(setIn({}, ["defaults", "layer", "opacity"], 0.5)).toEqual({
      defaults: { layer: { opacity: 0.5 } },
    });
    expect(setIn({}, ["list", 0], "a")).toEqual({ list: ["a"] });
  });
});

describe("lists", () => {
  it("inserts at an index or the end, and moves an item, ignoring a move out of the list", () => {
    const root = { items: ["a", "b", "c"] };
    expect(insertAt(root, ["items"], "x", 1)).toEqual({ items: ["a", "x", "b", "c"] });
    expect(insertAt(root, ["items"], "x")).toEqual({ items: ["a", "b", "c", "x"] });
    expect(insertAt({}, ["items"], "x")).toEqual({ items: ["x"] });
    expect(moveItem(root, ["items"], 0, 2)).toEqual({ items: ["b", "c", "a"] });
    expect(moveItem(root, ["items"], 2, 0)).toEqual({ items: ["c", "a", "b"] });
    expect(moveItem(root, ["items"], 0, 3)).toBe(root);
  });
});

describe("field names", () => {
  it("writes a path as the API's field name and reads one back", () => {
    expect(fieldName(["layers", 2, "x"])).toBe("config.layers[2].x");
    expect(fieldName([])).toBe("config");
    expect(pathOfField("config.clips[0].layers[1].position.x")).toEqual([
      "clips",
      0,
      "layers",
      1,
      "position",
      "x",
    ]);
    expect(pathOfField("config")).toEqual([]);
    expect(pathOfField("type")).toBeNull();
    expect(pathOfField("configuration.x")).toBeNull();
  });

  it("says whether a field is another or inside it", () => {
    expect([
      within("config.layers[2]", "config.layers[2]"),
      within("config.layers[2].x", "config.layers[2]"),
      within("config.layers[2][0]", "config.layers[2]"),
      within("config.layers[20]", "config.layers[2]"),
    ]).toEqual([true, true, true, false]);
  });
});

const key = fc.oneof(fc.nat(5), fc.constantFrom("layers", "x", "y", "position", "clips", "defaults"));
const path = fc.array(key, { maxLength: 6 }) as fc.Arbitrary<Path>;

describe("over generated JSON and paths", () => {
  it("reads back what it set, leaves the input as it was, and shares every branch off the path", () => {
    fc.assert(
      fc.property(fc.jsonValue(), path, fc.jsonValue(), (root, at, value) => {
        const before = JSON.stringify(root);
        const next = setIn(root, at, value);
        expect(JSON.stringify(root)).toBe(before);
        expect(getIn(next, at)).toEqual(value);
        // A sibling of the path's first key is the very same object.
        const object =
          typeof at[0] === "string" && typeof root === "object" && root !== null && !Array.isArray(root);
        const siblings = object ? Object.entries(root).filter(([k]) => k !== at[0]) : [];
        expect(siblings.filter(([k, v]) => (next as Record<string, unknown>)[k] !== v)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it("round-trips a path through its field name", () => {
    fc.assert(
      fc.property(path, (at) => {
        expect(pathOfField(fieldName(at))).toEqual(at);
      }),
      { numRuns: 300 },
    );
  });
});
