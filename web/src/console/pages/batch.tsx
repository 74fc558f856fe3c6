/**
 * `/console/batches/:id`: a batch as it runs: progress, counts per status, each row's job, refreshed every 1.5 s
 * until it ends; cancel while it runs; then the ZIP of its outputs and the manifest.
 */
import { useEffect } from "preact/hooks";
import { api, data } from "../../shared/api.ts";
import { formatDate } from "../../shared/format.ts";
import { PageHeader } from "../../shared/layout.tsx";
import { ConfirmButton, Progress, Show, StatusBadge, useResource, useTitle } from "../../shared/ui.tsx";
import { BatchRows } from "./batch-rows.tsx";

export const BatchPage = ({ id }: { id: string }) => {
  useTitle(`Batch ${id}`);
  const batch = useResource(() => data(api.GET("/api/v2/batches/{id}", { params: { path: { id } } })), [id]);
  const running = batch.state.data?.status === "RUNNING";
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => void batch.reload(), 1500);
    return () => clearInterval(timer);
  }, [running]);
  return (
    <>
      <Show resource={batch} what="Loading the batch">
        {(loaded) => (
          <>
            <PageHeader title="Batch">
              {loaded.status === "RUNNING" ? (
                <ConfirmButton
                  question="Cancel the jobs not started yet? Their tokens are released."
                  onConfirm={async () => {
                    await data(api.DELETE("/api/v2/batches/{id}", { params: { path: { id } } }));
                    await batch.reload();
                  }}
                >
                  Cancel batch
                </ConfirmButton>
              ) : (
                <>
                  {loaded.counts.COMPLETED > 0 && (
                    <a class="button" href={`/api/v2/batches/${encodeURIComponent(id)}/output`} download>
                      Download ZIP
                    </a>
                  )}
                  <a
                    class="button secondary"
                    href={`/api/v2/batches/${encodeURIComponent(id)}/manifest?format=csv`}
                    download
                  >
                    Manifest (CSV)
                  </a>
                </>
              )}
            </PageHeader>
            <p>
              <a href={`/console/templates/${loaded.templateId}`}>The template</a>
            </p>
            <section class="panel" aria-labelledby="state-h">
              <h2 id="state-h">
                <code>{loaded.id}</code> <StatusBadge status={loaded.status} />
              </h2>
              <div aria-live="polite">
                <Progress value={loaded.progress} label="Batch progress" />
                <p>
                  {loaded.counts.COMPLETED} completed · {loaded.counts.PROCESSING} rendering ·{" "}
                  {loaded.counts.PENDING} waiting · {loaded.counts.FAILED} failed · {loaded.counts.CANCELLED}{" "}
                  cancelled · {loaded.rejected} rows refused at submission
                </p>
              </div>
              <p class="muted">
                Started {formatDate(loaded.createdAt)}
                {loaded.endedAt ? `, ended ${formatDate(loaded.endedAt)}` : ""}; mode {loaded.mode}.
              </p>
            </section>
            <BatchRows jobs={loaded.jobs} />
          </>
        )}
      </Show>
    </>
  );
};
