/**
 * v2 scopes (spec, Authentication rule 8): `resource:action` strings on API keys. A key's effective scopes are the
 * scopes it was given plus those its v1 permissions imply, so a `jobs:full` key works on v2 render routes without
 * being re-issued; scopes only ever add. The table is the one the README publishes.
 */

/** Every scope, with what it allows. */
export const SCOPES = {
  "renders:create": "create renders and manage render webhooks (create, update, delete, rotate, test)",
  "renders:read": "read renders and their outputs",
  "operations:read": "read operations: webhook deliveries, batch status",
  "operations:cancel": "cancel operations: batches, replay dead-lettered deliveries",
  "templates:read": "read templates",
  "templates:write": "create, update and delete templates",
  "templates:bulk": "submit template batches and download their bulk outputs",
} as const;

export type Scope = keyof typeof SCOPES;
export const SCOPE_NAMES = Object.keys(SCOPES) as [Scope, ...Scope[]];
