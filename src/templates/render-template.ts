/**
 * POST /api/v2/templates/{id}/renders: one job from a saved template. The variables are merged as a batch row's are
 * (the same types, defaults, conditions and errors: variables.ts), then the job is created exactly as
 * POST /api/v1/jobs creates one (createJob: the grammar, the caller's files, public URLs imported, the reserve, the
 * concurrent-job limit, `webhookUrl`, `metadata` and `destinations`), and answered the same way.
 */
import * as v from "valibot";
import type { CallerCtx } from "../context.ts";
import { Destinations } from "../destinations/schemas.ts";
import { createJob } from "../jobs/create-job.ts";
import type { Fetcher } from "../jobs/import-inputs.ts";
import { CallbackFields, type JobCreated } from "../jobs/schemas.ts";
import { ValidationFailed } from "../lib/errors.ts";
import { getOwnedTemplate } from "./lookup.ts";
import { MAX_BATCH_COLUMNS, MAX_REPORTED_ERRORS } from "./limits.ts";
import { mergeRow } from "@media-render/contract/config/template-variables";

/** The body of a template render: the variables (name -> value, like a JSON batch row) and the job's extras. */
export const RenderBody = v.object({
  variables: v.optional(
    v.pipe(
      v.record(v.string(), v.unknown(), "variables must be an object of variable name -> value"),
      v.description("Each variable's value, as a JSON batch row gives it; left out: its default"),
    ),
    {},
  ),
  ...CallbackFields.entries,
  destinations: v.optional(Destinations),
});
export type RenderBody = v.InferOutput<typeof RenderBody>;

export const renderTemplate = async (
  ctx: CallerCtx,
  input: { templateId: string } & RenderBody,
  fetcher?: Fetcher,
): Promise<JobCreated> => {
  const template = await getOwnedTemplate(ctx, input.templateId);
  const names = Object.keys(input.variables);
  // Held to a batch row's column limit: one error, not one per key.
  const merged =
    names.length > MAX_BATCH_COLUMNS
      ? {
          errors: [
            {
              field: "variables",
              message: `${names.length} variables given; at most ${MAX_BATCH_COLUMNS}`,
              code: "TOO_MANY_COLUMNS",
            },
          ],
        }
      : mergeRow(template.config, template.variables, input.variables, new Set());
  if ("errors" in merged)
    throw new ValidationFailed(
      merged.errors
        .slice(0, MAX_REPORTED_ERRORS)
        .map((e) => ({ ...e, field: e.field === "variables" ? e.field : `variables.${e.field}` })),
      "The variables do not fit the template",
    );
  return createJob(
    ctx,
    {
      type: template.type === "IMAGE" ? "image" : "video",
      config: merged.config,
      webhookUrl: input.webhookUrl,
      metadata: input.metadata,
      destinations: input.destinations,
    },
    fetcher,
  );
};
