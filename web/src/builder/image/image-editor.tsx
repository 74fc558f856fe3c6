/**
 * Image jobs: the layer list, the canvas (the preview frame with its boxes and handles) and the properties of the
 * selected layer, or of the canvas itself when no layer is selected.
 */
import { useMemo } from "preact/hooks";
import { newImageLayer } from "@media-render/contract/config/image-layer-types";
import type { Files } from "../model/files.ts";
import { useFileBytes } from "../model/files.ts";
import { messagesAt } from "../model/issues.ts";
import { fieldName, getIn, isObject, within, type JsonObject, type Path } from "../model/paths.ts";
import type { EditorState } from "../model/store.ts";
import { ProblemLinks } from "../panels/problem-links.tsx";
import { ConditionField } from "../panels/condition-input.tsx";
import { Fields, type PanelContext } from "../panels/property-panel.tsx";
import { deref, layerTypes, schemaAt, type Schema } from "../schema/fields.ts";
import { withoutConditions } from "../service-code.ts";
import { ImageCanvas } from "./canvas.tsx";
import { LayerList, layerLabel } from "./layer-list.tsx";
import { usePreview } from "./use-preview.ts";

/** The storage URLs of the files an image config draws (pictures, uploaded fonts), defaults included. */
const filesOf = (config: unknown): string[] => {
  const out = new Set<string>();
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (isObject(value))
      for (const [k, x] of Object.entries(value))
        if ((k === "path" || k === "fontPath") && typeof x === "string" && x.startsWith("/")) out.add(x);
        else walk(x);
  };
  walk(config);
  return [...out].sort();
};

const CANVAS_SKIP = ["layers", "defaults", "background"] as const;

/**
 * `scripts`: html layers run their own scripts in the preview; false for a config that came from a link until the
 * user agrees (`onRunScripts`).
 */
export const ImageEditor = ({
  state,
  ctx,
  files,
  scripts,
  onRunScripts,
}: {
  state: EditorState;
  ctx: PanelContext;
  files: Files;
  scripts: boolean;
  onRunScripts: () => void;
}) => {
  const config = state.history.present.config;
  const { dispatch, schemas } = ctx;
  const paths = useMemo(() => filesOf(config), [config]);
  const sizes = useMemo(
    () =>
      paths.flatMap((path) => {
        const file = files.byUrl(path);
        return file?.width && file.height
          ? [
              [path, { width: file.width, height: file.height }] as [
                string,
                { width: number; height: number },
              ],
            ]
          : [];
      }),
    [paths, files],
  );
  const hidden = useMemo(() => [...state.hidden].sort((a, b) => a - b), [state.hidden]);
  // Every layer is drawn, conditional ones too (the job grammar knows no `when`).
  const shown = useMemo(() => withoutConditions(config), [config]);
  const preview = usePreview(shown, sizes, hidden, scripts);
  useFileBytes(files, paths, preview.addFiles);

  const layers = Array.isArray(config.layers) ? config.layers : [];
  const selection = state.selection;
  const selected =
    selection && selection.length === 2 && selection[0] === "layers" && typeof selection[1] === "number"
      ? selection[1]
      : null;
  const items = (deref(schemas, schemas.root).properties as Record<string, Schema>).layers?.items as Schema;
  const types = layerTypes(schemas, items);
  const add = (type: string) => {
    const firstImage = files.list.find((f) => f.mimeType.startsWith("image/"))?.storageUrl;
    const w = typeof config.width === "number" ? config.width : 1080;
    const h = typeof config.height === "number" ? config.height : 1080;
    const item = newImageLayer(type, { width: w, height: h }, (kind) =>
      kind === "image" ? firstImage : undefined,
    );
    dispatch({ type: "insert", list: ["layers"], item: item as JsonObject });
  };

  return (
    <div class="image-editor">
      <LayerList
        layers={layers}
        types={types}
        selected={selected}
        hidden={state.hidden}
        issues={ctx.issues}
        dispatch={dispatch}
        onAdd={add}
      />
      <section class="canvas-panel" aria-label="Canvas">
        <ImageCanvas
          config={config}
          preview={preview.state}
          frame={preview.frame}
          selected={selected}
          hidden={state.hidden}
          dispatch={dispatch}
          onRunScripts={onRunScripts}
        />
      </section>
      <PropertiesPanel ctx={ctx} path={selected === null ? [] : ["layers", selected]} />
    </div>
  );
};

/** The properties of the object at `path` ([] = the canvas settings). */
const PropertiesPanel = ({ ctx, path }: { ctx: PanelContext; path: Path }) => {
  const value = getIn(ctx.config, path);
  const schema = schemaAt(ctx.schemas, ctx.config, path);
  const name = fieldName(path);
  const own = path.length ? messagesAt(ctx.issues.errors, name, true) : [];
  const inside = path.length
    ? ctx.issues.errors.filter((e) => e.field && e.field !== name && within(e.field, name))
    : [];
  const title = path.length ? `Layer ${Number(path[1]) + 1}: ${layerLabel(value)}` : "Canvas";
  return (
    <section class="properties" aria-labelledby="properties-title">
      <h2 id="properties-title">{title}</h2>
      {!path.length && <p class="hint">Select a layer (on the canvas or in the list) to edit it.</p>}
      {own.length > 0 && (
        <p class="field-error" role="alert">
          {own.join("; ")}
        </p>
      )}
      <ProblemLinks problems={inside} />
      {schema && isObject(value ?? {}) ? (
        <div class="stack">
          <Fields ctx={ctx} path={path} schema={schema} skip={path.length ? [] : CANVAS_SKIP} />
        </div>
      ) : (
        <p class="muted">This value has no properties to edit here: use the JSON view.</p>
      )}
      {!path.length && (
        <p class="hint">
          Layer defaults (<code>defaults</code>) are edited in the JSON view.
        </p>
      )}
      {path.length > 0 && <ConditionField ctx={ctx} path={path} />}
      {path.length > 0 && (
        <p class="hint">
          Type: <code>{String((value as JsonObject | undefined)?.type ?? "none")}</code> (a new layer of
          another type replaces it).
        </p>
      )}
    </section>
  );
};
