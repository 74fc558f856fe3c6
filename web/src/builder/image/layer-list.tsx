/**
 * The layers of an image config, top first (the config draws index 0 at the bottom): select, hide in the editor,
 * move up or down, remove; and a new layer of any type the schema lists, placed in the middle of the canvas.
 */
import { useState } from "preact/hooks";
import { hasErrorAt, type Issues } from "../model/issues.ts";
import { fieldName, isObject } from "../model/paths.ts";
import type { Action } from "../model/store.ts";
import { conditionSummary } from "../panels/condition-input.tsx";

/** A short name for a layer: its type and what it shows. */
export const layerLabel = (layer: unknown): string => {
  if (!isObject(layer)) return "not an object";
  const type = typeof layer.type === "string" ? layer.type : "no type";
  const what =
    typeof layer.text === "string"
      ? `"${layer.text.length > 24 ? `${layer.text.slice(0, 24)}…` : layer.text}"`
      : typeof layer.path === "string"
        ? layer.path.split("/").pop()
        : typeof layer.fill === "string"
          ? layer.fill
          : typeof layer.color === "string"
            ? layer.color
            : "";
  return what ? `${type} ${what}` : type;
};

export const LayerList = ({
  layers,
  types,
  selected,
  hidden,
  issues,
  dispatch,
  onAdd,
}: {
  layers: unknown[];
  types: string[];
  selected: number | null;
  hidden: ReadonlySet<number>;
  issues: Issues;
  dispatch: (action: Action) => void;
  onAdd: (type: string) => void;
}) => {
  const [type, setType] = useState(types[0] ?? "text");
  const order = layers.map((_, i) => i).reverse();
  return (
    <section class="layers" aria-labelledby="layers-title">
      <h2 id="layers-title">Layers</h2>
      <p class="hint">Top first. Hidden layers are hidden here only: they still render.</p>
      <form
        class="add-layer"
        onSubmit={(e) => {
          e.preventDefault();
          onAdd(type);
        }}
      >
        <label for="new-layer-type">New layer</label>
        <select id="new-layer-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
          {types.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
        <button type="submit" class="small" disabled={layers.length >= 50}>
          Add layer
        </button>
      </form>
      <ol class="layer-list" reversed>
        {order.map((i) => {
          const label = `${i + 1}. ${layerLabel(layers[i])}`;
          const invalid = hasErrorAt(issues, fieldName(["layers", i]));
          return (
            <li key={i} class={`${i === selected ? "selected" : ""}${invalid ? " invalid" : ""}`}>
              <button
                type="button"
                class="layer-name"
                aria-pressed={i === selected}
                onClick={() => dispatch({ type: "select", path: ["layers", i] })}
              >
                {label}
                {conditionSummary(layers[i]) && <span class="badge">{conditionSummary(layers[i])}</span>}
                {invalid && <span class="badge s-failed">error</span>}
                {hidden.has(i) && <span class="badge s-cancelled">hidden</span>}
              </button>
              <span class="row-actions">
                <button
                  type="button"
                  class="secondary small"
                  aria-pressed={hidden.has(i)}
                  aria-label={`Hide layer ${i + 1} in the preview`}
                  onClick={() => dispatch({ type: "toggle-hidden", index: i })}
                >
                  {hidden.has(i) ? "Show" : "Hide"}
                </button>
                <button
                  type="button"
                  class="secondary small"
                  aria-label={`Move layer ${i + 1} up (towards the top)`}
                  disabled={i === layers.length - 1}
                  onClick={() => dispatch({ type: "move", list: ["layers"], from: i, to: i + 1 })}
                >
                  ↑
                </button>
                <button
                  type="button"
                  class="secondary small"
                  aria-label={`Move layer ${i + 1} down (towards the bottom)`}
                  disabled={i === 0}
                  onClick={() => dispatch({ type: "move", list: ["layers"], from: i, to: i - 1 })}
                >
                  ↓
                </button>
                <button
                  type="button"
                  class="danger small"
                  aria-label={`Remove layer ${i + 1}`}
                  onClick={() => dispatch({ type: "remove", list: ["layers"], index: i })}
                >
                  ✕
                </button>
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
};
