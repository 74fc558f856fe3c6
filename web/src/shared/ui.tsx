/** Small building blocks every page uses: notices, loading, copy, confirm, status, progress, paging, data. */
import type { ComponentChildren, JSX } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { explain } from "./api.ts";

export const Notice = ({
  kind = "info",
  children,
  alert,
}: {
  kind?: "info" | "success" | "warning" | "error";
  children: ComponentChildren;
  alert?: boolean;
}) => (
  <div class={`notice ${kind}`} role={alert ? "alert" : kind === "error" ? "alert" : "status"}>
    {children}
  </div>
);

export const Loading = ({ what = "Loading" }: { what?: string }) => (
  <p class="loading" role="status">
    {what}…
  </p>
);

export const ErrorNotice = ({ error, retry }: { error: unknown; retry?: () => void }) => (
  <Notice kind="error">
    <p>{explain(error)}</p>
    {retry && (
      <button type="button" class="secondary" onClick={retry}>
        Try again
      </button>
    )}
  </Notice>
);

/** Copies `text`; says so for a moment (also to screen readers). */
export const CopyButton = ({ text, label = "Copy" }: { text: string; label?: string }) => {
  const [said, setSaid] = useState("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid("Copied");
    } catch {
      setSaid("Copy failed: select the text and copy it");
    }
    setTimeout(() => setSaid(""), 2500);
  };
  return (
    <span class="copy">
      <button type="button" class="secondary small" onClick={copy}>
        {label}
      </button>
      <span class="copy-said" aria-live="polite">
        {said}
      </span>
    </span>
  );
};

/** A secret the service shows once (an API key, a webhook signing secret), with a copy button. */
export const SecretOnce = ({
  label,
  secret,
  children,
}: {
  label: string;
  secret: string;
  children?: ComponentChildren;
}) => (
  <Notice kind="warning">
    <p>
      <strong>{label}</strong> Copy it now: it is shown this once and cannot be read again.
    </p>
    <div class="secret">
      <input
        type="text"
        readOnly
        value={secret}
        aria-label={label}
        onFocus={(e) => e.currentTarget.select()}
      />
      <CopyButton text={secret} />
    </div>
    {children}
  </Notice>
);

/** A button that asks once more before acting (no modal: the question replaces the button). */
export const ConfirmButton = ({
  children,
  question,
  onConfirm,
  busyLabel = "Working",
  class: className = "danger",
}: {
  children: ComponentChildren;
  question: string;
  onConfirm: () => Promise<unknown>;
  busyLabel?: string;
  class?: string;
}) => {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (busy) return <span role="status">{busyLabel}…</span>;
  if (!asking)
    return (
      <span class="confirm">
        <button type="button" class={`${className} small`} onClick={() => (setAsking(true), setError(null))}>
          {children}
        </button>
        {error ? (
          <span class="field-error" role="alert">
            {explain(error)}
          </span>
        ) : null}
      </span>
    );
  return (
    <span class="confirm" role="group" aria-label={question}>
      <span>{question}</span>
      <button
        type="button"
        class={`${className} small`}
        ref={(el) => el?.focus()}
        onClick={async () => {
          setBusy(true);
          try {
            await onConfirm();
          } catch (e) {
            setError(e);
          } finally {
            setBusy(false);
            setAsking(false);
          }
        }}
      >
        Yes
      </button>
      <button type="button" class="secondary small" onClick={() => setAsking(false)}>
        No
      </button>
    </span>
  );
};

const STATUS_TEXT: Record<string, string> = {
  PENDING: "Pending",
  PROCESSING: "Rendering",
  COMPLETED: "Completed",
  FAILED: "Failed",
  CANCELLED: "Cancelled",
  RUNNING: "Running",
  pending: "Pending",
  delivered: "Delivered",
  dead_letter: "Dead letter",
  paid: "Paid",
  active: "Active",
  disabled: "Disabled",
  succeeded: "Succeeded",
  failed: "Failed",
  expired: "Expired",
};

export const StatusBadge = ({ status }: { status: string }) => (
  <span class={`badge s-${status.toLowerCase()}`}>{STATUS_TEXT[status] ?? status}</span>
);

/** A labelled progress bar (0..100). */
export const Progress = ({ value, label }: { value: number; label: string }) => (
  <div class="progress-row">
    <progress max={100} value={Math.max(0, Math.min(100, value))} aria-label={label} />
    <span>{Math.round(value)} %</span>
  </div>
);

export const Pager = ({
  page,
  totalPages,
  onPage,
}: {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
}) =>
  totalPages > 1 ? (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="secondary small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {totalPages}
      </span>
      <button
        type="button"
        class="secondary small"
        disabled={page >= totalPages}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  ) : null;

export type Resource<T> =
  | { status: "loading"; data?: T }
  | { status: "error"; error: unknown; data?: T }
  | { status: "ready"; data: T };

/**
 * Data a page shows: loaded when `deps` change, reloadable (`reload`, quietly keeping what is shown meanwhile).
 * An answer that arrives after a newer request started is dropped.
 */
export const useResource = <T,>(load: () => Promise<T>, deps: unknown[]) => {
  const [state, setState] = useState<Resource<T>>({ status: "loading" });
  const seq = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const reload = useCallback(() => {
    const run = ++seq.current;
    setState((s) => ({ status: "loading", data: s.data }));
    return loadRef.current().then(
      (data) => run === seq.current && setState({ status: "ready", data }),
      (error) => run === seq.current && setState((s) => ({ status: "error", error, data: s.data })),
    );
  }, []);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => void reload(), deps);
  return { state, reload, set: (data: T) => setState({ status: "ready", data }) };
};

/** Sets the document's title for a page. */
export const useTitle = (title: string) => {
  useEffect(() => {
    document.title = `${title} · Media Render`;
  }, [title]);
};

/** A wide table that scrolls sideways on a narrow screen (focusable, so keyboards can scroll it). */
export const TableWrap = ({ label, children }: { label: string; children: ComponentChildren }) => (
  <div class="table-wrap" role="region" aria-label={label} tabIndex={0}>
    {children}
  </div>
);

/**
 * What a page shows of a resource: its data (kept on screen while it reloads), the error with a retry, or a
 * loading line.
 */
export const Show = <T,>({
  resource,
  children,
  what,
}: {
  resource: { state: Resource<T>; reload: () => unknown };
  children: (data: T) => JSX.Element | null;
  what?: string;
}) => {
  const { state } = resource;
  return (
    <>
      {state.status === "error" && <ErrorNotice error={state.error} retry={() => void resource.reload()} />}
      {state.data !== undefined ? (
        children(state.data)
      ) : state.status === "loading" ? (
        <Loading what={what} />
      ) : null}
    </>
  );
};
