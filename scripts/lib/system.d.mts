// Types of system.mjs for the TypeScript callers (tests).
export function ensurePrerequisites(root: string): void;
export function bin(root: string, name: string): string;
