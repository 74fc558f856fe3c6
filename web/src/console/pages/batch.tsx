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
        {(b) => (
          <>
            <PageHeader title="Batch">
              {b.status === "RUNNING" ? (
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
                  {b.counts.COMPLETED > 0 && (
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
              <a href={`/console/templates/${b.templateId}`}>The template</a>
            </p>
            <section class="panel" aria-labelledby="state-h">
              <h2 id="state-h">
                <code>{b.id}</code> <StatusBadge status={b.status} />
              </h2>
              <div aria-live="polite">
                <Progress value={b.progress} label="Batch progress" />
                <p>
                  {b.counts.COMPLETED} completed · {b.counts.PROCESSING} rendering · {b.counts.PENDING}{" "}
                  waiting · {b.counts.FAILED} failed · {b.counts.CANCELLED} cancelled · {b.rejected} rows
                  refused at submission
                </p>
              </div>
              <p class="muted">
                Started {formatDate(b.createdAt)}
                {b.endedAt ? `, ended ${formatDate(b.endedAt)}` : ""}; mode {b.mode}.
              </p>
            </section>
            <BatchRows jobs={b.jobs} />
          </>
        )}
      </Show>
    </>
  );
};
