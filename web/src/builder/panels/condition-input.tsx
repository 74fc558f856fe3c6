/**
 * A layer's template condition (`when`, packages/contract/src/config/template-condition.ts): shown only for the
 * renders where a variable is set, is not set, or equals a value. Written into the layer as the grammar writes it
 * (a bare name for "is set"); the job grammar never sees it: the builder's checks, preview and renders show every
 * layer, and a template render keeps the layer only where its condition holds.
 */
import { useId } from "preact/hooks";
import { getIn, isObject, type Path } from "../model/paths.ts";
import { CONDITION_KEY, parseCondition, type LayerCondition } from "../service-code.ts";
import type { PanelContext } from "./property-panel.tsx";

type Mode = "always" | "set" | "unset" | "equals";

const modeOf = (c: LayerCondition | null): Mode =>
  c === null ? "always" : c.equals !== undefined ? "equals" : c.set ? "set" : "unset";

/** The condition in its written form: the shortest one that says it. */
const written = (mode: Mode, name: string, equals: string): unknown => {
  if (mode === "always") return undefined;
  if (mode === "set") return name;
  if (mode === "unset") return { var: name, set: false };
  return { var: name, equals };
};

/** One line saying when a layer shows (the layer lists show it). */
export const conditionSummary = (layer: unknown): string | null => {
  if (!isObject(layer) || !(CONDITION_KEY in layer)) return null;
  const parsed = parseCondition(layer[CONDITION_KEY]);
  if (!("condition" in parsed)) return "if: not a condition";
  const condition = parsed.condition;
  if (condition.equals !== undefined) return `if ${condition.var} = ${String(condition.equals)}`;
  return condition.set ? `if ${condition.var}` : `if no ${condition.var}`;
};

export const ConditionField = ({ ctx, path }: { ctx: PanelContext; path: Path }) => {
  const id = useId();
  const layer = getIn(ctx.config, path);
  const raw = isObject(layer) ? layer[CONDITION_KEY] : undefined;
  const parsed = raw === undefined ? null : parseCondition(raw);
  const condition = parsed && "condition" in parsed ? parsed.condition : null;
  const mode = modeOf(condition);
  const name = condition?.var ?? "";
  const equals = condition?.equals === undefined ? "" : String(condition.equals);
  const at = [...path, CONDITION_KEY];
  const set = (next: { mode?: Mode; name?: string; equals?: string }) =>
    ctx.dispatch({
      type: "set",
      path: at,
      value: written(next.mode ?? mode, next.name ?? (name || "variable"), next.equals ?? equals),
      coalesce: `condition:${at.join(".")}`,
    });
  return (
    <fieldset class="field-group condition" aria-describedby={`${id}-hint`}>
      <legend>Template condition</legend>
      <p class="hint" id={`${id}-hint`}>
        In a saved template, show this layer only for the renders (rows) where a variable is set, is not set,
        or has a value. Here every layer is shown.
      </p>
      {parsed && "error" in parsed && (
        <p class="field-error" role="alert">
          {CONDITION_KEY}: {parsed.error}
        </p>
      )}
      <div class="inline-form">
        <label for={`${id}-mode`}>Show</label>
        <select id={`${id}-mode`} value={mode} onChange={(e) => set({ mode: e.currentTarget.value as Mode })}>
          <option value="always">always</option>
          <option value="set">when a variable is set</option>
          <option value="unset">when a variable is not set</option>
          <option value="equals">when a variable equals</option>
        </select>
        {mode !== "always" && (
          <>
            <label for={`${id}-var`}>Variable</label>
            <input
              id={`${id}-var`}
              type="text"
              value={name}
              spellcheck={false}
              onInput={(e) => set({ name: e.currentTarget.value })}
            />
          </>
        )}
        {mode === "equals" && (
          <>
            <label for={`${id}-value`}>Value</label>
            <input
              id={`${id}-value`}
              type="text"
              value={equals}
              onInput={(e) => set({ equals: e.currentTarget.value })}
            />
          </>
        )}
      </div>
    </fieldset>
  );
};
