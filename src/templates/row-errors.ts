/**
 * The errors of a batch's rows, bounded. Each rejected row keeps its first MAX_ERRORS_PER_ROW errors and its count
 * while the batch is checked (so memory stays small however bad the rows), and an answer lists at most
 * MAX_REPORTED_ERRORS of them, counting the rest in a closing MORE_ERRORS entry.
 */
import type { RejectedRow } from "../db/schema.ts";
import type { FieldError } from "../lib/errors.ts";
import { MAX_ERRORS_PER_ROW, MAX_REPORTED_ERRORS } from "./limits.ts";
import type { RowError } from "@media-render/contract/config/template-variables";

/** A rejected row while the batch is checked: its first errors and how many it had. */
export interface RowErrors {
  row: number;
  name: string | null;
  errors: FieldError[];
  total: number;
}

export const rejectRow = (row: number, name: string | null, errors: readonly FieldError[]): RowErrors => ({
  row,
  name,
  errors: errors.slice(0, MAX_ERRORS_PER_ROW),
  total: errors.length,
});

const moreErrors = (field: string, count: number, where = ""): FieldError => ({
  field,
  message: `and ${count} more error${count === 1 ? "" : "s"}${where}`,
  code: "MORE_ERRORS",
});

/**
 * A valid-only batch's rejected rows, as answered and stored: every rejected row is listed, with at most
 * MAX_ERRORS_PER_ROW of its errors while the batch's MAX_REPORTED_ERRORS last; a row's closing MORE_ERRORS entry
 * counts the errors it does not list.
 */
export const rejectedRows = (rows: readonly RowErrors[]): RejectedRow[] => {
  let left = MAX_REPORTED_ERRORS;
  return rows.map((row) => {
    const shown = row.errors.slice(0, Math.max(0, left));
    left -= shown.length;
    const rest = row.total - shown.length;
    return {
      row: row.row,
      name: row.name,
      errors: rest ? [...shown, moreErrors("row", rest, " in this row")] : shown,
    };
  });
};

/**
 * The errors of an all-or-nothing refusal, in row order: at most MAX_ERRORS_PER_ROW of each row and
 * MAX_REPORTED_ERRORS in all, then one entry counting every error not listed.
 */
export const refusalErrors = (rows: readonly RowErrors[]): FieldError[] => {
  const listed: RowError[] = [];
  for (const row of rows)
    for (const error of row.errors) {
      if (listed.length === MAX_REPORTED_ERRORS) break;
      listed.push({ row: row.row, ...error });
    }
  const total = rows.reduce((n, r) => n + r.total, 0);
  return total > listed.length ? [...listed, moreErrors("rows", total - listed.length)] : listed;
};
