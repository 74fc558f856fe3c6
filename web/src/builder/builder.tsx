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
import { BuilderBar, firstOf, useUndoKeys } from "./builder-bar.tsx";
import { Loading, Notice, useResource, useTitle } from "../shared/ui.tsx";
import { ImageEditor } from "./image/image-editor.tsx";
import { markChange } from "./image/use-preview.ts";
import { describeChange } from "./model/announce.ts";
import { RenderPanel } from "./jobs/render-panel.tsx";
import { JsonView } from "./json/json-view.tsx";
import { useFiles } from "./model/files.ts";
import { issuesOf, type Issues } from "./model/issues.ts";
import type { JsonObject } from "./model/paths.ts";
import { initialState, reduce, type Action, type Doc, type JobKind } from "./model/store.ts";
import { useValidation } from "./model/validation.ts";
import { FontSuggestions } from "./panels/controls.tsx";
import type { PanelContext } from "./panels/property-panel.tsx";
import { schemaDoc, type Schema, type SchemaDoc } from "./schema/fields.ts";
import { SaveTemplate } from "./templates/save-template.tsx";
import { VideoEditor } from "./video/video-editor.tsx";

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

/** What could not be loaded: the config schemas, or the job a job link names. */
const LoadNotices = ({
  schemasError,
  opening,
}: {
  schemasError: unknown;
  opening: { id: string; error?: unknown } | null;
}) => (
  <>
    {schemasError !== undefined && (
      <Notice kind="error">
        <p>The config schemas could not be loaded: {explain(schemasError)}</p>
      </Notice>
    )}
    {opening?.error !== undefined && (
      <Notice kind="error">
        <p>
          Job {opening.id} could not be opened: {explain(opening.error)}
        </p>
      </Notice>
    )}
  </>
);

/** Below the editor: the JSON view, and rendering and saving as a template (each for the document's kind). */
const BuilderLower = ({
  doc,
  issues,
  dispatch,
  signedIn,
}: {
  doc: Doc;
  issues: Issues;
  dispatch: (action: Action) => void;
  signedIn: boolean;
}) => (
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
);

/** A link followed on this page (another "Open in builder") hands over its job or its config without a reload. */
const useHandedLinks = (
  dispatch: (action: Action) => void,
  setOpening: (opening: { id: string }) => void,
  setScripts: (scripts: boolean) => void,
) => {
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
};

/**
 * A job link: the account's job `opening` names is read with the session; its config starts a fresh history (no undo
 * back to what was before), or why it could not be read is kept.
 */
const useOpenedJob = (
  opening: { id: string; error?: unknown } | null,
  setOpening: (opening: { id: string; error?: unknown } | null) => void,
  onOpened: (doc: Doc) => void,
) => {
  useEffect(() => {
    if (!opening || opening.error) return;
    let live = true;
    data(api.GET("/api/v1/jobs/{jobId}", { params: { path: { jobId: opening.id } } })).then(
      (job) => {
        if (!live) return;
        onOpened({ type: job.type.toLowerCase() as JobKind, config: job.config as JsonObject });
        setOpening(null);
      },
      (error: unknown) => live && setOpening({ id: opening.id, error }),
    );
    return () => {
      live = false;
    };
  }, [opening]);
};

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

  useOpenedJob(opening, setOpening, (doc) => {
    current.current = initialState(doc);
    setState(current.current);
    setScripts(true);
  });

  useHandedLinks(dispatch, setOpening, setScripts);

  useUndoKeys(dispatch);

  const kinds = schemas.state.data;
  const ctx: PanelContext | null = kinds
    ? { config: doc.config, schemas: kinds[doc.type], issues, files, dispatch }
    : null;
  return (
    <div class="builder">
      <FontSuggestions />
      <BuilderBar
        type={doc.type}
        canUndo={state.history.past.length > 0}
        canRedo={state.history.future.length > 0}
        validation={validation}
        dispatch={dispatch}
      />
      <p id="announcer" class="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      <LoadNotices
        schemasError={schemas.state.status === "error" ? schemas.state.error : undefined}
        opening={opening}
      />
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
      <BuilderLower doc={doc} issues={issues} dispatch={dispatch} signedIn={signedIn} />
    </div>
  );
};
