/**
 * `/console/jobs`: the account's jobs with filters (status, type), a search (id, config text, error) and paging,
 * in the address bar so a view can be shared and reloaded. While any job on the page is open, the page refreshes
 * every 2 s (one request, not an event stream per row: a browser keeps only 6 connections to a host); a job's own
 * page follows its event stream.
 */
import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, data } from "../../shared/api.ts";
import type { JobListItem } from "../../shared/api-types.ts";
import { Field, FormErrors, useForm } from "../../shared/forms.tsx";
import { formatDate } from "../../shared/format.ts";
import { PageHeader } from "../../shared/layout.tsx";
import {
  Notice,
  Pager,
  Progress,
  Show,
  StatusBadge,
  TableWrap,
  useResource,
  useTitle,
} from "../../shared/ui.tsx";
import { EXAMPLE_JOB } from "../example.ts";

const STATUSES = ["PENDING", "PROCESSING", "COMPLETED", "FAILED", "CANCELLED"] as const;
const OPEN = new Set(["PENDING", "PROCESSING"]);

/** Renders the landing page's example: a first job for a new account, made from the console itself. */
const RenderExample = () => {
  const { route } = useLocation();
  const form = useForm(
    () => data(api.POST("/api/v1/jobs", { body: EXAMPLE_JOB })),
    (job) => route(`/console/jobs/${job.jobId}`),
  );
  return (
    <form onSubmit={form.onSubmit}>
      <button type="submit" class="secondary" disabled={form.busy}>
        {form.busy ? "Creating…" : "Render the example"}
      </button>
      <FormErrors form={form} />
    </form>
  );
};

/** The list's filters: a search (applied after a pause in typing), the status and the type. */
const JobFilters = ({
  search,
  setSearch,
  status,
  type,
  setFilters,
}: {
  search: string;
  setSearch: (search: string) => void;
  status: string;
  type: string;
  setFilters: (change: { search?: string; status?: string; type?: string }) => void;
}) => (
  <form class="filters" role="search" onSubmit={(e) => (e.preventDefault(), setFilters({ search }))}>
    <Field name="search" label="Search" class="grow">
      {(control) => (
        <input
          {...control}
          type="search"
          placeholder="Job id, text in the config, error"
          value={search}
          onInput={(e) => setSearch(e.currentTarget.value)}
        />
      )}
    </Field>
    <Field name="status" label="Status">
      {(control) => (
        <select {...control} value={status} onChange={(e) => setFilters({ status: e.currentTarget.value })}>
          <option value="">Any</option>
          {STATUSES.map((option) => (
            <option key={option} value={option}>
              {option.toLowerCase()}
            </option>
          ))}
        </select>
      )}
    </Field>
    <Field name="type" label="Type">
      {(control) => (
        <select {...control} value={type} onChange={(e) => setFilters({ type: e.currentTarget.value })}>
          <option value="">Any</option>
          <option value="IMAGE">image</option>
          <option value="VIDEO">video</option>
        </select>
      )}
    </Field>
  </form>
);

/** One page of jobs: id (and error), type and format, status, progress, tokens, creation time. */
const JobsTable = ({ jobs: list }: { jobs: JobListItem[] }) => (
  <TableWrap label="Jobs">
    <table class="cards">
      <thead>
        <tr>
          <th>Job</th>
          <th>Type</th>
          <th>Status</th>
          <th>Progress</th>
          <th class="num">Tokens</th>
          <th>Created</th>
        </tr>
      </thead>
      <tbody>
        {list.map((job) => (
          <tr key={job.id}>
            <td data-label="Job">
              <a href={`/console/jobs/${job.id}`}>{job.id}</a>
              {job.errorMessage && <p class="field-error">{job.errorMessage}</p>}
            </td>
            <td data-label="Type">
              {job.type.toLowerCase()} · {job.outputFormat}
            </td>
            <td data-label="Status">
              <StatusBadge status={job.status} />
            </td>
            <td data-label="Progress">
              {job.status === "PROCESSING" && job.progress ? (
                <Progress value={job.progress.percent} label={`Progress of ${job.id}`} />
              ) : (
                "—"
              )}
            </td>
            <td data-label="Tokens" class="num">
              {job.tokensUsed}
            </td>
            <td data-label="Created">{formatDate(job.createdAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  </TableWrap>
);

export const Jobs = () => {
  useTitle("Jobs");
  const { query, route, path } = useLocation();
  const filters = {
    status: query.status ?? "",
    type: query.type ?? "",
    search: query.search ?? "",
    page: Number(query.page ?? "1") || 1,
  };
  const [search, setSearch] = useState(filters.search);
  const setFilters = (change: Partial<typeof filters>) => {
    const next = { ...filters, page: 1, ...change };
    const params = new URLSearchParams();
    if (next.status) params.set("status", next.status);
    if (next.type) params.set("type", next.type);
    if (next.search) params.set("search", next.search);
    if (next.page > 1) params.set("page", String(next.page));
    const qs = params.toString();
    route(`${path}${qs ? `?${qs}` : ""}`, true);
  };
  // Typing searches after a short pause, without a request per key.
  useEffect(() => {
    if (search === filters.search) return;
    const timer = setTimeout(() => setFilters({ search }), 350);
    return () => clearTimeout(timer);
  });
  const jobs = useResource(
    () =>
      data(
        api.GET("/api/v1/jobs", {
          params: {
            query: {
              page: String(filters.page),
              limit: "20",
              ...(filters.status ? { status: filters.status } : {}),
              ...(filters.type ? { type: filters.type } : {}),
              ...(filters.search ? { search: filters.search } : {}),
            },
          },
        }),
      ),
    [filters.status, filters.type, filters.search, filters.page],
  );
  const anyOpen = jobs.state.data?.jobs.some((j) => OPEN.has(j.status)) ?? false;
  useEffect(() => {
    if (!anyOpen) return;
    const timer = setInterval(() => void jobs.reload(), 2000);
    return () => clearInterval(timer);
  }, [anyOpen]);
  return (
    <>
      <PageHeader title="Jobs">
        <RenderExample />
        <a class="button secondary" href="/builder">
          New job in the builder
        </a>
      </PageHeader>
      <JobFilters
        search={search}
        setSearch={setSearch}
        status={filters.status}
        type={filters.type}
        setFilters={setFilters}
      />
      <Show resource={jobs} what="Loading jobs">
        {({ jobs: list, pagination }) =>
          list.length === 0 ? (
            <Notice kind="info">
              {filters.status || filters.type || filters.search
                ? "No job matches these filters."
                : "No jobs yet: render the example, or create one in the builder or through the API."}
            </Notice>
          ) : (
            <>
              <p class="muted" aria-live="polite">
                {pagination.totalCount} job{pagination.totalCount === 1 ? "" : "s"}
              </p>
              <JobsTable jobs={list} />
              <Pager
                page={filters.page}
                totalPages={pagination.totalPages}
                onPage={(page) => setFilters({ page })}
              />
            </>
          )
        }
      </Show>
    </>
  );
};
