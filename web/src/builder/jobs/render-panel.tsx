/**
 * Rendering the document through the API: the job's progress (live over its event stream) and its output, a
 * picture or a video player, with a download link. Video jobs can also be previewed at low resolution: the same
 * config with `fast: true`, which the renderer draws at ~250x250 pixels of area and at most 15 fps.
 */
import { useRef, useState } from "preact/hooks";
import { explain } from "../../shared/api.ts";
import { showsAsPicture } from "../../shared/output-view.ts";
import { Notice, Progress } from "../../shared/ui.tsx";
import type { Doc } from "../model/store.ts";
import { runJob, type FinishedJob, type JobProgress } from "./run-job.ts";

type Run =
  | { status: "idle" }
  | { status: "running"; progress: JobProgress | null; what: string }
  | { status: "done"; finished: FinishedJob; what: string }
  | { status: "failed"; error: unknown; what: string };

/** The document as a low-resolution preview job. */
export const lowResolution = (doc: Doc): Doc => ({ ...doc, config: { ...doc.config, fast: true } });

export const RenderPanel = ({ doc, signedIn }: { doc: Doc; signedIn: boolean }) => {
  const [run, setRun] = useState<Run>({ status: "idle" });
  const controller = useRef<AbortController | null>(null);
  const start = (what: string, job: Doc) => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setRun({ status: "running", progress: null, what });
    runJob(
      job,
      (progress) => setRun((r) => (r.status === "running" ? { ...r, progress } : r)),
      abort.signal,
    ).then(
      (finished) => !abort.signal.aborted && setRun({ status: "done", finished, what }),
      (error) => !abort.signal.aborted && setRun({ status: "failed", error, what }),
    );
  };
  const busy = run.status === "running";
  const format = (run.status === "done" && run.finished.job.outputFormat) || "";
  return (
    <section class="render-panel panel" aria-labelledby="render-title">
      <h2 id="render-title">Render</h2>
      {!signedIn ? (
        <p>
          <a href="/sign-in">Sign in</a> to render this config (the service renders it in your account).
        </p>
      ) : (
        <div class="actions">
          <button type="button" id="render" disabled={busy} onClick={() => start("Render", doc)}>
            Render {doc.type}
          </button>
          {doc.type === "video" && (
            <button
              type="button"
              id="render-preview"
              class="secondary"
              disabled={busy}
              onClick={() => start("Low-resolution preview", lowResolution(doc))}
            >
              Preview the whole video (low resolution)
            </button>
          )}
        </div>
      )}
      <div aria-live="polite">
        {run.status === "running" && (
          <>
            <p>
              {run.what}:{" "}
              {run.progress
                ? `job ${run.progress.jobId}, ${run.progress.status.toLowerCase()}`
                : "creating the job"}
              {run.progress?.stage ? ` (${run.progress.stage})` : ""}
            </p>
            <Progress value={run.progress?.percent ?? 0} label={`${run.what} progress`} />
          </>
        )}
        {run.status === "failed" && (
          <Notice kind="error">
            <p>
              {run.what}: {explain(run.error)}
            </p>
          </Notice>
        )}
        {run.status === "done" && (
          <div class="render-output">
            <p>
              {run.what}: done, {run.finished.job.tokensUsed} tokens ·{" "}
              <a href={run.finished.outputUrl} download>
                Download {format.toUpperCase()}
              </a>{" "}
              · <a href={`/console/jobs/${run.finished.job.id}`}>Job in the console</a>
            </p>
            {showsAsPicture(run.finished.job) ? (
              <img
                id="rendered"
                class="preview"
                src={run.finished.outputUrl}
                alt={`The rendered ${format} image`}
              />
            ) : (
              <video
                id="rendered"
                class="preview"
                src={run.finished.outputUrl}
                controls
                preload="metadata"
                aria-label={`${run.what}: the rendered video`}
              />
            )}
          </div>
        )}
      </div>
    </section>
  );
};
