/**
 * The builder's one reducer (web/src/builder/model/store.ts): every edit of the document, the selection that follows
 * the edited lists, the layers hidden in the image editor, and undo/redo. Hand-picked cases, then properties over
 * generated sequences of actions: the document only ever holds what the actions put there, a selection always names
 * an object of the config, and undoing every step gives the first document back.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../../../src/builder/model/paths.ts";
import {
  initialState,
  reduce,
  type Action,
  type Doc,
  type EditorState,
} from "../../../../src/builder/model/store.ts";

const image = (layers: JsonObject[]): Doc => ({ type: "image", config: { width: 100, height: 100, layers } });
const named = (...names: string[]) => names.map((name) => ({ type: "text", text: name }));
const run = (state: EditorState, ...actions: Action[]) => actions.reduce(reduce, state);
const texts = (state: EditorState) =>
  (state.history.present.config.layers as JsonObject[]).map((l) => l.text as string);
/** The texts of the layers hidden in the editor, in order. */
const hiddenTexts = (state: EditorState) => [...state.hidden].sort().map((i) => texts(state)[i]);

describe("edits", () => {
  it("sets, removes and patches values at a path, each one step of history", () => {
    let s = initialState(image(named("a", "b")));
    s = run(
      s,
      { type: "set", path: ["layers", 1, "x"], value: 10 },
      { type: "patch", path: ["layers", 0], values: { x: 1, y: 2 } },
      { type: "set", path: ["width"], value: undefined },
    );
    expect(s.history.present.config).toEqual({
      height: 100,
      layers: [
        { type: "text", text: "a", x: 1, y: 2 },
        { type: "text", text: "b", x: 10 },
      ],
    });
    expect(s.history.past).toHaveLength(3);
  });

  it("selects what it inserts, and keeps a selection on the same item when items move or go", () => {
    let s = initialState(image(named("a", "b", "c")));
    s = run(s, { type: "insert", list: ["layers"], item: { type: "text", text: "new" }, index: 1 });
    expect([texts(s), s.selection]).toEqual([
      ["a", "new", "b", "c"],
      ["layers", 1],
    ]);
    s = run(s, { type: "select", path: ["layers", 3] }, { type: "move", list: ["layers"], from: 3, to: 0 });
    expect([texts(s), s.selection]).toEqual([
      ["c", "a", "new", "b"],
      ["layers", 0],
    ]);
    s = run(s, { type: "remove", list: ["layers"], index: 1 });
    expect([texts(s), s.selection]).toEqual([
      ["c", "new", "b"],
      ["layers", 0],
    ]);
    // Removing the selected item leaves nothing selected.
    s = run(s, { type: "remove", list: ["layers"], index: 0 });
    expect(s.selection).toBeNull();
  });

  it("drops a selection an undo or a new document no longer has", () => {
    let s = initialState(image(named("a")));
    s = run(s, { type: "insert", list: ["layers"], item: { type: "text", text: "b" } }, { type: "undo" });
    expect([texts(s), s.selection]).toEqual([["a"], null]);
    s = run(s, { type: "select", path: ["layers", 0] }, { type: "replace", doc: image([]) });
    expect(s.selection).toBeNull();
  });

  it("makes a burst of changes under one key a single step, and a change to the same value none", () => {
    let s = initialState(image(named("a")));
    for (const x of [1, 2, 3])
      s = reduce(s, { type: "set", path: ["layers", 0, "x"], value: x, coalesce: "drag" });
    expect(s.history.past).toHaveLength(1);
    s = reduce(s, { type: "undo" });
    expect((s.history.present.config.layers as JsonObject[])[0]).toEqual({ type: "text", text: "a" });
    const same = reduce(s, { type: "replace", doc: s.history.present });
    expect(same.history).toBe(s.history);
  });
});

describe("layers hidden in the image editor", () => {
  it("follow their layers when layers are inserted, moved and removed", () => {
    let s = initialState(image(named("a", "b", "c", "d")));
    s = run(s, { type: "toggle-hidden", index: 1 }, { type: "toggle-hidden", index: 3 });
    expect(hiddenTexts(s)).toEqual(["b", "d"]);
    s = run(s, { type: "insert", list: ["layers"], item: { type: "text", text: "new" }, index: 0 });
    expect(hiddenTexts(s)).toEqual(["b", "d"]);
    s = run(s, { type: "move", list: ["layers"], from: 4, to: 0 });
    expect(hiddenTexts(s)).toEqual(["d", "b"]);
    s = run(s, { type: "remove", list: ["layers"], index: 0 });
    expect(hiddenTexts(s)).toEqual(["b"]);
  });

  it("follow their layers through undo and redo (before: the indexes stayed, hiding other layers)", () => {
    let s = initialState(image(named("a", "b", "c")));
    s = run(s, { type: "toggle-hidden", index: 2 }, { type: "remove", list: ["layers"], index: 0 });
    expect(hiddenTexts(s)).toEqual(["c"]);
    s = run(s, { type: "undo" });
    expect([texts(s), hiddenTexts(s)]).toEqual([["a", "b", "c"], ["c"]]);
    s = run(s, { type: "redo" });
    expect([texts(s), hiddenTexts(s)]).toEqual([["b", "c"], ["c"]]);
    // An edited layer stays hidden through the undo of its edit.
    s = run(s, { type: "set", path: ["layers", 1, "x"], value: 5 }, { type: "undo" });
    expect(hiddenTexts(s)).toEqual(["c"]);
  });

  it("are only ever indexes of the image config's layers", () => {
    let s = initialState(image(named("a", "b")));
    s = run(s, { type: "toggle-hidden", index: 1 }, { type: "replace", doc: image(named("x")) });
    expect([...s.hidden]).toEqual([]);
    s = run(
      s,
      { type: "toggle-hidden", index: 0 },
      { type: "replace", doc: { type: "video", config: { clips: [] } } },
    );
    expect([...s.hidden]).toEqual([]);
  });
});

/** Generated actions on an image config's layers (and the config's own fields), as the editor sends them. */
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    type: fc.constant("set" as const),
    path: fc.tuple(fc.constant("layers"), fc.nat(5), fc.constantFrom("x", "y", "text")),
    value: fc.oneof(fc.integer(), fc.string({ maxLength: 3 })),
    coalesce: fc.option(fc.constantFrom("keys-0", "drag"), { nil: undefined }),
  }),
  fc.record({
    type: fc.constant("insert" as const),
    list: fc.constant(["layers"]),
    item: fc.string({ maxLength: 3 }).map((text) => ({ type: "text", text })),
    index: fc.option(fc.nat(5), { nil: undefined }),
  }),
  fc.record({ type: fc.constant("remove" as const), list: fc.constant(["layers"]), index: fc.nat(5) }),
  fc.record({
    type: fc.constant("move" as const),
    list: fc.constant(["layers"]),
    from: fc.nat(5),
    to: fc.nat(5),
  }),
  fc.record({
    type: fc.constant("select" as const),
    path: fc.option(fc.tuple(fc.constant("layers"), fc.nat(5)), { nil: null }),
  }),
  fc.record({ type: fc.constant("toggle-hidden" as const), index: fc.nat(5) }),
  fc.constant({ type: "undo" as const }),
  fc.constant({ type: "redo" as const }),
);

describe("generated action sequences", () => {
  it("keep the selection on an object of the config, hidden indexes on layers, and undo back to the start", () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 30 }), (actions) => {
        const first = initialState(image(named("a", "b", "c")));
        let s = first;
        for (const a of actions) {
          // The editor selects, hides, moves and removes only items it lists (its buttons stop at the ends).
          const count = (s.history.present.config.layers as unknown[]).length;
          if (a.type === "select" && a.path && (a.path[1] as number) >= count) continue;
          if ((a.type === "toggle-hidden" || a.type === "remove") && a.index >= count) continue;
          if (a.type === "move" && Math.max(a.from, a.to) >= count) continue;
          s = reduce(s, a);
          const layers = s.history.present.config.layers as unknown[];
          expect(Array.isArray(layers)).toBe(true);
          const [list, index] = s.selection ?? [];
          expect(
            list === undefined || (list === "layers" && typeof index === "number" && index < layers.length),
          ).toBe(true);
          for (const i of s.hidden) expect(i).toBeLessThan(layers.length);
        }
        while (s.history.past.length) s = reduce(s, { type: "undo" });
        // Coalesced steps may have merged into the first one: what is left is the start or a step merged into it.
        const coalesced = actions.some((a) => "coalesce" in a && a.coalesce);
        expect(coalesced || s.history.present === first.history.present).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
