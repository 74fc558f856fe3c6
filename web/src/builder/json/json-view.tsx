/**
 * The config as JSON, in sync both ways: every change made elsewhere (panels, canvas, timeline, undo) rewrites the
 * text; text that parses to an object replaces the config (one undo step per burst of typing), text that does not
 * stays here with its problem and changes nothing. The validator's errors and warnings are marked at the lines of
 * their fields, and listed: each entry moves the caret to its line.
 */
import { useMemo, useRef, useState } from "preact/hooks";
import type { Issues } from "../model/issues.ts";
import { isObject, type JsonObject } from "../model/paths.ts";
import type { Action, Doc } from "../model/store.ts";
import { fieldLocator, offsetOfLine, syntaxProblem } from "./locate.ts";

export const pretty = (config: unknown) => JSON.stringify(config, null, 2);

interface Mark {
  line: number;
  kind: "error" | "warning";
  field: string;
  message: string;
}

/** The text's problems, each a link to its line: its syntax error, else the validator's errors and warnings. */
const JsonProblems = ({
  id,
  syntax,
  marks,
  goTo,
}: {
  id: string;
  syntax: ReturnType<typeof syntaxProblem>;
  marks: Mark[];
  goTo: (line: number) => void;
}) => (
  <div id={id} class="json-problems" aria-live="polite">
    {syntax ? (
      <p class="field-error">
        <button type="button" class="link" onClick={() => goTo(syntax.line)}>
          Line {syntax.line}
        </button>
        : not JSON: {syntax.message}. The config keeps its last valid state.
      </p>
    ) : marks.length ? (
      <ul class="plain">
        {marks.map((mark, i) => (
          <li key={i} class={mark.kind === "error" ? "field-error" : "field-warning"}>
            <button type="button" class="link" onClick={() => goTo(mark.line)}>
              Line {mark.line}
            </button>{" "}
            {mark.kind === "warning" ? "warning " : ""}
            <code>{mark.field}</code>: {mark.message}
          </li>
        ))}
      </ul>
    ) : null}
  </div>
);

export const JsonView = ({
  doc,
  issues,
  dispatch,
}: {
  doc: Doc;
  issues: Issues;
  dispatch: (action: Action) => void;
}) => {
  /**
   * What was typed, and the config it was typed over (the one it produced, when it parsed). Once the config moves
   * on (an edit elsewhere, undo) the typed text is dropped for good, and the config itself is shown.
   */
  const draft = useRef<{ text: string; config: unknown } | null>(null);
  const [, setTyped] = useState(0);
  if (draft.current && draft.current.config !== doc.config) draft.current = null;
  const shown = useMemo(() => pretty(doc.config), [doc.config]);
  const text = draft.current?.text ?? shown;
  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);

  const syntax = useMemo(() => syntaxProblem(text), [text]);
  const marks = useMemo<Mark[]>(() => {
    if (syntax) return [];
    const locate = fieldLocator(text);
    const mark = (kind: Mark["kind"]) => (issue: { field?: string; message: string }) => ({
      kind,
      field: issue.field ?? "config",
      message: issue.message,
      line: (issue.field && locate(issue.field)) || 1,
    });
    return [...issues.errors.map(mark("error")), ...issues.warnings.map(mark("warning"))].sort(
      (a, b) => a.line - b.line,
    );
  }, [text, issues, syntax]);

  const lines = text.split("\n").length;
  const marked = new Map<number, Mark["kind"]>();
  for (const mark of syntax ? [{ line: syntax.line, kind: "error" as const }] : marks)
    if (marked.get(mark.line) !== "error") marked.set(mark.line, mark.kind);

  const goTo = (line: number) => {
    const el = area.current;
    if (!el) return;
    const start = offsetOfLine(text, line);
    const end = text.indexOf("\n", start);
    el.focus();
    el.setSelectionRange(start, end < 0 ? text.length : end);
    const lineHeight = el.scrollHeight / Math.max(1, lines);
    el.scrollTop = Math.max(0, (line - 3) * lineHeight);
  };

  const problemsId = "json-problems";
  return (
    <div class="json-view">
      <div class="json-edit">
        <div class="gutter" ref={gutter} aria-hidden="true">
          {Array.from({ length: lines }, (_, i) => (
            <span key={i} class={marked.get(i + 1) ?? undefined}>
              {i + 1}
            </span>
          ))}
        </div>
        <textarea
          id="config"
          ref={area}
          class="code"
          aria-label="Config (JSON)"
          aria-invalid={syntax || marks.some((m) => m.kind === "error") ? true : undefined}
          aria-describedby={problemsId}
          spellcheck={false}
          wrap="off"
          value={text}
          onScroll={(e) => {
            if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
          }}
          onInput={(e) => {
            const next = e.currentTarget.value;
            let parsed: unknown;
            try {
              parsed = JSON.parse(next);
            } catch {
              parsed = undefined;
            }
            if (!isObject(parsed)) {
              draft.current = { text: next, config: doc.config };
              setTyped((n) => n + 1);
              return;
            }
            draft.current = { text: next, config: parsed };
            dispatch({ type: "replace", doc: { ...doc, config: parsed as JsonObject }, coalesce: "json" });
          }}
        />
      </div>
      <JsonProblems id={problemsId} syntax={syntax} marks={marks} goTo={goTo} />
    </div>
  );
};
