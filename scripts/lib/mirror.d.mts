// Types of mirror.mjs for the TypeScript callers (tests).
export function mirrorCheckout(root: string, dir: string, except?: string[]): string;
