/**
 * The panels of a video config: the settings (the config's own properties, `defaults` with its transition), a
 * clip (duration, its transition into the next clip, its layers), a layer (of a clip or global) and an audio
 * track, each generated from the video schema.
 */
import { useState } from "preact/hooks";
import { newVideoLayer } from "@media-render/contract/config/video-layer-types";
import { messagesAt } from "../model/issues.ts";
import { fieldName, getIn, isObject, within, type JsonObject, type Path } from "../model/paths.ts";
import { ProblemLinks } from "../panels/problem-links.tsx";
import { ConditionField, conditionSummary } from "../panels/condition-input.tsx";
import { controlId, Fields, FieldRow, type PanelContext } from "../panels/property-panel.tsx";
import { deref, fieldsOf, layerTypes, schemaAt, type Schema } from "../schema/fields.ts";
import { TransitionPicker } from "./transitions.tsx";

/** The transition into the next clip (`at`: a clip's `transition` or `defaults.transition`). */
const TransitionFields = ({ ctx, at, inherit }: { ctx: PanelContext; at: Path; inherit: boolean }) => {
  const value = getIn(ctx.config, at);
  const id = controlId([...at, "name"]);
  const errors = messagesAt(ctx.issues.errors, fieldName(at));
  const mode = value === null ? "cut" : value === undefined ? "inherit" : "own";
  const set = (v: unknown) => ctx.dispatch({ type: "set", path: at, value: v, coalesce: fieldName(at) });
  const schema = ctx.schemas.defs.Transition;
  return (
    <fieldset class="field-group">
      <legend>Transition into the next clip</legend>
      <div class="checks" role="radiogroup" aria-label="Transition">
        {inherit && (
          <label>
            <input type="radio" checked={mode === "inherit"} onChange={() => set(undefined)} /> as{" "}
            <code>defaults.transition</code>
          </label>
        )}
        <label>
          <input type="radio" checked={mode === "cut"} onChange={() => set(null)} /> none (a cut)
        </label>
        <label>
          <input
            type="radio"
            checked={mode === "own"}
            onChange={() => set({ name: "fade", duration: 0.5 })}
          />{" "}
          its own
        </label>
      </div>
      {errors.length > 0 && (
        <p class="field-error" id={`${id}-error`}>
          {errors.join("; ")}
        </p>
      )}
      {isObject(value) && (
        <>
          <div class="field">
            <label for={id}>name</label>
            <TransitionPicker
              id={id}
              value={typeof value.name === "string" ? value.name : undefined}
              describedBy={errors.length ? `${id}-error` : undefined}
              onChange={(name) => ctx.dispatch({ type: "set", path: [...at, "name"], value: name })}
            />
          </div>
          {schema &&
            fieldsOf(ctx.schemas, schema, ["name"]).map((spec) => (
              <FieldRow key={spec.key} ctx={ctx} path={at} spec={spec} />
            ))}
        </>
      )}
    </fieldset>
  );
};

/** The layers of a list (a clip's, or the global ones): select, reorder, remove, add one of `types`. */
const LayerRows = ({
  ctx,
  list,
  types,
  fileFor,
  title,
}: {
  ctx: PanelContext;
  list: Path;
  types: string[];
  fileFor: (category: string) => string | undefined;
  title: string;
}) => {
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

const itemTypes = (ctx: PanelContext, path: Path): string[] => {
  const schema = schemaAt(ctx.schemas, ctx.config, path);
  const items =
    schema?.items ?? (schema?.anyOf as Schema[] | undefined)?.find((s) => s.type === "array")?.items;
  return items ? layerTypes(ctx.schemas, items as Schema) : [];
};

const SETTINGS_SKIP = ["clips", "globalLayers", "audioTracks", "defaults"] as const;

/** The panel of whatever is selected. */
/** The video's own settings: its properties, its defaults (duration, transition), the global layers, the audio. */
const VideoSettings = ({
  ctx,
  fileFor,
}: {
  ctx: PanelContext;
  fileFor: (category: string) => string | undefined;
}) => {
  const { dispatch } = ctx;
  const root = deref(ctx.schemas, ctx.schemas.root);
  return (
    <>
      <Fields ctx={ctx} path={[]} schema={root} skip={SETTINGS_SKIP} />
      <fieldset class="field-group">
        <legend>defaults</legend>
        <FieldRow
          ctx={ctx}
          path={["defaults"]}
          spec={fieldsOf(ctx.schemas, schemaAt(ctx.schemas, ctx.config, ["defaults"]) ?? {}).find(
            (f) => f.key === "duration",
          )!}
        />
        <TransitionFields ctx={ctx} at={["defaults", "transition"]} inherit={false} />
        <p class="hint">
          Layer defaults (<code>defaults.layer</code>, <code>defaults.layerType</code>) are edited in the JSON
          view.
        </p>
      </fieldset>
      <LayerRows
        ctx={ctx}
        list={["globalLayers"]}
        types={itemTypes(ctx, ["globalLayers"])}
        fileFor={fileFor}
        title="Global layers"
      />
      <div class="layer-rows">
        <h3>Audio tracks</h3>
        <button
          type="button"
          class="small"
          onClick={() =>
            dispatch({
              type: "insert",
              list: ["audioTracks"],
              item: fileFor("audio") ? { path: fileFor("audio")! } : {},
            })
          }
        >
          Add an audio track
        </button>
      </div>
    </>
  );
};

/** A clip's panel: move, duplicate or remove it, its properties, its transition to the next clip, its layers. */
const ClipSettings = ({
  ctx,
  path,
  clip,
  count,
  schema,
  fileFor,
}: {
  ctx: PanelContext;
  path: Path;
  clip: unknown;
  /** Clips in the video. */
  count: number;
  schema: Schema | null;
  fileFor: (category: string) => string | undefined;
}) => {
  const { dispatch } = ctx;
  const i = path[1] as number;
  return (
    <>
      <div class="row-actions">
        <button
          type="button"
          class="secondary small"
          disabled={i === 0}
          onClick={() => dispatch({ type: "move", list: ["clips"], from: i, to: i - 1 })}
        >
          Move earlier
        </button>
        <button
          type="button"
          class="secondary small"
          disabled={i === count - 1}
          onClick={() => dispatch({ type: "move", list: ["clips"], from: i, to: i + 1 })}
        >
          Move later
        </button>
        <button
          type="button"
          class="secondary small"
          onClick={() =>
            dispatch({ type: "insert", list: ["clips"], item: structuredClone(clip), index: i + 1 })
          }
        >
          Duplicate
        </button>
        <button
          type="button"
          class="danger small"
          disabled={count <= 1}
          onClick={() => dispatch({ type: "remove", list: ["clips"], index: i })}
        >
          Remove clip
        </button>
      </div>
      {schema && <Fields ctx={ctx} path={path} schema={schema} skip={["layers", "transition"]} />}
      <TransitionFields ctx={ctx} at={[...path, "transition"]} inherit />
      <LayerRows
        ctx={ctx}
        list={[...path, "layers"]}
        types={itemTypes(ctx, [...path, "layers"])}
        fileFor={fileFor}
        title="Layers"
      />
    </>
  );
};

export const VideoPanel = ({
  ctx,
  path,
  fileFor,
}: {
  ctx: PanelContext;
  path: Path;
  fileFor: (category: string) => string | undefined;
}) => {
  const { dispatch } = ctx;
  const value = getIn(ctx.config, path);
  const schema = schemaAt(ctx.schemas, ctx.config, path);
  const own = path.length ? messagesAt(ctx.issues.errors, fieldName(path), true) : [];
  // A clip's own problems and its layers' are in their panels; a clip lists its layers' too.
  const inside = path.length
    ? ctx.issues.errors.filter(
        (e) => e.field && e.field !== fieldName(path) && within(e.field, fieldName(path)),
      )
    : [];
  const clips = Array.isArray((ctx.config as JsonObject).clips)
    ? ((ctx.config as JsonObject).clips as unknown[])
    : [];
  let title = "Video settings";
  let body = null;
  if (path.length === 0) {
    body = <VideoSettings ctx={ctx} fileFor={fileFor} />;
  } else if (path[0] === "clips" && path.length === 2) {
    const i = path[1] as number;
    title = `Clip ${i + 1}`;
    body = (
      <ClipSettings
        ctx={ctx}
        path={path}
        clip={value}
        count={clips.length}
        schema={schema}
        fileFor={fileFor}
      />
    );
  } else if (path[0] === "audioTracks") {
    title = `Audio track ${Number(path[1]) + 1}`;
    body = (
      <>
        {schema && <Fields ctx={ctx} path={path} schema={schema} />}
        <button
          type="button"
          class="danger small"
          onClick={() => dispatch({ type: "remove", list: ["audioTracks"], index: Number(path[1]) })}
        >
          Remove track
        </button>
      </>
    );
  } else {
    const global = path[0] === "globalLayers";
    const layer = isObject(value) ? value : {};
    title = global
      ? `Global layer ${Number(path[1]) + 1}: ${String(layer.type ?? "?")}`
      : `Clip ${Number(path[1]) + 1}, layer ${Number(path[3]) + 1}: ${String(layer.type ?? "?")}`;
    body = (
      <>
        {!global && (
          <button
            type="button"
            class="secondary small"
            onClick={() => dispatch({ type: "select", path: path.slice(0, 2) })}
          >
            Back to clip {Number(path[1]) + 1}
          </button>
        )}
        {schema && <Fields ctx={ctx} path={path} schema={schema} />}
        <ConditionField ctx={ctx} path={path} />
      </>
    );
  }
  return (
    <section class="properties" aria-labelledby="properties-title">
      <h2 id="properties-title">{title}</h2>
      {path.length > 0 && (
        <button type="button" class="link" onClick={() => dispatch({ type: "select", path: null })}>
          Video settings
        </button>
      )}
      {own.length > 0 && (
        <p class="field-error" role="alert">
          {own.join("; ")}
        </p>
      )}
      <ProblemLinks problems={inside} />
      <div class="stack">{body}</div>
    </section>
  );
};
