/**
 * The validator's errors and warnings (POST /api/v1/jobs/validate, fields like `config.layers[2].width`), looked
 * up by the field a control edits: its own problems, or those of everything inside it.
 */
import type { Validation } from "./validation.ts";
import { within } from "./paths.ts";

export type Problem = { field?: string; message: string; code?: string };

export interface Issues {
  errors: Problem[];
  warnings: Problem[];
}

export const NO_ISSUES: Issues = { errors: [], warnings: [] };

export const issuesOf = (result: Validation | undefined): Issues =>
  result ? { errors: result.errors, warnings: result.warnings } : NO_ISSUES;

/** Messages of the problems at `field` (`exact`) or inside it, the inner ones led by their own field. */
export const messagesAt = (problems: Problem[], field: string, exact = false): string[] =>
  problems
    .filter((p) => p.field !== undefined && (exact ? p.field === field : within(p.field, field)))
    .map((p) =>
      p.field === field ? p.message : `${p.field!.slice(field.length).replace(/^\./, "")}: ${p.message}`,
    );

/** Whether anything at or inside `field` has an error. */
export const hasErrorAt = (issues: Issues, field: string) => messagesAt(issues.errors, field).length > 0;
