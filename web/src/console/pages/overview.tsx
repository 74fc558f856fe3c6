/** `/console`: the account at a glance: tokens left this period, jobs by status, the latest jobs, where to go. */
import { api, data } from "../../shared/api.ts";
import { formatDate, formatNumber } from "../../shared/format.ts";
import { PageHeader } from "../../shared/layout.tsx";
import { useSession } from "../../shared/session.tsx";
import { ErrorNotice, Loading, StatusBadge, TableWrap, useResource, useTitle } from "../../shared/ui.tsx";
import { UsageMeter } from "./billing.tsx";

export const Overview = () => {
  useTitle("Overview");
  const { state } = useSession();
  const name = state.status === "signed-in" ? state.user.name || state.user.email : "";
  const usage = useResource(() => data(api.GET("/api/v1/billing/usage")), []);
  const stats = useResource(() => data(api.GET("/api/v1/jobs/stats")), []);
  const recent = useResource(() => data(api.GET("/api/v1/jobs", { params: { query: { limit: "5" } } })), []);
  return (
    <>
      <PageHeader title={`Welcome, ${name}`}>
        <a class="button" href="/console/jobs">
          Jobs
        </a>
        <a class="button secondary" href="/console/keys">
          Create an API key
        </a>
      </PageHeader>
      <div class="grid">
        <section class="panel" aria-labelledby="usage-h">
          <h2 id="usage-h">Tokens</h2>
          {usage.state.status === "ready" ? (
            <UsageMeter usage={usage.state.data} />
          ) : usage.state.status === "error" ? (
            <ErrorNotice error={usage.state.error} retry={usage.reload} />
          ) : (
            <Loading />
          )}
        </section>
        <section class="panel" aria-labelledby="jobs-h">
          <h2 id="jobs-h">Jobs</h2>
          {stats.state.status === "ready" ? (
            <dl class="facts">
              <dt>All jobs</dt>
              <dd>{formatNumber(stats.state.data.total)}</dd>
              <dt>Completed</dt>
              <dd>{formatNumber(stats.state.data.byStatus.COMPLETED)}</dd>
              <dt>Running or waiting</dt>
              <dd>
                {formatNumber(stats.state.data.byStatus.PROCESSING + stats.state.data.byStatus.PENDING)}
              </dd>
              <dt>Failed</dt>
              <dd>{formatNumber(stats.state.data.byStatus.FAILED)}</dd>
              <dt>Tokens used</dt>
              <dd>{formatNumber(stats.state.data.totalTokensUsed)}</dd>
            </dl>
          ) : stats.state.status === "error" ? (
            <ErrorNotice error={stats.state.error} retry={stats.reload} />
          ) : (
            <Loading />
          )}
        </section>
      </div>
      <section aria-labelledby="recent-h">
        <h2 id="recent-h">Latest jobs</h2>
        {recent.state.status === "ready" ? (
          recent.state.data.jobs.length ? (
            <TableWrap label="Latest jobs">
              <table>
                <thead>
                  <tr>
                    <th>Job</th>
                    <th>Type</th>
                    <th>Status</th>
                    <th>Created</th>
                  </tr>
                </thead>
                <tbody>
                  {recent.state.data.jobs.map((job) => (
                    <tr key={job.id}>
                      <td>
                        <a href={`/console/jobs/${job.id}`}>{job.id}</a>
                      </td>
                      <td>{job.type.toLowerCase()}</td>
                      <td>
                        <StatusBadge status={job.status} />
                      </td>
                      <td>{formatDate(job.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          ) : (
            <p>
              No jobs yet. <a href="/console/jobs">Render the example</a>, open the{" "}
              <a href="/builder">builder</a>, or create an <a href="/console/keys">API key</a> and call the
              API.
            </p>
          )
        ) : recent.state.status === "error" ? (
          <ErrorNotice error={recent.state.error} retry={recent.reload} />
        ) : (
          <Loading />
        )}
      </section>
    </>
  );
};
