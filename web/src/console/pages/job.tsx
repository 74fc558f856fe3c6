/**
 * `/console/jobs/:id`: one job. While it is open the page follows its event stream (GET /api/v1/jobs/{id}/events:
 * status and progress live, then the whole job); then it shows the output (picture or video player, with the
 * captions track when the job asked for captions), a download link, the caption files, the config, and links to
 * open the config in the builder or cancel a job that has not started.
 */
import { api, data, downloadUrl } from "../../shared/api.ts";
import type { Job } from "../../shared/api-types.ts";
import { builderJobLink } from "../../shared/builder-link.ts";
import { showsAsPicture } from "../../shared/output-view.ts";
import { formatBytes, formatDate } from "../../shared/format.ts";
import { PageHeader } from "../../shared/layout.tsx";
import { ConfirmButton, CopyButton, Show, useResource, useTitle } from "../../shared/ui.tsx";
import { JobProgress, useLiveJob } from "./job-progress.tsx";

type Captions = NonNullable<Job["captions"]>;

const Output = ({ job }: { job: Job }) => {
  if (job.status !== "COMPLETED" || !job.outputFileId) return null;
  const src = downloadUrl(job.outputFileId);
  const vtt = job.captions?.files.find((f) => f.kind === "vtt");
  return (
    <section class="panel" aria-labelledby="output-h">
      <h2 id="output-h">Output</h2>
      {showsAsPicture(job) ? (
        <img class="preview" src={src} alt={`The output of job ${job.id}`} />
      ) : (
        <video
          class="preview"
          src={src}
          controls
          preload="metadata"
          aria-label={`The output of job ${job.id}`}
        >
          {vtt && (
            <track
              kind="captions"
              src={vtt.downloadUrl}
              srclang={job.captions?.status === "done" ? (job.captions.language ?? "en") : "en"}
              label="Captions"
              default
            />
          )}
        </video>
      )}
      <p>
        <a class="button" href={src} download={`${job.id}.${job.outputFormat}`}>
          Download {job.outputFormat.toUpperCase()}
        </a>
      </p>
    </section>
  );
};

const CaptionFiles = ({ captions }: { captions: Captions }) => (
  <section class="panel" aria-labelledby="captions-h">
    <h2 id="captions-h">Captions</h2>
    {captions.status === "pending" ? (
      <p>The captions are made with the video.</p>
    ) : (
      <>
        <p>
          {captions.words} words in {captions.cues} cues
          {captions.language ? `, language ${captions.language}` : ""}
          {captions.backend ? ` (${captions.backend})` : ""}.
        </p>
        {captions.note && <p class="muted">{captions.note}</p>}
        <ul>
          {captions.files.map((file) => (
            <li key={file.fileId}>
              <a href={file.downloadUrl} download>
                {file.kind === "transcript" ? "Transcript (JSON)" : file.kind.toUpperCase()}
              </a>{" "}
              <span class="muted">{formatBytes(file.size)}</span>
            </li>
          ))}
        </ul>
      </>
    )}
  </section>
);

/** What the job is and when it ran: type and format, tokens, times, its callback and metadata. */
const JobFacts = ({ job }: { job: Job }) => (
  <dl class="facts">
    <dt>Type</dt>
    <dd>
      {job.type.toLowerCase()} · {job.outputFormat}
    </dd>
    <dt>Tokens</dt>
    <dd>{job.tokensUsed}</dd>
    <dt>Created</dt>
    <dd>{formatDate(job.createdAt)}</dd>
    <dt>Started</dt>
    <dd>{formatDate(job.startedAt)}</dd>
    <dt>Finished</dt>
    <dd>{formatDate(job.completedAt)}</dd>
    {job.webhookUrl && (
      <>
        <dt>Callback</dt>
        <dd class="wrap">
          <code>{job.webhookUrl}</code> (<a href="/console/webhooks/job-callbacks">deliveries</a>)
        </dd>
      </>
    )}
    {job.metadata && (
      <>
        <dt>Metadata</dt>
        <dd>
          <pre class="json" tabIndex={0} aria-label="The job's metadata">
            {JSON.stringify(job.metadata, null, 2)}
          </pre>
        </dd>
      </>
    )}
  </dl>
);

export const JobPage = ({ id }: { id: string }) => {
  useTitle(`Job ${id}`);
  const loaded = useResource(
    () => data(api.GET("/api/v1/jobs/{jobId}", { params: { path: { jobId: id } } })),
    [id],
  );
  const { job, link } = useLiveJob(loaded.state.data);
  return (
    <>
      <PageHeader title="Job">
        {job && (
          <>
            <a class="button secondary" href={builderJobLink(job.id)}>
              Open in builder
            </a>
            {job.status === "PENDING" && (
              <ConfirmButton
                question="Cancel this job? Its reserved tokens are released."
                onConfirm={async () => {
                  await data(api.DELETE("/api/v1/jobs/{jobId}", { params: { path: { jobId: id } } }));
                  await loaded.reload();
                }}
              >
                Cancel job
              </ConfirmButton>
            )}
          </>
        )}
      </PageHeader>
      <p>
        <a href="/console/jobs">All jobs</a>
      </p>
      <Show
        resource={{ state: job ? { status: "ready", data: job } : loaded.state, reload: loaded.reload }}
        what="Loading the job"
      >
        {(job) => (
          <>
            <section class="panel" aria-labelledby="status-h">
              <h2 id="status-h">
                <code>{job.id}</code>
              </h2>
              <JobProgress job={job} link={link} reload={loaded.reload} />
              <JobFacts job={job} />
            </section>
            <Output job={job} />
            {job.captions && <CaptionFiles captions={job.captions} />}
            <section class="panel" aria-labelledby="config-h">
              <h2 id="config-h">Config</h2>
              <p>
                <CopyButton text={JSON.stringify(job.config, null, 2)} label="Copy config" />
              </p>
              <pre class="json" tabIndex={0} aria-label="The job's config">
                {JSON.stringify(job.config, null, 2)}
              </pre>
            </section>
          </>
        )}
      </Show>
    </>
  );
};
