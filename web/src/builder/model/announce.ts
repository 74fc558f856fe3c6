/**
 * What a screen reader hears after a change it cannot see: the builder's canvas, timeline and lists change the
 * config without moving the focus, so each such action is described in words and spoken by one polite live region
 * (builder.tsx). Changes typed into a field are not announced (the field itself reads back); neither are pointer
 * drags (each pointer move would interrupt the last) nor selections (the focus moves and reads the element).
 */
import { getIn, isObject, type Path } from "./paths.ts";
import type { Action, EditorState } from "./store.ts";

/** Singular nouns of the config's lists, by their key. */
const NOUNS: Record<string, string> = {
  layers: "layer",
  clips: "clip",
  globalLayers: "global layer",
  audioTracks: "audio track",
};

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "clip 2 layer 3" for ["clips", 1, "layers", 2]: the path's items numbered from 1 as the lists show them. */
const itemName = (path: Path): string => {
  const words: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const key = path[i];
    const next = path[i + 1];
    if (typeof key === "string" && typeof next === "number") {
      words.push(`${NOUNS[key] ?? key} ${next + 1}`);
      i++;
    } else if (typeof key === "string") words.push(key);
  }
  return words.join(" ") || "the config";
};

/** `x 120, y 40` (`position x 0.5, y 0.25`): the numbers and names an action set. */
const values = (entries: [string, unknown][]): string =>
  entries
    .map(([k, v]) =>
      typeof v === "number"
        ? `${k} ${Math.round(v * 100) / 100}`
        : typeof v === "string"
          ? `${k} ${v}`
          : isObject(v)
            ? `${k} ${values(Object.entries(v))}`
            : "",
    )
    .filter(Boolean)
    .join(", ");

/** Whether a change came from a key press on the canvas or the timeline (their coalescing keys say so). */
const byKeyboard = (coalesce: string | undefined) =>
  coalesce !== undefined && (coalesce.startsWith("keys-") || coalesce.startsWith("duration-keys-"));

/** The sentence for `action` taking `before` to `after`, or null when nothing is to be said. */
export const describeChange = (before: EditorState, action: Action, after: EditorState): string | null => {
  if (after === before) return null;
  switch (action.type) {
    case "undo":
    case "redo": {
      const left = action.type === "undo" ? after.history.past.length : after.history.future.length;
      const word = action.type === "undo" ? "Undone" : "Redone";
      return `${word}; ${left} more step${left === 1 ? "" : "s"} to ${action.type}.`;
    }
    case "insert": {
      const list = getIn(after.history.present.config, action.list);
      const index = action.index ?? (Array.isArray(list) ? list.length - 1 : 0);
      return `${capital(itemName([...action.list, index]))} added and selected.`;
    }
    case "remove":
      return `${capital(itemName([...action.list, action.index]))} removed.`;
    case "move": {
      const list = getIn(after.history.present.config, action.list);
      const count = Array.isArray(list) ? list.length : 0;
      return `${capital(itemName([...action.list, action.from]))} moved to position ${action.to + 1} of ${count}.`;
    }
    case "toggle-hidden":
      return `Layer ${action.index + 1} ${after.hidden.has(action.index) ? "hidden in the editor" : "shown"}.`;
    case "patch":
      return byKeyboard(action.coalesce)
        ? `${capital(itemName(action.path))}: ${values(Object.entries(action.values))}.`
        : null;
    case "set": {
      if (!byKeyboard(action.coalesce)) return null;
      const key = action.path.at(-1);
      const owner = getIn(after.history.present.config, action.path.slice(0, -1));
      return isObject(owner) && typeof key === "string"
        ? `${capital(itemName(action.path.slice(0, -1)))}: ${values([[key, action.value]])}.`
        : null;
    }
    default:
      return null;
  }
};
