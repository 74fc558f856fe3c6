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
 */
afterEach(async () => {
  const { results } = await env.DB.prepare(
    `SELECT u.id, u.token_balance AS balance, u.prepaid_balance AS prepaid, coalesce(l.total, 0) AS ledger,
       coalesce(l.prepaid, 0) AS ledgerPrepaid
     FROM users u LEFT JOIN (SELECT user_id, sum(amount) AS total, sum(prepaid_amount) AS prepaid
       FROM token_ledger GROUP BY user_id) l ON l.user_id = u.id
     WHERE u.token_balance != coalesce(l.total, 0) OR u.prepaid_balance != coalesce(l.prepaid, 0)
       OR u.prepaid_balance < 0 OR u.token_balance < u.prepaid_balance`,
  ).all();
  // oxlint-disable-next-line vitest/no-standalone-expect -- a setup file's afterEach runs in every test
  expect(results, "accounts whose balance differs from the sum of their ledger").toEqual([]);
});
