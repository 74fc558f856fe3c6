/**
 * The builder's bar (job type, the gallery of ready-made jobs, undo and redo, the live validation's verdict and
 * estimate) and its keyboard shortcuts for undo and redo.
 */
import { useEffect } from "preact/hooks";
import { explain } from "../shared/api.ts";
import type { Action, Doc, JobKind } from "./model/store.ts";
import type { ValidationState } from "./model/validation.ts";
import { GALLERY } from "./service-code.ts";

const examples = GALLERY.map((e) => ({ ...e, job: e.job as unknown as Doc }));
export const firstOf = (type: JobKind): Doc =>
  structuredClone(examples.find((e) => e.job.type === type)!.job);

/** The live validation's verdict on the config: valid with its estimate, or its errors' count. */
const Verdict = ({ validation }: { validation: ValidationState }) => {
  if (validation.status === "signed-out")
    return (
      <span>
        <a href="/sign-in">Sign in</a> to validate, render and save
      </span>
    );
  if (validation.status === "failed")
    return <span class="field-error">Validation unavailable: {explain(validation.error)}</span>;
  const result = validation.result;
  if (!result) return <span>Checking…</span>;
  const checking = validation.status === "checking" ? " (checking…)" : "";
  if (result.isValid)
    return (
      <span class="ok">
        Valid · {result.estimatedTokens} tokens estimated
        {result.warnings.length
          ? ` · ${result.warnings.length} warning${result.warnings.length > 1 ? "s" : ""}`
          : ""}
        {checking}
      </span>
    );
  return (
    <span class="field-error">
      {result.errors.length} error{result.errors.length > 1 ? "s" : ""}: see each field, or the{" "}
      <a href="#config">JSON view</a>
      {checking}
    </span>
  );
};

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && !!target.closest("[data-own-undo]");

/** The builder's bar: the job type, the gallery, undo and redo, and the validator's verdict on the config. */
export const BuilderBar = ({
  type,
  canUndo,
  canRedo,
  validation,
  dispatch,
}: {
  type: JobKind;
  canUndo: boolean;
  canRedo: boolean;
  validation: ValidationState;
  dispatch: (action: Action) => void;
}) => (
  <div class="builder-bar" role="toolbar" aria-label="Builder">
    <h1>Builder</h1>
    <label>
      Job type{" "}
      <select
        id="type"
        value={type}
        onChange={(e) => dispatch({ type: "replace", doc: firstOf(e.currentTarget.value as JobKind) })}
      >
        <option value="image">image</option>
        <option value="video">video</option>
      </select>
    </label>
    <label>
      Example{" "}
      <select
        id="example"
        value=""
        onChange={(e) => {
          const example = examples[Number(e.currentTarget.value)];
          if (example) dispatch({ type: "replace", doc: structuredClone(example.job) });
        }}
      >
        <option value="">start from…</option>
        {examples.map((e, i) => (
          <option key={e.name} value={i}>
            {e.name} ({e.job.type})
          </option>
        ))}
      </select>
    </label>
    <span class="undo">
      <button
        type="button"
        class="secondary small"
        aria-keyshortcuts="Control+Z"
        disabled={!canUndo}
        onClick={() => dispatch({ type: "undo" })}
      >
        Undo
      </button>
      <button
        type="button"
        class="secondary small"
        aria-keyshortcuts="Control+Shift+Z Control+Y"
        disabled={!canRedo}
        onClick={() => dispatch({ type: "redo" })}
      >
        Redo
      </button>
    </span>
    <p id="estimate" class="verdict" role="status">
      <Verdict validation={validation} />
    </p>
  </div>
);

/** Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and Ctrl/Cmd+Y redo, anywhere but in a field being typed in. */
export const useUndoKeys = (dispatch: (action: Action) => void) => {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || isTyping(e.target)) return;
      const key = e.key.toLowerCase();
      if (key === "z" || key === "y") {
        e.preventDefault();
        dispatch({ type: key === "y" || e.shiftKey ? "redo" : "undo" });
      }
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, [dispatch]);
};
