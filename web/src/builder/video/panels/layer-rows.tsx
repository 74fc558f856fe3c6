/**
 * A list of video layers (a clip's `layers`, or `globalLayers`) as rows: select one for its panel, move it, remove
 * it, or add a new layer of a type the schema allows in that list.
 */
import { useState } from "preact/hooks";
import { newVideoLayer } from "@media-render/contract/config/video-layer-types";
import { getIn, isObject, type JsonObject, type Path } from "../../model/paths.ts";
import { conditionSummary } from "../../panels/condition-input.tsx";
import type { PanelContext } from "../../panels/property-panel.tsx";
import { layerTypes, schemaAt, type Schema } from "../../schema/fields.ts";

/** The layer types the list at `path` takes, as its schema lists them. */
const itemTypes = (ctx: PanelContext, path: Path): string[] => {
  const schema = schemaAt(ctx.schemas, ctx.config, path);
  const items =
    schema?.items ?? (schema?.anyOf as Schema[] | undefined)?.find((s) => s.type === "array")?.items;
  return items ? layerTypes(ctx.schemas, items as Schema) : [];
};

/** The layers of a list (a clip's, or the global ones): select, reorder, remove, add one of the types it takes. */
export const LayerRows = ({
  ctx,
  list,
  fileFor,
  title,
}: {
  ctx: PanelContext;
  list: Path;
  fileFor: (category: string) => string | undefined;
  title: string;
}) => {
  const types = itemTypes(ctx, list);
  const [type, setType] = useState(types[0] ?? "title");
  const value = getIn(ctx.config, list);
  const layers = Array.isArray(value) ? value : [];
  const id = `add-${list.join("-")}`;
  if (value !== undefined && !Array.isArray(value))
    return (
      <div>
        <p class="hint">This clip's layers are one object (editly's short form).</p>
        <button
          type="button"
          class="secondary small"
          onClick={() => ctx.dispatch({ type: "set", path: list, value: [value] })}
        >
          Make it a list
        </button>
      </div>
    );
  return (
    <div class="layer-rows">
      <h3>{title}</h3>
      <ol class="layer-list">
        {layers.map((layer, i) => {
          const layerObject = isObject(layer) ? layer : {};
          const label = `${i + 1}. ${String(layerObject.type ?? "?")}${typeof layerObject.text === "string" ? ` “${layerObject.text}”` : ""}`;
          return (
            <li key={i}>
              <button
                type="button"
                class="layer-name"
                onClick={() => ctx.dispatch({ type: "select", path: [...list, i] })}
              >
                {label}
                {conditionSummary(layer) && <span class="badge">{conditionSummary(layer)}</span>}
              </button>
              <span class="row-actions">
                <button
                  type="button"
                  class="secondary small"
                  aria-label={`Move ${title.toLowerCase()} ${i + 1} earlier (further down)`}
                  disabled={i === 0}
                  onClick={() => ctx.dispatch({ type: "move", list, from: i, to: i - 1 })}
                >
                  ↑
                </button>
                <button
                  type="button"
                  class="secondary small"
                  aria-label={`Move ${title.toLowerCase()} ${i + 1} later (further up)`}
                  disabled={i === layers.length - 1}
                  onClick={() => ctx.dispatch({ type: "move", list, from: i, to: i + 1 })}
                >
                  ↓
                </button>
                <button
                  type="button"
                  class="danger small"
                  aria-label={`Remove ${title.toLowerCase()} ${i + 1}`}
                  onClick={() => ctx.dispatch({ type: "remove", list, index: i })}
                >
                  ✕
                </button>
              </span>
            </li>
          );
        })}
      </ol>
      <form
        class="add-layer"
        onSubmit={(e) => {
          e.preventDefault();
          ctx.dispatch({ type: "insert", list, item: newVideoLayer(type, fileFor) as JsonObject });
        }}
      >
        <label for={id}>New layer</label>
        <select id={id} value={type} onChange={(e) => setType(e.currentTarget.value)}>
          {types.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
        <button type="submit" class="small">
          Add layer
        </button>
      </form>
    </div>
  );
};
