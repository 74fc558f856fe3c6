// Types of layers.mjs for the TypeScript callers (tests).
export function folderGraph(root: string): Map<string, string[]>;
export function folderCycles(edges: Map<string, string[]>): string[][];
export function layerProblems(roots: string[]): string[];
export function escapeProblems(roots: string[]): string[];
export function floorProblems(
  rules: { root: string; floor: string; below?: string[]; types?: string[] }[],
): string[];
export function wiringProblems(rules: { root: string; types?: string[] }[]): string[];
