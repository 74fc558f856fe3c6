// Types of openapi-to-ts.mjs for the TypeScript callers (tests).
export function tsType(schema: unknown, indent?: string): string;
export function openApiToTs(doc: unknown): string;
