/**
 * The builder's state: the document (job type and config) with its undo history, what is selected (a path to an
 * object of the config: a layer, a clip, a clip's layer, an audio track; [] is the config itself) and which image
 * layers are hidden in the editor. Every change goes through `reduce`, one pure function.
 */
import { commit, historyOf, redo, undo, type History } from "./history.ts";
import {
  getIn,
  insertAt,
  isObject,
  moveItem,
  setIn,
  type Json,
  type JsonObject,
  type Path,
} from "./paths.ts";

export type JobKind = "image" | "video";

export interface Doc {
  type: JobKind;
  config: JsonObject;
}

export interface EditorState {
  history: History<Doc>;
  /** The selected object's path in the config, or null. */
  selection: Path | null;
  /** Image layers hidden in the editor's preview (indexes); they stay in the config and render. */
  hidden: ReadonlySet<number>;
}

export type Action =
  /** Sets (undefined: removes) the value at `path`. */
  | { type: "set"; path: Path; value: unknown; coalesce?: string }
  /** Sets several keys of the object at `path` at once (a drag moves x and y together). */
  | { type: "patch"; path: Path; values: Record<string, unknown>; coalesce?: string }
  /** A whole new document (the JSON view, an example, the type switch). */
  | { type: "replace"; doc: Doc; coalesce?: string }
  | { type: "insert"; list: Path; item: unknown; index?: number }
  | { type: "remove"; list: Path; index: number }
  | { type: "move"; list: Path; from: number; to: number }
  | { type: "undo" }
  | { type: "redo" }
  | { type: "select"; path: Path | null }
  | { type: "toggle-hidden"; index: number };

export const initialState = (doc: Doc): EditorState => ({
  history: historyOf(doc),
  selection: null,
  hidden: new Set(),
});

const startsWith = (path: Path, prefix: Path) =>
  prefix.length <= path.length && prefix.every((k, i) => path[i] === k);

/** A path after the item at `list[index]` moved to `list[to]` (to = -1: removed). */
const shift = (path: Path | null, list: Path, from: number, to: number): Path | null => {
  if (!path || !startsWith(path, list) || path.length === list.length) return path;
  const at = path[list.length];
  if (typeof at !== "number") return path;
  let next = at;
  if (at === from) next = to;
  else if (to === -1 && at > from) next = at - 1;
  else if (to !== -1 && from < at && at <= to) next = at - 1;
  else if (to !== -1 && to <= at && at < from) next = at + 1;
  if (next === -1) return list.length ? list : null;
  return [...list, next, ...path.slice(list.length + 1)];
};

const isImageLayers = (doc: Doc, list: Path) =>
  doc.type === "image" && list.length === 1 && list[0] === "layers";

const shiftHidden = (hidden: ReadonlySet<number>, from: number, to: number) =>
  new Set(
    [...hidden]
      .map((i) => (shift(["layers", i], ["layers"], from, to)?.[1] as number | undefined) ?? -1)
      .filter((i) => i >= 0),
  );

/** An image document's layers (none for a video). */
const imageLayers = (doc: Doc): unknown[] =>
  doc.type === "image" && Array.isArray(doc.config.layers) ? doc.config.layers : [];

/**
 * `hidden` (indexes of `before`'s image layers) carried to `after`, a document of the history (undo, redo): each to
 * where the very same layer object is (history keeps objects, so an undone removal brings the layer back), else to
 * its own index when the count of layers is unchanged (an undone edit of that layer).
 */
const followHidden = (before: Doc, after: Doc, hidden: ReadonlySet<number>): ReadonlySet<number> => {
  const [from, to] = [imageLayers(before), imageLayers(after)];
  const next = new Set<number>();
  for (const i of hidden) {
    const at = to.indexOf(from[i]);
    if (at >= 0) next.add(at);
    else if (from.length === to.length && i < to.length) next.add(i);
  }
  return next;
};

const withConfig = (doc: Doc, config: Json): Doc => ({ ...doc, config: config as JsonObject });

/** Whether the selection still names an object of the config (after undo or a JSON edit it may not). */
const valid = (doc: Doc, selection: Path | null) =>
  selection === null || selection.length === 0 || isObject(getIn(doc.config, selection));

export const reduce = (state: EditorState, action: Action): EditorState => {
  const { history } = state;
  const doc = history.present;
  const to = (next: Doc, key?: string, extra: Partial<EditorState> = {}): EditorState => {
    const h = commit(history, next, key);
    const selection = extra.selection !== undefined ? extra.selection : state.selection;
    return { ...state, ...extra, history: h, selection: valid(h.present, selection) ? selection : null };
  };
  switch (action.type) {
    case "set":
      return to(withConfig(doc, setIn(doc.config, action.path, action.value)), action.coalesce);
    case "patch": {
      let config: Json = doc.config;
      for (const [key, value] of Object.entries(action.values))
        config = setIn(config, [...action.path, key], value);
      return to(withConfig(doc, config), action.coalesce);
    }
    case "replace": {
      const layers = action.doc.config.layers;
      const count = Array.isArray(layers) ? layers.length : 0;
      const hidden = new Set([...state.hidden].filter((i) => i < count && action.doc.type === "image"));
      return to(action.doc, action.coalesce, { hidden });
    }
    case "insert": {
      const list = getIn(doc.config, action.list);
      const index = action.index ?? (Array.isArray(list) ? list.length : 0);
      const config = insertAt(doc.config, action.list, action.item, index);
      const hidden = isImageLayers(doc, action.list)
        ? new Set([...state.hidden].map((i) => (i >= index ? i + 1 : i)))
        : state.hidden;
      return to(withConfig(doc, config), undefined, { selection: [...action.list, index], hidden });
    }
    case "remove": {
      const config = setIn(doc.config, [...action.list, action.index], undefined);
      const hidden = isImageLayers(doc, action.list)
        ? shiftHidden(state.hidden, action.index, -1)
        : state.hidden;
      return to(withConfig(doc, config), undefined, {
        selection: shift(state.selection, action.list, action.index, -1),
        hidden,
      });
    }
    case "move": {
      const { from, to: target } = action;
      const config = moveItem(doc.config, action.list, from, target);
      const hidden = isImageLayers(doc, action.list) ? shiftHidden(state.hidden, from, target) : state.hidden;
      return to(withConfig(doc, config), undefined, {
        selection: shift(state.selection, action.list, from, target),
        hidden,
      });
    }
    case "undo":
    case "redo": {
      const h = action.type === "undo" ? undo(history) : redo(history);
      if (h === history) return state;
      return {
        ...state,
        history: h,
        selection: valid(h.present, state.selection) ? state.selection : null,
        hidden: followHidden(doc, h.present, state.hidden),
      };
    }
    case "select":
      return { ...state, selection: action.path };
    case "toggle-hidden": {
      const hidden = new Set(state.hidden);
      if (!hidden.delete(action.index)) hidden.add(action.index);
      return { ...state, hidden };
    }
  }
};
