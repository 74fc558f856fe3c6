/**
 * The transition into the next clip, in the video's settings (`defaults.transition`) and in a clip's panel (its
 * own `transition`): a cut, the default (a clip only), or a transition of its own picked by name with its fields.
 */
import { messagesAt } from "../../model/issues.ts";
import { fieldName, getIn, isObject, type Path } from "../../model/paths.ts";
import { controlId, FieldRow, type PanelContext } from "../../panels/property-panel.tsx";
import { fieldsOf } from "../../schema/fields.ts";
import { TransitionPicker } from "../transitions.tsx";

/** The transition into the next clip (`at`: a clip's `transition` or `defaults.transition`). */
export const TransitionFields = ({ ctx, at, inherit }: { ctx: PanelContext; at: Path; inherit: boolean }) => {
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
