/**
 * The batch page's rows (batch.tsx): each row's job, its status (with its progress while it renders, its error when
 * it failed) and its output's download link.
 */
import { downloadUrl } from "../../shared/api.ts";
import type { BatchJob } from "../../shared/api-types.ts";
import { Progress, StatusBadge, TableWrap } from "../../shared/ui.tsx";

/** One row per job of the batch, a table that becomes cards on a phone. */
export const BatchRows = ({ jobs }: { jobs: BatchJob[] }) => (
  <TableWrap label="Rows">
    <table class="cards">
      <thead>
        <tr>
          <th class="num">Row</th>
          <th>Name</th>
          <th>Job</th>
          <th>Status</th>
          <th>Output</th>
        </tr>
      </thead>
      <tbody>
        {jobs.map((j) => (
          <tr key={j.jobId}>
            <td data-label="Row" class="num">
              {j.row}
            </td>
            <td data-label="Name">{j.name ?? "—"}</td>
            <td data-label="Job">
              <a href={`/console/jobs/${j.jobId}`}>{j.jobId}</a>
            </td>
            <td data-label="Status">
              <StatusBadge status={j.status} />
              {j.status === "PROCESSING" && <Progress value={j.progress} label={`Row ${j.row}`} />}
              {j.error && <p class="field-error">{j.error}</p>}
            </td>
            <td data-label="Output">
              {j.outputFileId ? (
                <a href={downloadUrl(j.outputFileId)} download>
                  Download
                </a>
              ) : (
                "—"
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  </TableWrap>
);
