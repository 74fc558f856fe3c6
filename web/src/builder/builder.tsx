/**
 * The builder page: a toolbar (job type, examples, undo/redo, the live validation's verdict and estimate), the
 * editor of the job's kind (image: layers on a canvas; video: a timeline of clips), the JSON view in sync both
 * ways, rendering, and saving as a template. Every change is an action on one state (model/store.ts), so undo,
 * the JSON view and the preview all follow from it. A config handed over in a link (`#config=`, anyone can make one)
 * has its html layers drawn without their scripts until the user agrees; one of the account's own jobs (`#job=`) is
 * read through the API and runs as before.
 */
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, data, explain } from "../shared/api.ts";
import { readBuilderLink, readJobLink } from "../shared/builder-link.ts";
import { useSession } from "../shared/session.tsx";
import { Loading, Notice, useResource, useTitle } from "../shared/ui.tsx";
import { ImageEditor } from "./image/image-editor.tsx";
import { markChange } from "./image/use-preview.ts";
import { describeChange } from "./model/announce.ts";
import { RenderPanel } from "./jobs/render-panel.tsx";
import { JsonView } from "./json/json-view.tsx";
import { useFiles } from "./model/files.ts";
import { issuesOf } from "./model/issues.ts";
import type { JsonObject } from "./model/paths.ts";
import { initialState, reduce, type Action, type Doc, type JobKind } from "./model/store.ts";
import { useValidation, type ValidationState } from "./model/validation.ts";
import { FontSuggestions } from "./panels/controls.tsx";
import type { PanelContext } from "./panels/property-panel.tsx";
import { schemaDoc, type Schema, type SchemaDoc } from "./schema/fields.ts";
import { GALLERY } from "./service-code.ts";
import { SaveTemplate } from "./templates/save-template.tsx";
import { VideoEditor } from "./video/video-editor.tsx";

const examples = GALLERY.map((e) => ({ ...e, job: e.job as unknown as Doc }));
const firstOf = (type: JobKind): Doc => structuredClone(examples.find((e) => e.job.type === type)!.job);

/** The document a config link hands over, else the first example (a job link's job replaces it once read). */
const initialDoc = (): Doc => {
  const handed = readBuilderLink(location.hash);
  return handed ? { type: handed.type, config: handed.config as JsonObject } : firstOf("image");
};

const loadSchemas = async (): Promise<Record<JobKind, SchemaDoc>> => {
  const [image, video] = await Promise.all(
    (["image", "video"] as const).map((name) =>
      data(api.GET("/api/v1/schemas/{name}", { params: { path: { name } } })),
    ),
  );
  return { image: schemaDoc(image!.schema as Schema), video: schemaDoc(video!.schema as Schema) };
};

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

export const Builder = () => {
  useTitle("Builder");
  const session = useSession();
  const signedIn = session.state.status === "signed-in";
  const [state, setState] = useState(() => initialState(initialDoc()));
  const current = useRef(state);
  /** Whether html layers may run their scripts in the preview: not for a config from a link until agreed. */
  const [scripts, setScripts] = useState(() => readBuilderLink(location.hash) === null);
  /** The account's job a job link names, while it is read (or why it could not be). */
  const [opening, setOpening] = useState<{ id: string; error?: unknown } | null>(() => {
    const id = readJobLink(location.hash);
    return id ? { id } : null;
  });
  /** The live region's sentence: what the last change did, for changes a screen reader cannot see happen. */
  const [announcement, setAnnouncement] = useState("");
  /**
   * Applies an action now; a change of what the preview draws is marked for its timing (markChange), and one made
   * out of sight (canvas, timeline, lists, undo) is announced.
   */
  const dispatch = useCallback((action: Action) => {
    const before = current.current;
    const next = reduce(before, action);
    if (next === before) return;
    const drawn = next.history.present.type === "image";
    if (drawn && (next.history.present !== before.history.present || next.hidden !== before.hidden))
      markChange();
    current.current = next;
    setState(next);
    const said = describeChange(before, action, next);
    // The same sentence twice (two equal nudges) differs by a trailing space, so it is spoken again.
    if (said) setAnnouncement((last) => (last === said ? `${said} ` : said));
  }, []);
  const doc = state.history.present;
  const schemas = useResource(loadSchemas, []);
  const validation = useValidation(doc, signedIn);
  const files = useFiles(signedIn);
  const issues = issuesOf("result" in validation ? validation.result : undefined);

  // A job link: the job's config, read with the session, starts a fresh history (no undo back to what was before).
  useEffect(() => {
    if (!opening || opening.error) return;
    let live = true;
    data(api.GET("/api/v1/jobs/{jobId}", { params: { path: { jobId: opening.id } } })).then(
      (job) => {
        if (!live) return;
        const type = job.type.toLowerCase() as JobKind;
        current.current = initialState({ type, config: job.config as JsonObject });
        setState(current.current);
        setScripts(true);
        setOpening(null);
      },
      (error: unknown) => live && setOpening({ id: opening.id, error }),
    );
    return () => {
      live = false;
    };
  }, [opening]);

  // A link followed on this page (another "Open in builder") hands over its config without a reload.
  useEffect(() => {
    const onHash = () => {
      const id = readJobLink(location.hash);
      if (id) {
        setOpening({ id });
        return;
      }
      const handed = readBuilderLink(location.hash);
      if (!handed) return;
      setScripts(false);
      dispatch({ type: "replace", doc: { type: handed.type, config: handed.config as JsonObject } });
      dispatch({ type: "select", path: null });
    };
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, [dispatch]);

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

  const kinds = schemas.state.data;
  const ctx: PanelContext | null = kinds
    ? { config: doc.config, schemas: kinds[doc.type], issues, files, dispatch }
    : null;
  return (
    <div class="builder">
      <FontSuggestions />
      <div class="builder-bar" role="toolbar" aria-label="Builder">
        <h1>Builder</h1>
        <label>
          Job type{" "}
          <select
            id="type"
            value={doc.type}
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
            disabled={!state.history.past.length}
            onClick={() => dispatch({ type: "undo" })}
          >
            Undo
          </button>
          <button
            type="button"
            class="secondary small"
            aria-keyshortcuts="Control+Shift+Z Control+Y"
            disabled={!state.history.future.length}
            onClick={() => dispatch({ type: "redo" })}
          >
            Redo
          </button>
        </span>
        <p id="estimate" class="verdict" role="status">
          <Verdict validation={validation} />
        </p>
      </div>
      <p id="announcer" class="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      {schemas.state.status === "error" && (
        <Notice kind="error">
          <p>The config schemas could not be loaded: {explain(schemas.state.error)}</p>
        </Notice>
      )}
      {opening?.error !== undefined && (
        <Notice kind="error">
          <p>
            Job {opening.id} could not be opened: {explain(opening.error)}
          </p>
        </Notice>
      )}
      {opening && opening.error === undefined ? (
        <Loading what={`Opening job ${opening.id}`} />
      ) : !ctx ? (
        <Loading what="Loading the config schemas" />
      ) : doc.type === "image" ? (
        <ImageEditor
          state={state}
          ctx={ctx}
          files={files}
          scripts={scripts}
          onRunScripts={() => setScripts(true)}
        />
      ) : (
        <VideoEditor state={state} ctx={ctx} files={files} signedIn={signedIn} />
      )}
      <div class="builder-lower">
        <section class="json-panel" aria-labelledby="json-title">
          <h2 id="json-title">JSON</h2>
          <JsonView doc={doc} issues={issues} dispatch={dispatch} />
        </section>
        <div class="side">
          {/* A render or a saved template of one kind of job is not shown over the other kind. */}
          <RenderPanel key={doc.type} doc={doc} signedIn={signedIn} />
          <section class="panel" aria-labelledby="template-title" data-own-undo>
            <h2 id="template-title">Save as a template</h2>
            <SaveTemplate key={doc.type} doc={doc} signedIn={signedIn} />
          </section>
        </div>
      </div>
    </div>
  );
};
