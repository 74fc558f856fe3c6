// Types of client-types.mjs for the TypeScript callers (tests).
export function ensureGenerator(root: string): void;
export function generateTypes(root: string, documentPath: string): string;
