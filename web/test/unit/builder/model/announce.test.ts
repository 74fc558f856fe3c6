/**
 * What a screen reader hears after a change it cannot see (web/src/builder/model/announce.ts): list edits, undo and
 * redo, hiding, and keyboard moves on the canvas and timeline; nothing for typing, dragging or selecting.
 */
import { describe, expect, it } from "vitest";
import { describeChange } from "../../../../src/builder/model/announce.ts";
import { initialState, reduce, type Action, type EditorState } from "../../../../src/builder/model/store.ts";

const video = initialState({
  type: "video",
  config: { clips: [{ layers: [{ type: "pause" }, { type: "title", text: "x" }] }, { layers: [] }] },
});
const said = (action: Action, state: EditorState = video) =>
  describeChange(state, action, reduce(state, action));

describe("describeChange", () => {
  it("names list items as the lists number them, from 1", () => {
    expect(said({ type: "insert", list: ["clips", 0, "layers"], item: { type: "pause" } })).toBe(
      "Clip 1 layer 3 added and selected.",
    );
    expect(said({ type: "remove", list: ["clips"], index: 1 })).toBe("Clip 2 removed.");
    expect(said({ type: "move", list: ["clips", 0, "layers"], from: 1, to: 0 })).toBe(
      "Clip 1 layer 2 moved to position 1 of 2.",
    );
  });

  it("counts the steps left to undo or redo", () => {
    const edited = [
      { type: "remove", list: ["clips"], index: 1 },
      { type: "set", path: ["clips", 0, "duration"], value: 2 },
    ].reduce((s, a) => reduce(s, a as Action), video);
    expect(said({ type: "undo" }, edited)).toBe("Undone; 1 more step to undo.");
    const undone = reduce(reduce(edited, { type: "undo" }), { type: "undo" });
    expect(said({ type: "undo" }, reduce(edited, { type: "undo" }))).toBe("Undone; 0 more steps to undo.");
    expect(said({ type: "redo" }, undone)).toBe("Redone; 1 more step to redo.");
    // Nothing to undo: nothing changed, nothing said.
    expect(said({ type: "undo" })).toBeNull();
  });

  it("reads back keyboard moves and resizes, and says nothing of typing, dragging or selecting", () => {
    const image = initialState({ type: "image", config: { layers: [{ type: "text", x: 0, y: 0 }] } });
    expect(
      said(
        { type: "patch", path: ["layers", 0], values: { x: 120.456, y: 40 }, coalesce: "keys-0-move" },
        image,
      ),
    ).toBe("Layer 1: x 120.46, y 40.");
    expect(
      said(
        {
          type: "patch",
          path: ["layers", 0],
          values: { position: { x: 0.5, y: 0.25 } },
          coalesce: "keys-0-move",
        },
        image,
      ),
    ).toBe("Layer 1: position x 0.5, y 0.25.");
    expect(said({ type: "set", path: ["clips", 0, "duration"], value: 3, coalesce: "duration-keys-0" })).toBe(
      "Clip 1: duration 3.",
    );
    expect(said({ type: "set", path: ["layers", 0, "x"], value: 3, coalesce: "field" }, image)).toBeNull();
    expect(
      said({ type: "patch", path: ["layers", 0], values: { x: 3 }, coalesce: "drag-0" }, image),
    ).toBeNull();
    expect(said({ type: "select", path: ["layers", 0] }, image)).toBeNull();
    expect(said({ type: "toggle-hidden", index: 0 }, image)).toBe("Layer 1 hidden in the editor.");
  });
});
