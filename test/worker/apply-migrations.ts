import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, expect } from "vitest";

// Setup files run outside per-test storage isolation, and applyD1Migrations() only applies missing ones.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

/**
 * The ledger invariant, checked after every test of every Worker test file: every account's balance equals the
 * sum of its ledger rows, its prepaid balance the sum of their prepaid parts, and neither bucket is negative
 * (token movements only happen through src/ledger/ledger.ts). A test that breaks it, on purpose or not, fails
 * here with the accounts that disagree.
 *
 * The files of a project share one D1, so its accounts pile up over the run; the check reads only the accounts
 * written since the last one (a full scan after each of 521 tests was 13 % of the project's CPU). Triggers note
 * every account whose row or ledger rows were inserted, updated or deleted, whatever wrote them.
 */
const DIRTY = "test_ledger_dirty";
await env.DB.batch(
  [
    `CREATE TABLE IF NOT EXISTS ${DIRTY} (user_id TEXT PRIMARY KEY)`,
    `CREATE TRIGGER IF NOT EXISTS ${DIRTY}_users_insert AFTER INSERT ON users
       BEGIN INSERT OR IGNORE INTO ${DIRTY} VALUES (NEW.id); END`,
    `CREATE TRIGGER IF NOT EXISTS ${DIRTY}_users_update AFTER UPDATE ON users
       BEGIN INSERT OR IGNORE INTO ${DIRTY} VALUES (NEW.id); END`,
    `CREATE TRIGGER IF NOT EXISTS ${DIRTY}_ledger_insert AFTER INSERT ON token_ledger
       BEGIN INSERT OR IGNORE INTO ${DIRTY} VALUES (NEW.user_id); END`,
    `CREATE TRIGGER IF NOT EXISTS ${DIRTY}_ledger_update AFTER UPDATE ON token_ledger
       BEGIN INSERT OR IGNORE INTO ${DIRTY} VALUES (NEW.user_id); INSERT OR IGNORE INTO ${DIRTY} VALUES (OLD.user_id); END`,
    `CREATE TRIGGER IF NOT EXISTS ${DIRTY}_ledger_delete AFTER DELETE ON token_ledger
       BEGIN INSERT OR IGNORE INTO ${DIRTY} VALUES (OLD.user_id); END`,
  ].map((sql) => env.DB.prepare(sql)),
);

afterEach(async () => {
  // One transaction: the accounts checked are the ones cleared; whatever is written later counts for the next test.
  const [checked] = await env.DB.batch([
    env.DB.prepare(
      `SELECT u.id, u.token_balance AS balance, u.prepaid_balance AS prepaid, coalesce(l.total, 0) AS ledger,
         coalesce(l.prepaid, 0) AS ledgerPrepaid
       FROM users u LEFT JOIN (SELECT user_id, sum(amount) AS total, sum(prepaid_amount) AS prepaid
         FROM token_ledger WHERE user_id IN (SELECT user_id FROM ${DIRTY}) GROUP BY user_id) l ON l.user_id = u.id
       WHERE u.id IN (SELECT user_id FROM ${DIRTY})
         AND (u.token_balance != coalesce(l.total, 0) OR u.prepaid_balance != coalesce(l.prepaid, 0)
           OR u.prepaid_balance < 0 OR u.token_balance < u.prepaid_balance)`,
    ),
    env.DB.prepare(`DELETE FROM ${DIRTY}`),
  ]);
  // oxlint-disable-next-line vitest/no-standalone-expect -- a setup file's afterEach runs in every test
  expect(checked!.results, "accounts whose balance differs from the sum of their ledger").toEqual([]);
});
