/**
 * `npm run key` (scripts/key.mjs) through mintKeys, as the end-to-end suite and the benchmarks call it: several
 * `--email`s make one key per address in one run, printed in order as the last lines; each key opens its own account.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openLocalD1 } from "../../scripts/lib/local-d1.mjs";
import { mintKey, mintKeys } from "../../scripts/lib/processes.mjs";

const root = process.cwd();
const state = mkdtempSync(join(tmpdir(), "mrs-key-test-"));
afterAll(() => rmSync(state, { recursive: true, force: true }));

describe("npm run key", () => {
  it("makes one key per --email, in order, each of its own account on the plan asked for", async () => {
    const emails = ["k1@example.com", "k2@example.com", "k3@example.com"];
    const keys = await mintKeys(root, { STATE_DIR: state }, { emails, plan: "business" });
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(key).toMatch(/^mrk_[\w-]{32}$/);
    expect(new Set(keys).size).toBe(3);
    // One address again: the same account, a new key.
    const again = await mintKey(root, { STATE_DIR: state }, { email: "k2@example.com", plan: "business" });
    expect(keys).not.toContain(again);
    const d1 = await openLocalD1(root, state);
    try {
      const rows = await d1.DB.prepare(
        `SELECT u.email, u.plan_id AS plan, count(k.id) AS keys FROM users u JOIN api_keys k ON k.user_id = u.id
         WHERE u.email LIKE 'k_@example.com' GROUP BY u.id ORDER BY u.email`,
      ).all<{ email: string; plan: string; keys: number }>();
      expect(rows.results).toEqual([
        { email: "k1@example.com", plan: "business", keys: 1 },
        { email: "k2@example.com", plan: "business", keys: 2 },
        { email: "k3@example.com", plan: "business", keys: 1 },
      ]);
    } finally {
      await d1.dispose();
    }
  }, 120_000);
});
