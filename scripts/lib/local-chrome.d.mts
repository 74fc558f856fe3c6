// Types of local-chrome.mjs for the TypeScript callers (tests, benchmarks).
export const CHROMIUM_SEALED_FLAGS: string[];
export const CHROMIUM_SEALED_PREFERENCES: string;
export function localChromeLauncher(sandbox?: boolean): string;
export function chromiumBinary(): string;
export const BROWSER_USER: string;
