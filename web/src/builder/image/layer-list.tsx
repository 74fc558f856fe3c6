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

/** One layer of the list: its name and badges (condition, error, hidden), hide/show, move up or down, remove. */
const LayerRow = ({
  index: i,
  layer,
  count,
  selected,
  hidden,
  invalid,
  dispatch,
}: {
  index: number;
  layer: unknown;
  count: number;
  selected: boolean;
  hidden: boolean;
  invalid: boolean;
  dispatch: (action: Action) => void;
}) => (
  <li class={`${selected ? "selected" : ""}${invalid ? " invalid" : ""}`}>
    <button
      type="button"
      class="layer-name"
      aria-pressed={selected}
      onClick={() => dispatch({ type: "select", path: ["layers", i] })}
    >
      {`${i + 1}. ${layerLabel(layer)}`}
      {conditionSummary(layer) && <span class="badge">{conditionSummary(layer)}</span>}
      {invalid && <span class="badge s-failed">error</span>}
      {hidden && <span class="badge s-cancelled">hidden</span>}
    </button>
    <span class="row-actions">
      <button
        type="button"
        class="secondary small"
        aria-pressed={hidden}
        aria-label={`Hide layer ${i + 1} in the preview`}
        onClick={() => dispatch({ type: "toggle-hidden", index: i })}
      >
        {hidden ? "Show" : "Hide"}
      </button>
      <button
        type="button"
        class="secondary small"
        aria-label={`Move layer ${i + 1} up (towards the top)`}
        disabled={i === count - 1}
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
        {order.map((i) => (
          <LayerRow
            key={i}
            index={i}
            layer={layers[i]}
            count={layers.length}
            selected={i === selected}
            hidden={hidden.has(i)}
            invalid={hasErrorAt(issues, fieldName(["layers", i]))}
            dispatch={dispatch}
          />
        ))}
      </ol>
    </section>
  );
};
