/**
 * The provider webhook against events that must change nothing: out of order (an ended subscription's late paid
 * invoice), naming another account's customer or subscription, unknown ids, forged or unsigned deliveries of each
 * event type, and genuine events of an unexpected shape. After each: both accounts' plans, balances and ledgers.
 */
import { env } from "cloudflare:workers";
import Stripe from "stripe";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { WebhookReceipt } from "../../../src/billing/schemas.ts";
import { call } from "../helpers.ts";
import { signUp } from "./sign-up.ts";
import {
  accountRow,
  applied,
  charge,
  deliver,
  dispute,
  invoice,
  ledgerRows,
  startUpgrade,
  subscribe,
  subscription,
} from "./stripe-events.ts";

/** Everything billing stored about an account, to compare before and after. */
const snapshot = async (userId: string) => ({
  account: await accountRow(userId),
  ledger: await ledgerRows(userId),
});

describe("events out of order", () => {
  it("a paid invoice of a subscription already deleted grants nothing, whatever its period", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "pro");
    const late = invoice({ subscription: sub.subscriptionId, customer: sub.customer, start: sub.end });
    expect(
      await applied(
        "customer.subscription.deleted",
        subscription({ id: sub.subscriptionId, customer: sub.customer, status: "canceled" }),
      ),
    ).toBe(true);
    const after = await snapshot(userId);
    expect(after.account).toMatchObject({ plan: "free", balance: 500 });
    expect(await applied("invoice.paid", late)).toBe(false);
    expect(await applied("invoice.payment_succeeded", late)).toBe(false);
    expect(await snapshot(userId)).toEqual(after);
  });

  it("a subscription deleted before its first invoice arrives never applies", async () => {
    const { token, userId } = await signUp();
    const checkout = await startUpgrade(token, "pro");
    const metadata = { paymentId: checkout.paymentId, userId, planId: "pro" };
    const deleted = subscription({
      id: "sub_early_" + userId,
      customer: `cus_${userId}`,
      status: "canceled",
      metadata,
    });
    const before = await snapshot(userId);
    expect(await applied("customer.subscription.deleted", deleted)).toBe(true);
    const first = invoice({
      subscription: deleted.id,
      customer: deleted.customer,
      metadata,
      start: Date.now(),
    });
    expect(await applied("invoice.paid", first)).toBe(false);
    expect(await snapshot(userId)).toEqual(before);
  });
});

describe("another account's ids", () => {
  it("an event mixing one account's subscription with another's customer changes neither", async () => {
    const a = await signUp();
    const b = await signUp();
    const subA = await subscribe(a.token, a.userId, "pro");
    const subB = await subscribe(b.token, b.userId, "pro");
    const before = [await snapshot(a.userId), await snapshot(b.userId)];
    const mixed = [
      [
        "invoice.paid",
        invoice({ subscription: subB.subscriptionId, customer: subA.customer, start: subB.end }),
      ],
      [
        "customer.subscription.deleted",
        subscription({ id: subA.subscriptionId, customer: subB.customer, status: "canceled" }),
      ],
      [
        "customer.subscription.updated",
        subscription({ id: subB.subscriptionId, customer: subA.customer, status: "unpaid" }),
      ],
      [
        "invoice.payment_failed",
        invoice({ subscription: subA.subscriptionId, customer: subB.customer, start: subA.end }),
      ],
      [
        "charge.refunded",
        charge({
          paymentIntent: subA.paymentIntent,
          customer: subB.customer,
          amount: 2900,
          amountRefunded: 2900,
        }),
      ],
    ] as const;
    for (const [type, object] of mixed) expect(await applied(type, object), type).toBe(false);
    expect([await snapshot(a.userId), await snapshot(b.userId)]).toEqual(before);
  });

  it("unknown subscriptions, customers, payments and a payment's metadata naming another subscription change nothing", async () => {
    const a = await signUp();
    const subA = await subscribe(a.token, a.userId, "pro");
    const before = await snapshot(a.userId);
    const unknown = [
      ["invoice.paid", invoice({ subscription: "sub_nobody", customer: "cus_nobody", start: subA.end })],
      // A's checkout is tied to its subscription: another subscription naming it in metadata is not A's.
      [
        "invoice.paid",
        invoice({
          subscription: "sub_other",
          customer: subA.customer,
          metadata: subA.metadata,
          start: subA.end,
        }),
      ],
      [
        "customer.subscription.deleted",
        subscription({ id: "sub_nobody", customer: subA.customer, status: "canceled" }),
      ],
      [
        "charge.refunded",
        charge({ paymentIntent: "pi_nobody", customer: subA.customer, amount: 2900, amountRefunded: 2900 }),
      ],
      ["charge.dispute.created", dispute("pi_nobody")],
    ] as const;
    for (const [type, object] of unknown) expect(await applied(type, object), type).toBe(false);
    expect(await snapshot(a.userId)).toEqual(before);
    const foreign = await env.DB.prepare(
      "SELECT count(*) AS n FROM subscriptions WHERE id IN ('sub_nobody', 'sub_other')",
    ).first<{ n: number }>();
    expect(foreign!.n).toBe(0);
  });
});

describe("deliveries that are not the provider's", () => {
  it.each([
    "invoice.paid",
    "invoice.payment_failed",
    "customer.subscription.deleted",
    "customer.subscription.updated",
    "charge.refunded",
    "charge.dispute.created",
  ])("refuses a forged or unsigned %s without changing anything", async (type) => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "pro");
    const before = await snapshot(userId);
    const objects: Record<string, Record<string, unknown>> = {
      "invoice.paid": invoice({ subscription: sub.subscriptionId, customer: sub.customer, start: sub.end }),
      "invoice.payment_failed": invoice({
        subscription: sub.subscriptionId,
        customer: sub.customer,
        start: sub.end,
      }),
      "customer.subscription.deleted": subscription({
        id: sub.subscriptionId,
        customer: sub.customer,
        status: "canceled",
      }),
      "customer.subscription.updated": subscription({
        id: sub.subscriptionId,
        customer: sub.customer,
        status: "unpaid",
      }),
      "charge.refunded": charge({ paymentIntent: sub.paymentIntent, amount: 2900, amountRefunded: 2900 }),
      "charge.dispute.created": dispute(sub.paymentIntent),
    };
    const forged = await deliver(type, objects[type]!, { secret: "whsec_bm90LW91cnM" });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ success: false, error: "Invalid webhook signature" });
    const payload = JSON.stringify({ id: "evt_x", object: "event", type, data: { object: objects[type] } });
    const unsigned = await call("/api/v1/billing/webhook", { method: "POST", body: payload });
    expect(unsigned.status).toBe(400);
    const stale = await Stripe.webhooks.generateTestHeaderStringAsync({
      payload,
      secret: env.STRIPE_WEBHOOK_SECRET!,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    const old = await call("/api/v1/billing/webhook", {
      method: "POST",
      headers: { "stripe-signature": stale },
      body: payload,
    });
    expect(old.status).toBe(400);
    expect(await snapshot(userId)).toEqual(before);
  });

  it("acknowledges a genuine event of an unexpected shape, or of a type it does not act on, and ignores it", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "pro");
    const before = await snapshot(userId);
    const res = await deliver("invoice.paid", { id: "in_odd", lines: "not a list", customer: sub.customer });
    expect(res.status).toBe(200);
    const receipt = v.parse(WebhookReceipt, ((await res.json()) as { data: unknown }).data);
    expect(receipt).toEqual({ received: true, type: "invoice.paid", applied: false });
    expect(
      await applied(
        "invoice.upcoming",
        invoice({ subscription: sub.subscriptionId, customer: sub.customer, start: sub.end }),
      ),
    ).toBe(false);
    expect(await snapshot(userId)).toEqual(before);
  });
});
