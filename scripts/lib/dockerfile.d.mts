// Types of dockerfile.mjs for the TypeScript callers (tests).
export interface Step {
  op: string;
  args: string;
  from?: string;
}
export interface Stage {
  name: string | null;
  from: string;
  steps: Step[];
}
export function parseDockerfile(text: string): Stage[];
export function aptInstalls(run: string): string[];
export function envPairs(args: string): Record<string, string>;
export function contextFilter(text: string): (path: string) => boolean;
export function contextFiles(root: string, text: string): string[];
