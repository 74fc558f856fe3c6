/**
 * POST /api/v2/templates and PUT /api/v2/templates/{id}: a template is checked whole at save time. Its variables
 * (declared, or derived from the `{{name}}` placeholders) must match the placeholders, declared defaults must fit
 * their types, and the config must pass the same validator as a job, with every placeholder standing in for a
 * sample value of its type and every conditional layer shown: only errors at a placeholder's own field are left for
 * the rows to settle. Each layer's condition (`when`) must be one (INVALID_CONDITION otherwise).
 */
import { and, desc, eq } from "drizzle-orm";
import { validateJobConfig } from "@media-render/contract/config";
import { withoutConditions } from "@media-render/contract/config/template-condition";
import type { CallerCtx } from "../context.ts";
import { templates } from "../db/schema.ts";
import { catalogueOnline } from "../fonts/online.ts";
import { ValidationFailed } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { getOwnedTemplate, toTemplate } from "./lookup.ts";
import type { Deleted } from "../lib/envelope.ts";
import { MAX_TEMPLATE_VARIABLES } from "./limits.ts";
import type { Template, TemplateBody, TemplateList } from "./schemas.ts";
import {
  atPlaceholder,
  placeholdersOf,
  sampleValues,
  substitute,
  variableSchema,
} from "@media-render/contract/config/template-variables";

/** Most templates an account may keep. */
export const MAX_TEMPLATES = 200;

const checkTemplate = (ctx: CallerCtx, input: TemplateBody) => {
  const { variables, errors } = variableSchema(input.config, input.variables);
  // Derived variables count too: a row has to be able to give every one of them (MAX_BATCH_COLUMNS).
  if (variables.length > MAX_TEMPLATE_VARIABLES)
    errors.push({
      field: "variables",
      message: `${variables.length} variables (declared and from placeholders); at most ${MAX_TEMPLATE_VARIABLES}`,
      code: "TOO_MANY_VARIABLES",
    });
  const placeholders = placeholdersOf(input.config);
  // Every layer is checked as shown (conditions set aside): a row that hides some is checked when it is merged.
  const sample = substitute(withoutConditions(input.config), sampleValues(variables));
  const checked = validateJobConfig(input.type, sample, { catalogueOnline: catalogueOnline(ctx.env) });
  if (!checked.valid) errors.push(...checked.errors.filter((e) => !atPlaceholder(e, placeholders)));
  if (errors.length) throw new ValidationFailed(errors, "The template is not valid");
  return variables;
};

export const createTemplate = async (ctx: CallerCtx, input: TemplateBody): Promise<Template> => {
  const variables = checkTemplate(ctx, input);
  const count = await ctx.d1
    .prepare("SELECT count(*) AS n FROM templates WHERE user_id = ?1")
    .bind(ctx.caller.userId)
    .first<{ n: number }>();
  if ((count?.n ?? 0) >= MAX_TEMPLATES)
    throw new ValidationFailed([
      {
        field: "body",
        message: `At most ${MAX_TEMPLATES} templates per account`,
        code: "TOO_MANY_TEMPLATES",
      },
    ]);
  const at = ctx.now();
  const row = {
    id: newId("tpl"),
    userId: ctx.caller.userId,
    name: input.name,
    type: input.type === "image" ? ("IMAGE" as const) : ("VIDEO" as const),
    config: input.config,
    variables,
    createdAt: at,
    updatedAt: at,
  };
  await ctx.db.insert(templates).values(row).run();
  return toTemplate(row);
};

export const updateTemplate = async (ctx: CallerCtx, id: string, input: TemplateBody): Promise<Template> => {
  await getOwnedTemplate(ctx, id);
  const variables = checkTemplate(ctx, input);
  await ctx.db
    .update(templates)
    .set({
      name: input.name,
      type: input.type === "image" ? "IMAGE" : "VIDEO",
      config: input.config,
      variables,
      updatedAt: ctx.now(),
    })
    .where(and(eq(templates.id, id), eq(templates.userId, ctx.caller.userId)))
    .run();
  return toTemplate(await getOwnedTemplate(ctx, id));
};

/** Deleting a template leaves its batches alone: their jobs carry their own merged configs. */
export const deleteTemplate = async (ctx: CallerCtx, id: string): Promise<Deleted> => {
  await getOwnedTemplate(ctx, id);
  await ctx.db
    .delete(templates)
    .where(and(eq(templates.id, id), eq(templates.userId, ctx.caller.userId)))
    .run();
  return { id, deleted: true };
};

export const listTemplates = async (ctx: CallerCtx): Promise<TemplateList> => ({
  templates: (
    await ctx.db.query.templates.findMany({
      where: eq(templates.userId, ctx.caller.userId),
      orderBy: desc(templates.createdAt),
    })
  ).map(toTemplate),
});
