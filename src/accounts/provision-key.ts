/**
 * `npm run key`: an API key for the account of an address, created on a plan if it does not exist yet, through
 * the same verbs as the API (createAccount as verify does, createApiKey as POST /api/v1/api-keys does, with the
 * same request schema). Runs in Node against the local D1 (scripts/key.mjs).
 */
import * as v from "valibot";
import type { Ctx } from "../context.ts";
import { createApiKey } from "../keys/create-api-key.ts";
import { CreateApiKeyBody } from "../keys/schemas.ts";
import { ValidationFailed } from "../lib/errors.ts";
import { parseOrThrow } from "../lib/validate.ts";
import { createAccount } from "./create-account.ts";
import { findAccountByEmail } from "./lookup.ts";

export const ProvisionInput = v.object({
  email: v.pipe(v.string(), v.email("--email must be an e-mail address"), v.toLowerCase()),
  planId: v.optional(v.string(), "free"),
});

export const provisionKey = async (
  ctx: Ctx,
  input: { email: string; planId?: string; key: unknown },
): Promise<{ key: string; email: string; planId: string; created: boolean }> => {
  const who = parseOrThrow(ProvisionInput, { email: input.email, planId: input.planId });
  const body = parseOrThrow(CreateApiKeyBody, input.key);
  const existing = await findAccountByEmail(ctx, who.email);
  if (existing && input.planId && existing.planId !== who.planId)
    throw new ValidationFailed([
      {
        field: "plan",
        message: `${who.email} is on the ${existing.planId} plan; change plans with POST /api/v1/billing/plan`,
      },
    ]);
  const account = existing ?? (await createAccount(ctx, { email: who.email, planId: who.planId }));
  const { key } = await createApiKey(ctx, { userId: account.id, ...body });
  return { key, email: account.email, planId: account.planId, created: !existing };
};
