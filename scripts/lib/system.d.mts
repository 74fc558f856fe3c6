// Types of system.mjs for the TypeScript callers (tests).
export const CHROMIUM_SEALED_FLAGS: string[];
export const CHROMIUM_SEALED_PREFERENCES: string;
export function localChromeLauncher(sandbox?: boolean): string;
export function ensureLocalChrome(root: string): void;
export function ensureSystemPackages(): void;
export function ensureNativeHelpers(root: string): void;
export function chromiumBinary(): string;
export function bin(root: string, name: string): string;
