/**
 * Forms and the error envelope: a form's submit runs one API call; an ApiError's field errors are shown at the
 * field they name (`details.errors[].field`, e.g. `email`, `consent.termsAccepted`, `config.layers[0].width`), and
 * the sentence plus any error no field of the form claims are shown above the button, announced to screen readers.
 */
import type { ComponentChildren, JSX } from "preact";
import { useRef, useState } from "preact/hooks";
import { ApiError, explain } from "./api.ts";
import type { FieldError } from "./api-types.ts";

export interface FormState {
  busy: boolean;
  error: unknown;
  onSubmit: (event: Event) => void;
  /** The messages of the errors that name `name`, and `path: message` for those inside it. */
  errorsOf: (name: string) => string[];
  /** Shows an error that did not come from the API (a check made in the page). */
  fail: (error: unknown) => void;
  clear: () => void;
}

const within = (field: string | undefined, name: string) =>
  field !== undefined && (field === name || field.startsWith(`${name}.`) || field.startsWith(`${name}[`));

const fieldErrors = (error: unknown): FieldError[] => (error instanceof ApiError ? error.errors : []);

/** A form whose submit runs `submit`; `done` gets its result. */
export const useForm = <T,>(submit: () => Promise<T>, done?: (result: T) => void): FormState => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const running = useRef(false);
  return {
    busy,
    error,
    onSubmit: (event) => {
      event.preventDefault();
      if (running.current) return;
      running.current = true;
      setBusy(true);
      setError(null);
      submit()
        .then((result) => done?.(result), setError)
        .finally(() => {
          running.current = false;
          setBusy(false);
        });
    },
    errorsOf: (name) =>
      fieldErrors(error)
        .filter((e) => within(e.field, name))
        .map((e) => (e.field === name ? e.message : `${e.field}: ${e.message}`)),
    fail: setError,
    clear: () => setError(null),
  };
};

interface FieldProps {
  form?: FormState;
  name: string;
  label: ComponentChildren;
  hint?: ComponentChildren;
  /** Renders the control with the attributes that tie it to its label, hint and errors. */
  children: (control: {
    id: string;
    name: string;
    "aria-invalid"?: true;
    "aria-describedby"?: string;
  }) => JSX.Element;
  class?: string;
}

/** A labelled control with its hint and its errors. */
export const Field = ({ form, name, label, hint, children, class: className }: FieldProps) => {
  const id = `f-${name.replace(/[^\w-]/g, "-")}`;
  const errors = form?.errorsOf(name) ?? [];
  const described = [hint ? `${id}-hint` : "", errors.length ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div class={`field${errors.length ? " invalid" : ""}${className ? ` ${className}` : ""}`}>
      <label for={id}>{label}</label>
      {children({
        id,
        name,
        ...(errors.length ? { "aria-invalid": true as const } : {}),
        ...(described ? { "aria-describedby": described } : {}),
      })}
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {errors.length > 0 && (
        <p class="field-error" id={`${id}-error`}>
          {errors.join("; ")}
        </p>
      )}
    </div>
  );
};

/** Errors for a group of checkboxes or radios (a fieldset), shown under its legend. */
export const GroupErrors = ({ form, name }: { form: FormState; name: string }) => {
  const errors = form.errorsOf(name);
  return errors.length ? <p class="field-error">{errors.join("; ")}</p> : null;
};

/** The form's sentence and the errors its fields do not show (`fields`: the names the form shows). */
export const FormErrors = ({
  form,
  fields = [],
  shownElsewhere,
}: {
  form: FormState;
  fields?: string[];
  /** Errors the page shows in its own way (e.g. a batch's per-row report). */
  shownElsewhere?: (error: FieldError) => boolean;
}) => {
  if (!form.error) return null;
  const loose = fieldErrors(form.error).filter(
    (e) => !fields.some((f) => within(e.field, f)) && !shownElsewhere?.(e),
  );
  const all = fieldErrors(form.error);
  // Every problem is shown at its field: say where to look rather than the envelope's generic sentence.
  const sentence =
    all.length > 0 && loose.length === 0 && !all.some((e) => shownElsewhere?.(e))
      ? `${all.length === 1 ? "One field needs" : `${all.length} fields need`} a change: see the message under ${all.length === 1 ? "it" : "each"}.`
      : explain(form.error);
  return (
    <div class="notice error" role="alert">
      <p>{sentence}</p>
      {loose.length > 0 && (
        <ul>
          {loose.map((e, i) => (
            <li key={i}>
              {e.row !== undefined ? `Row ${e.row}: ` : ""}
              {e.field ? <code>{e.field}</code> : null}
              {e.field ? ": " : ""}
              {e.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
};
