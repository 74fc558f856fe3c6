/**
 * The job page's live part (job.tsx): while a job is open, its event stream (GET /api/v1/jobs/{id}/events) moves its
 * status and progress, and the page says when the stream reconnects or is lost.
 */
import { useEffect, useState } from "preact/hooks";
import { followJob } from "../../shared/api.ts";
import type { Job } from "../../shared/api-types.ts";
import { Notice, Progress, StatusBadge } from "../../shared/ui.tsx";

const OPEN = new Set(["PENDING", "PROCESSING"]);

/** The state of the link to the event stream: none while the job is not open. */
type StreamLink = "live" | "reconnecting" | "lost" | null;

/** The job as its stream tells it: progress events update it, `done` replaces it. */
export const useLiveJob = (initial: Job | undefined) => {
  const [job, setJob] = useState<Job | undefined>(initial);
  const [link, setLink] = useState<StreamLink>(null);
  useEffect(() => setJob(initial), [initial]);
  const id = initial?.id;
  const open = initial ? OPEN.has(initial.status) : false;
  useEffect(() => {
    if (!id || !open) return;
    setLink("live");
    return followJob(
      id,
      (e) => {
        setLink("live");
        if (e.event === "done") setJob(e.data);
        else
          setJob((j) =>
            j ? { ...j, status: e.data.status, progress: e.data.progress, updatedAt: e.data.updatedAt } : j,
          );
      },
      (reconnecting) => setLink(reconnecting ? "reconnecting" : "lost"),
    );
  }, [id, open]);
  return { job, link };
};

/** The job's status and, while it is open, its stage, its progress bar and the stream's state (a live region). */
export const JobProgress = ({ job, link, reload }: { job: Job; link: StreamLink; reload: () => unknown }) => (
  <div aria-live="polite">
    <p>
      <StatusBadge status={job.status} />{" "}
      {job.progress?.stage && OPEN.has(job.status) ? <span class="muted">{job.progress.stage}</span> : null}
    </p>
    {OPEN.has(job.status) && <Progress value={job.progress?.percent ?? 0} label="Rendering progress" />}
    {link === "reconnecting" && OPEN.has(job.status) && (
      <p class="muted">Reconnecting to the progress stream…</p>
    )}
    {link === "lost" && OPEN.has(job.status) && (
      <Notice kind="warning">
        The progress stream stopped.{" "}
        <button type="button" class="secondary small" onClick={() => void reload()}>
          Reload
        </button>
      </Notice>
    )}
    {job.errorMessage && <Notice kind="error">{job.errorMessage}</Notice>}
  </div>
);
