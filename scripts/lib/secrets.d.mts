// Types of secrets.mjs for the TypeScript callers (tests).
export function writeDevVars(dir: string, vars: Record<string, string>): void;
export function ensureDevVars(root: string, overrides?: Record<string, string>): Record<string, string>;
