/** Fetch-or-throw helpers and public views of templates and batches; every lookup is scoped to the owner. */
import { and, eq } from "drizzle-orm";
import type { CallerCtx } from "../context.ts";
import { batches, templates } from "../db/schema.ts";
import { NotFound } from "../lib/errors.ts";
import { iso } from "../lib/time.ts";
import type { Template } from "./schemas.ts";

export type TemplateRow = typeof templates.$inferSelect;
export type BatchRow = typeof batches.$inferSelect;

export const getOwnedTemplate = async (ctx: CallerCtx, id: string): Promise<TemplateRow> => {
  const row = await ctx.db.query.templates.findFirst({
    where: and(eq(templates.id, id), eq(templates.userId, ctx.caller.userId)),
  });
  if (!row) throw new NotFound("Template");
  return row;
};

export const getOwnedBatch = async (ctx: CallerCtx, id: string): Promise<BatchRow> => {
  const row = await ctx.db.query.batches.findFirst({
    where: and(eq(batches.id, id), eq(batches.userId, ctx.caller.userId)),
  });
  if (!row) throw new NotFound("Batch");
  return row;
};

export const toTemplate = (row: TemplateRow): Template => ({
  id: row.id,
  name: row.name,
  type: row.type === "IMAGE" ? "image" : "video",
  config: row.config,
  variables: row.variables,
  createdAt: iso(row.createdAt)!,
  updatedAt: iso(row.updatedAt)!,
});
