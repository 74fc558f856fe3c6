// Types of system.mjs for the TypeScript callers (tests).
export const CHROMIUM_SEALED_FLAGS: string[];
export const CHROMIUM_SEALED_PREFERENCES: string;
export function localChromeLauncher(sandbox?: boolean): string;
export function ensurePrerequisites(root: string): void;
export function chromiumBinary(): string;
export function bin(root: string, name: string): string;
export const BROWSER_USER: string;
/** [package, file that proves it is installed, where it is needed]. */
export const APT_PACKAGES: [string, string, "runtime" | "build" | "local" | "image"][];
