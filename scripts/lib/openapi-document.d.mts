// Types of openapi-document.mjs for the TypeScript callers (tests).
export const LOCAL_ORIGIN: string;
export function servedDocument(root: string, origin?: string): Promise<Record<string, unknown>>;
