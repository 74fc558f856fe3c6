/**
 * CONTRIBUTING.md's recipe "Adding a route" stays true: it names at most four files, each of which exists (a
 * `<domain>` or `<verb>` in a name standing for any folder or file), and neither the rate limiter nor the MCP server
 * names a route: a route's limits and its tools are said only in its describe() (test/worker/rate-limit.test.ts and
 * test/worker/mcp.test.ts read them back from the app), which is what used to take a path regex in
 * src/lib/rate-limit.ts and a hand list in src/mcp/tools.ts.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The recipe's section of CONTRIBUTING.md, and the file each numbered step touches (its first code span). */
const recipe = (): string[] => {
  const doc = readFileSync(join(root, "CONTRIBUTING.md"), "utf8");
  const start = doc.indexOf("\n## Adding a route\n");
  expect(start).toBeGreaterThan(0);
  const end = doc.indexOf("\n## ", start + 1);
  const text = doc.slice(start, end < 0 ? undefined : end);
  return [...text.matchAll(/^\d+\. `([^`]+)`/gm)].map((m) => m[1]!);
};

/** Whether a file matching `pattern` (`<name>` standing for one path segment, or part of one) exists. */
const exists = (pattern: string): boolean => {
  const [first, ...rest] = pattern.split("/");
  const walk = (dir: string, segments: string[]): boolean => {
    const [segment, ...more] = segments;
    if (segment === undefined) return existsSync(dir);
    if (!segment.includes("<")) return walk(join(dir, segment), more);
    const re = new RegExp(`^${segment.replace(/\./g, "\\.").replace(/<[^>]+>/g, "[^/]+")}$`);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return false;
    return readdirSync(dir).some((entry) => re.test(entry) && walk(join(dir, entry), more));
  };
  return walk(join(root, first!), rest);
};

/** The code of a source file, without its comments. */
const code = (text: string): string =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .split("\n")
    .map((line) => line.replace(/^\s*\/\/.*$/, ""))
    .join("\n");

/**
 * A route's path written out (`/api/v1/jobs`, in a string or a regex), a mount path other than the agents' guide, or
 * a tool declared.
 */
const NAMES_A_ROUTE = /\/api\\?\/v\d|MOUNTS\.(?!llms\b)\w+|\btool\(/;

/** The files that decide which limits a request counts against and which tools MCP offers. */
const DECIDERS = [
  "src/lib/rate-limit.ts",
  "src/lib/declared-routes.ts",
  ...readdirSync(join(root, "src/mcp"))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => `src/mcp/${f}`),
];

describe("the recipe for adding a route", () => {
  it("touches at most four files, each of which exists", () => {
    const files = recipe();
    expect(files[0]).toBe("src/<domain>/routes.ts");
    expect(files.length).toBeLessThanOrEqual(4);
    for (const file of files) expect(exists(file), file).toBe(true);
  });

  it("leaves no route named in the rate limiter or the MCP server", () => {
    const found = DECIDERS.flatMap((file) =>
      code(readFileSync(join(root, file), "utf8"))
        .split("\n")
        .filter((line) => NAMES_A_ROUTE.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it("finds the route lists it exists to keep out", () => {
    for (const line of [
      'if (method === "POST" && /^\\/api\\/v1\\/jobs\\/?$/.test(path)) return [API_LIMIT, JOB_CREATE_LIMIT];',
      "route: `POST ${MOUNTS.jobs}/validate`,",
      "  list_schemas: tool({",
    ])
      expect(NAMES_A_ROUTE.test(code(line)), line).toBe(true);
    for (const line of [
      "`configs (the grammar in brief): ${origin}${MOUNTS.llms}`,",
      "/** A job creation (`rateLimit`: POST /api/v1/jobs, a template render). */",
      "// POST /api/v1/jobs",
    ])
      expect(NAMES_A_ROUTE.test(code(line)), line).toBe(false);
  });
});
