// Types of secrets.mjs for the TypeScript callers (tests).
export function ensureDevVars(root: string, overrides?: Record<string, string>): Record<string, string>;
