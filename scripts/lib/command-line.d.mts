// Types of command-line.mjs for the TypeScript callers (tests).
export interface CommandSpec {
  name: string;
  command: string;
  args?: string;
  about: string;
  options?: Record<
    string,
    { type: "string" | "boolean"; value?: string; help: string; default?: string | boolean }
  >;
  positionals?: string;
  env?: Record<string, string>;
  check?: (values: Record<string, unknown>, positionals: string[]) => string | undefined;
}
export function helpText(spec: CommandSpec): string;
export function usageError(spec: CommandSpec, message: string): never;
export function parseCommandLine(
  spec: CommandSpec,
  argv?: string[],
): { values: Record<string, string | boolean | undefined>; positionals: string[] };
