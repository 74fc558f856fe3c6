/**
 * The token ledger: the only module that writes an account's balances or `token_ledger`. An account holds two
 * buckets: the monthly allowance (reset each period) and prepaid tokens (bought, never expire);
 * `users.token_balance` is their sum and `users.prepaid_balance` the prepaid part.
 *
 * Every movement is a pair of statements for the caller's `d1.batch` (one transaction): first the ledger row,
 * computed from the account as it is at that moment (so a debit can split itself between the buckets, monthly
 * first) and inserted only when the movement's guard holds; then the balances, moved by exactly that row. So
 * sum(amount) = token_balance and sum(prepaid_amount) = prepaid_balance always, and nothing is ever negative.
 *
 * `when` says what the movement waits for:
 * - `always`: nothing but an optional SQL `condition`;
 * - `covered`: the balance covers the debit, plus an optional `condition`;
 * - `after-guard`: the statement just before it in the batch changed exactly one row (e.g. a job's status update).
 * A condition is SQL over the account row `u` (e.g. `u.plan_id = 'pro'`). Each pair ends with a one-row update,
 * so movements chain: the next `after-guard` movement runs only if this one did.
 *
 * Owed tokens (`users.token_debt`): a refunded or disputed purchase takes its tokens back (`revoke`), as far as the
 * balance holds them; the rest is owed. Owing accounts cannot spend (`covered` fails while anything is owed), and
 * `repayDebt` repays from the balance after every purchase and around every reset of the monthly allowance
 * (before: from what the reset would expire, such as reserves that came back; after: from the new allowance).
 */
import type { LedgerKind } from "../db/schema.ts";
import { newId } from "../lib/ids.ts";

export interface Movement {
  userId: string;
  /** Tokens moved, >= 0; the sign comes from the kind. */
  amount: number;
  /** The job (or payment, request...) the movement belongs to; shown in usage history. */
  refId?: string | null;
  note: string;
  at: number;
}

export type When =
  | { when: "always"; condition?: string }
  | { when: "covered"; condition?: string }
  | { when: "after-guard" };

/** SQL of the monthly allowance left. */
const MONTHLY = "(u.token_balance - u.prepaid_balance)";

/** How the amount splits between the buckets: SQL of the signed total and of its prepaid part (`?5` = amount). */
type Split = { total: string; prepaid: string };
const DEBIT_MONTHLY_FIRST: Split = { total: "-?5", prepaid: `-max(0, ?5 - ${MONTHLY})` };
const CREDIT_MONTHLY: Split = { total: "?5", prepaid: "0" };
const CREDIT_PREPAID: Split = { total: "?5", prepaid: "?5" };
/** A credit whose prepaid part is known (a reserve coming back). */
const creditWithPrepaid = (prepaid: number): Split => ({ total: "?5", prepaid: String(prepaid) });

const guardSql = (when: When): string => {
  const conditions =
    when.when === "after-guard"
      ? ["changes() = 1"]
      : [
          ...(when.when === "covered" ? ["u.token_balance >= ?5 AND u.token_debt = 0"] : []),
          ...(when.condition ? [when.condition] : []),
        ];
  return conditions.map((c) => ` AND (${c})`).join("");
};

/** The ledger insert of `kind`, computed from the account row, and the balance update that applies it. */
const pair = (
  d1: D1Database,
  kind: LedgerKind,
  split: Split,
  movement: Movement,
  when: When,
): D1PreparedStatement[] => {
  if (!Number.isInteger(movement.amount) || movement.amount < 0)
    throw new RangeError("amount must be a whole number >= 0");
  if (movement.amount === 0) return [];
  const id = newId("txn");
  return [
    d1
      .prepare(
        `INSERT INTO token_ledger (id, user_id, job_id, kind, amount, prepaid_amount, note, created_at)
         SELECT ?1, u.id, ?3, ?4, ${split.total}, ${split.prepaid}, ?6, ?7 FROM users u WHERE u.id = ?2${guardSql(when)}`,
      )
      .bind(id, movement.userId, movement.refId ?? null, kind, movement.amount, movement.note, movement.at),
    applyRow(d1, id, movement.userId, movement.at),
  ];
};

/** Moves the balances by ledger row `id`; runs only when that row was just inserted. */
const applyRow = (d1: D1Database, id: string, userId: string, at: number, extraSet = "") =>
  d1
    .prepare(
      `UPDATE users SET token_balance = token_balance + (SELECT amount FROM token_ledger WHERE id = ?1),
         prepaid_balance = prepaid_balance + (SELECT prepaid_amount FROM token_ledger WHERE id = ?1),
         updated_at = ?3${extraSet}
       WHERE id = ?2 AND changes() = 1`,
    )
    .bind(id, userId, at);

/** Holds a job's estimate, monthly allowance first, only when the balance covers it (and `condition` holds). */
export const reserve = (d1: D1Database, m: Movement, condition?: string) =>
  pair(d1, "reserve", DEBIT_MONTHLY_FIRST, m, { when: "covered", condition });

/** Gives a reserve back to the buckets it came from; runs only after the guard statement before it. */
export const release = (d1: D1Database, m: Movement & { prepaid: number }) =>
  pair(d1, "release", creditWithPrepaid(m.prepaid), m, { when: "after-guard" });

/**
 * Takes the cost of work, monthly allowance first: after a guard (a job settlement, whose released reserve covers
 * it), or standalone when the balance covers it (per-call pricing such as the bulk tools).
 */
export const charge = (d1: D1Database, m: Movement, when: When = { when: "after-guard" }) =>
  pair(d1, "charge", DEBIT_MONTHLY_FIRST, m, when);

/** Adds to the monthly allowance (a plan's first allowance, the difference of an upgrade). */
export const grant = (d1: D1Database, m: Movement, when: When = { when: "always" }) =>
  pair(d1, "grant", CREDIT_MONTHLY, m, when);

/** Adds prepaid tokens (a paid purchase). */
export const purchase = (d1: D1Database, m: Movement, when: When = { when: "always" }) =>
  pair(d1, "purchase", CREDIT_PREPAID, m, when);

/** Open reserves held against the monthly allowance of the account whose id is `userIdSql`. */
const openMonthlyReserves = (
  userIdSql: string,
) => `(SELECT coalesce(sum(j.tokens_reserved - j.reserved_prepaid), 0)
  FROM jobs j WHERE j.user_id = ${userIdSql} AND j.status IN ('PENDING', 'PROCESSING'))`;
const OPEN_MONTHLY_RESERVES = openMonthlyReserves("u.id");

/**
 * SQL of the change that sets the monthly allowance to `allowance` (SQL) minus what open jobs still hold from it.
 * Those jobs give their reserve back into the new period when they settle, so the period starts with exactly the
 * allowance and an in-flight job is charged once, in the period it finishes: nothing is granted twice.
 */
const resetDelta = (allowance: string) => `(max(0, ${allowance} - ${OPEN_MONTHLY_RESERVES}) - ${MONTHLY})`;

/** The `grant` or `expire` row of a reset; `from` joins the plan `p`, `where` is SQL over `u` (and `p`). */
const resetRow = (
  d1: D1Database,
  id: string,
  movement: { userId: string; at: number; refId?: string | null },
  allowance: string,
  note: string,
  from: string,
  where: string,
  ...more: (string | number)[]
) => {
  const delta = resetDelta(allowance);
  return d1
    .prepare(
      `INSERT INTO token_ledger (id, user_id, job_id, kind, amount, prepaid_amount, note, created_at)
       SELECT ?1, u.id, ?4, CASE WHEN ${delta} >= 0 THEN 'grant' ELSE 'expire' END, ${delta}, 0, ${note}, ?3
       FROM users u ${from} WHERE u.id = ?2${where}`,
    )
    .bind(id, movement.userId, movement.at, movement.refId ?? null, ...more);
};

/**
 * The start of a new period (the cron, for accounts whose next plan is free): a pending downgrade takes effect,
 * the account no longer has a subscription, and the monthly allowance restarts at the (new) plan's (one `grant` or
 * `expire` row of the difference; see resetDelta). Runs only when the period has ended. Prepaid tokens are untouched.
 */
export const renewPeriod = (
  d1: D1Database,
  userId: string,
  at: number,
  nextPeriodEnd: number,
): D1PreparedStatement[] => {
  const id = newId("txn");
  return [
    resetRow(
      d1,
      id,
      { userId, at },
      "p.tokens_per_month",
      "p.name || ' monthly allowance'",
      "JOIN plans p ON p.id = coalesce(u.pending_plan_id, u.plan_id)",
      ` AND u.current_period_end <= ?3`,
    ),
    applyRow(
      d1,
      id,
      userId,
      at,
      `, current_period_end = ${Math.trunc(nextPeriodEnd)}, plan_id = coalesce(pending_plan_id, plan_id),
         pending_plan_id = NULL, pending_plan_reason = NULL, subscription_id = NULL`,
    ),
  ];
};

/**
 * Sets the monthly allowance, after the guard statement before it (which set the plan: a paid invoice's new period,
 * a forced move to the free plan), to the account's plan's allowance. One `grant` or `expire` row of the difference.
 */
export const resetAllowance = (
  d1: D1Database,
  movement: { userId: string; at: number; refId?: string | null; note: string },
): D1PreparedStatement[] => {
  const id = newId("txn");
  return [
    resetRow(
      d1,
      id,
      movement,
      "p.tokens_per_month",
      "?5",
      "JOIN plans p ON p.id = u.plan_id",
      " AND changes() = 1",
      movement.note,
    ),
    applyRow(d1, id, movement.userId, movement.at),
  ];
};

/**
 * Expires what is left of the monthly allowance once its period has ended (`current_period_end` <= `at`): a paid
 * plan whose renewal is not paid yet keeps its features, not last period's tokens. One `expire` row, only when
 * something is left (tokens open jobs give back later are left then, and expire on the next run).
 */
export const expireAllowance = (
  d1: D1Database,
  movement: { userId: string; at: number; note: string },
): D1PreparedStatement[] => {
  const id = newId("txn");
  return [
    resetRow(
      d1,
      id,
      movement,
      "0",
      "?5",
      "",
      ` AND u.current_period_end <= ?3 AND ${MONTHLY} > 0`,
      movement.note,
    ),
    applyRow(d1, id, movement.userId, movement.at),
  ];
};

/**
 * What a plan's reversed payment owes (SQL): what was spent of the plan's allowance (`allowance`) or is held by open
 * jobs, i.e. all of it but what is left (`left`); never less than what open jobs hold.
 */
const spentOf = (allowance: string, left: string, reserves: string) =>
  `max(${reserves}, ${allowance} - ${left})`;

/**
 * Takes back the monthly allowance of a plan whose payment was reversed (a refund or dispute), as `revoke` takes back
 * a pack: what is left of it now (one `revoke` row), and what was already spent of it, or is held by open jobs, is
 * owed (`users.token_debt`; `repayDebt` then takes it from the balance as far as it goes). The plan's allowance is
 * that of the account's plan, so this runs before the plan changes, after the guard statement before it.
 */
export const revokeAllowance = (
  d1: D1Database,
  movement: { userId: string; at: number; refId?: string | null; note: string },
): D1PreparedStatement[] => {
  const id = newId("txn");
  const owed = spentOf("p.tokens_per_month", MONTHLY, OPEN_MONTHLY_RESERVES);
  return [
    d1
      .prepare(
        `INSERT INTO token_ledger (id, user_id, job_id, kind, amount, prepaid_amount, note, created_at)
         SELECT ?1, u.id, ?3, 'revoke', -${MONTHLY}, 0,
           ?4 || CASE WHEN ${owed} > 0 THEN '; ' || CAST(${owed} AS INTEGER) || ' already spent or held by running jobs, owed'
             ELSE '' END, ?5
         FROM users u JOIN plans p ON p.id = u.plan_id WHERE u.id = ?2 AND changes() = 1`,
      )
      .bind(id, movement.userId, movement.refId ?? null, movement.note, movement.at),
    applyRow(
      d1,
      id,
      movement.userId,
      movement.at,
      `, token_debt = token_debt + ${spentOf(
        "(SELECT tokens_per_month FROM plans WHERE id = users.plan_id)",
        "(0 - (SELECT amount FROM token_ledger WHERE id = ?1))",
        openMonthlyReserves("users.id"),
      )}`,
    ),
  ];
};

/**
 * A read for a batch (it sees the account as the statements before it left it): the monthly allowance not yet
 * spent, `unused`, counting what open jobs hold from it (they are charged to the period they end in).
 */
export const unusedAllowance = (d1: D1Database, userId: string): D1PreparedStatement =>
  d1
    .prepare(`SELECT ${MONTHLY} + ${OPEN_MONTHLY_RESERVES} AS unused FROM users u WHERE u.id = ?1`)
    .bind(userId);

/**
 * Takes back the `amount` tokens of a reversed purchase (a refund or dispute), prepaid first, as far as the balance
 * holds them: the rest was already spent and is owed (`users.token_debt`). Runs after the guard before it.
 */
export const revoke = (d1: D1Database, movement: Movement): D1PreparedStatement[] => {
  if (!Number.isInteger(movement.amount) || movement.amount <= 0)
    throw new RangeError("amount must be a whole number > 0");
  const id = newId("txn");
  return [
    d1
      .prepare(
        `INSERT INTO token_ledger (id, user_id, job_id, kind, amount, prepaid_amount, note, created_at)
         SELECT ?1, u.id, ?3, 'revoke', -min(?4, u.token_balance), -min(?4, u.prepaid_balance),
           ?5 || CASE WHEN ?4 > u.token_balance THEN '; ' || CAST(?4 - u.token_balance AS INTEGER) || ' already spent, owed'
             ELSE '' END, ?6
         FROM users u WHERE u.id = ?2 AND changes() = 1`,
      )
      .bind(id, movement.userId, movement.refId ?? null, movement.amount, movement.note, movement.at),
    applyRow(
      d1,
      id,
      movement.userId,
      movement.at,
      `, token_debt = token_debt + ${movement.amount} + (SELECT amount FROM token_ledger WHERE id = ?1)`,
    ),
  ];
};

/** Repays owed tokens from the balance (monthly allowance first), as far as it goes; nothing when nothing is owed. */
export const repayDebt = (
  d1: D1Database,
  movement: { userId: string; refId?: string | null; at: number },
): D1PreparedStatement[] => {
  const id = newId("txn");
  const take = "min(u.token_debt, u.token_balance)";
  return [
    d1
      .prepare(
        `INSERT INTO token_ledger (id, user_id, job_id, kind, amount, prepaid_amount, note, created_at)
         SELECT ?1, u.id, ?3, 'revoke', -${take}, -max(0, ${take} - ${MONTHLY}), 'owed tokens repaid', ?4
         FROM users u WHERE u.id = ?2 AND u.token_debt > 0 AND u.token_balance > 0`,
      )
      .bind(id, movement.userId, movement.refId ?? null, movement.at),
    applyRow(
      d1,
      id,
      movement.userId,
      movement.at,
      `, token_debt = token_debt + (SELECT amount FROM token_ledger WHERE id = ?1)`,
    ),
  ];
};

/** Whether the movement whose two statements end at `index` of a batch's results happened. */
export const moved = (results: readonly D1Result[], index: number): boolean =>
  results[index]?.meta.changes === 1;
