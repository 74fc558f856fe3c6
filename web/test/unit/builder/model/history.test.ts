/** Undo and redo over whole documents (web/src/builder/model/history.ts), with bursts of changes made one step. */
import { describe, expect, it } from "vitest";
import { COALESCE_MS, commit, historyOf, redo, undo } from "../../../../src/builder/model/history.ts";

describe("history", () => {
  it("undoes and redoes whole states, and a new change drops what could be redone", () => {
    let h = historyOf("a");
    h = commit(commit(h, "b", undefined, 0), "c", undefined, 0);
    expect(undo(h)).toMatchObject({ past: ["a"], present: "b", future: ["c"] });
    expect(redo(undo(h))).toMatchObject({ past: ["a", "b"], present: "c", future: [] });
    expect(commit(undo(h), "d", undefined, 0)).toMatchObject({ past: ["a", "b"], present: "d", future: [] });
    expect(undo(historyOf("a")).present).toBe("a");
    expect(redo(h)).toBe(h);
  });

  it("merges changes under one key into one step while they come within COALESCE_MS of each other", () => {
    let h = historyOf(0);
    h = commit(h, 1, "drag", 1000);
    h = commit(h, 2, "drag", 1000 + COALESCE_MS - 1);
    expect(h.past).toEqual([0]);
    h = commit(h, 3, "drag", 1000 + 2 * COALESCE_MS);
    expect(h.past).toEqual([0, 2]);
    h = commit(h, 4, "typing", 1000 + 2 * COALESCE_MS);
    expect(h.past).toEqual([0, 2, 3]);
  });

  it("ignores a change to the present itself, and keeps the last 200 steps", () => {
    const h = historyOf({ a: 1 });
    expect(commit(h, h.present)).toBe(h);
    let long = historyOf(0);
    for (let i = 1; i <= 250; i++) long = commit(long, i, undefined, 0);
    expect([long.past.length, long.past[0]]).toEqual([200, 50]);
  });
});
