/**
 * A subscription's events as the service reads them (src/billing/provider-events/subscription.ts): an invoice's
 * period spans its subscription lines in ms, its prices are those of the period's subscription items (not
 * prorations, not one-off items), and an object of another shape is refused whole (null), never half-read.
 */
import { describe, expect, it } from "vitest";
import {
  readInvoice,
  readInvoicePayment,
  readSubscription,
} from "../../../../../src/billing/provider-events/subscription.ts";

const line = (
  start: number,
  end: number,
  price: string,
  parent: { type: string; proration?: boolean } = { type: "subscription_item_details" },
) => ({
  period: { start, end },
  parent: {
    type: parent.type,
    subscription_item_details:
      parent.type === "subscription_item_details" ? { proration: !!parent.proration } : null,
  },
  pricing: { price_details: { price } },
});

describe("an invoice event", () => {
  it("spans its lines' periods in ms and keeps only the period's subscription prices", () => {
    const read = readInvoice({
      id: "in_1",
      customer: { id: "cus_1", object: "customer" },
      amount_paid: 2900,
      next_payment_attempt: null,
      parent: {
        subscription_details: { subscription: "sub_1", metadata: { planId: "pro", userId: "u1" } },
      },
      lines: {
        data: [
          line(2000, 4000, "price_pro"),
          line(1000, 3000, "price_starter", { type: "subscription_item_details", proration: true }),
          line(500, 5000, "price_extra", { type: "invoice_item_details" }),
        ],
      },
      payments: { data: [{ payment: { payment_intent: "pi_1" } }, { payment: { payment_intent: null } }] },
    });
    expect(read).toEqual({
      kind: "invoice",
      invoiceId: "in_1",
      customerId: "cus_1",
      subscriptionId: "sub_1",
      metadata: { planId: "pro", userId: "u1" },
      period: { start: 500_000, end: 5_000_000 },
      priceIds: ["price_pro"],
      amountPaid: 2900,
      nextPaymentAttempt: null,
      paymentIntentIds: ["pi_1"],
    });
  });

  it("without lines or a subscription: no period, no prices, empty metadata; a retry time in ms", () => {
    expect(readInvoice({ id: "in_2", customer: null, next_payment_attempt: 1700 })).toMatchObject({
      subscriptionId: null,
      metadata: {},
      period: null,
      priceIds: [],
      amountPaid: 0,
      nextPaymentAttempt: 1_700_000,
      paymentIntentIds: [],
    });
  });

  it.each([
    ["no id", { customer: "cus_1" }],
    ["an empty id", { id: "" }],
    ["a negative period", { id: "in_3", lines: { data: [{ period: { start: -1, end: 2 } }] } }],
    ["a fractional amount", { id: "in_4", amount_paid: 1.5 }],
    ["not an object", "in_5"],
  ])("refuses %s (null)", (_what, object) => {
    expect(readInvoice(object)).toBeNull();
  });
});

describe("an invoice payment and a subscription event", () => {
  it("names the invoice and the payment that paid it", () => {
    expect(
      readInvoicePayment({ invoice: { id: "in_1" }, payment: { payment_intent: { id: "pi_1" } } }),
    ).toEqual({ kind: "invoice_payment", invoiceId: "in_1", paymentIntentId: "pi_1" });
    expect(readInvoicePayment({ invoice: "in_1" })).toBeNull();
  });

  it("reads a subscription's status, defaulting what the provider leaves out", () => {
    expect(readSubscription({ id: "sub_1", customer: "cus_1", status: "active" })).toEqual({
      kind: "subscription",
      subscriptionId: "sub_1",
      customerId: "cus_1",
      status: "active",
      cancelAtPeriodEnd: false,
      metadata: {},
    });
    expect(readSubscription({ id: "sub_1", status: 3 })).toBeNull();
  });
});
