/**
 * The credit an upgrade gives for the subscription it replaces (src/billing/unused-credit.ts): never more than the
 * unused share of the old period's time, nor of its allowance, nor than was paid; hand-picked cases and generated
 * ones.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { unusedCredit } from "../../../../src/billing/unused-credit.ts";

const DAY = 24 * 3600_000;
const start = Date.UTC(2027, 0, 1);
const period = { start, end: start + 30 * DAY, amountPaid: 2900 };
const pro = (unusedTokens: number) => ({ unusedTokens, tokensPerMonth: 10000 });

describe("the credit for an upgraded plan's unused share", () => {
  it.each([
    ["an allowance spent, upgraded the same day", start + 60_000, 0, 0],
    ["nothing spent, upgraded at once", start, 10000, 2900],
    ["a quarter spent, upgraded the same day", start + 60_000, 7500, 2175],
    ["40 % spent (whole cents, no float rounding down to 1739)", start + 60_000, 6000, 1740],
    ["nothing spent, a third of the time left", start + 20 * DAY, 10000, 966],
    ["the period over (its renewal unpaid)", start + 31 * DAY, 10000, 0],
    ["more left than the plan gives (an operator's adjustment)", start, 25000, 2900],
  ])("%s", (_what, at, unused, cents) => {
    expect(unusedCredit(period, at, pro(unused))).toBe(cents);
  });

  it("never exceeds the payment, the time left or the allowance left", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 1, max: 60 * DAY }),
        fc.integer({ min: -DAY, max: 70 * DAY }),
        fc.integer({ min: -1000, max: 200_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        (amountPaid, length, after, unusedTokens, tokensPerMonth) => {
          const p = { start, end: start + length, amountPaid };
          const cents = unusedCredit(p, start + after, { unusedTokens, tokensPerMonth });
          expect(Number.isInteger(cents)).toBe(true);
          expect(cents).toBeGreaterThanOrEqual(0);
          expect(cents).toBeLessThanOrEqual(amountPaid);
          expect(cents * length).toBeLessThanOrEqual(amountPaid * Math.max(0, length - after));
          // A plan without tokens is bound by its time alone.
          expect(
            tokensPerMonth === 0 || cents * tokensPerMonth <= amountPaid * Math.max(0, unusedTokens),
          ).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
