/**
 * Stripe events for the billing tests, shaped as the provider sends them (the API version of the pinned SDK:
 * an invoice names its subscription under `parent.subscription_details`, its service period on its lines), signed
 * with the SDK's own test helper and the service's real webhook secret, and posted to the real local webhook.
 * Plus readers of what the service stored: the account's billing columns, its ledger rows, its plan history.
 */
import { env } from "cloudflare:workers";
import Stripe from "stripe";
import { expect } from "vitest";
import { call, json } from "../helpers.ts";
import { bearer, body } from "./sign-up.ts";

const rid = () => Math.random().toString(36).slice(2, 12);
const seconds = (ms: number) => Math.floor(ms / 1000);
export const DAY = 24 * 3600_000;
export const MONTH = 30 * DAY;

/** Posts one signed event; `secret` other than the service's forges it. */
export const deliver = async (
  type: string,
  object: Record<string, unknown>,
  opts: { secret?: string; id?: string } = {},
) => {
  const payload = JSON.stringify({
    id: opts.id ?? `evt_${rid()}`,
    object: "event",
    api_version: "2026-10-28.endive",
    created: seconds(Date.now()),
    type,
    data: { object },
  });
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: opts.secret ?? env.STRIPE_WEBHOOK_SECRET!,
  });
  return call("/api/v1/billing/webhook", {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    body: payload,
  });
};

/** Posts a signed event and answers its `applied` (the delivery itself must be accepted). */
export const applied = async (type: string, object: Record<string, unknown>, opts = {}) => {
  const res = await deliver(type, object, opts);
  expect(res.status).toBe(200);
  return (await body<{ applied: boolean }>(res)).data!.applied;
};

export interface InvoiceSpec {
  id?: string;
  subscription: string;
  customer: string;
  metadata?: Record<string, string>;
  /** Service period, ms. */
  start: number;
  end?: number;
  amount?: number;
  nextPaymentAttempt?: number | null;
  paymentIntent?: string;
}

/** A subscription invoice (paid unless the event says otherwise). */
export const invoice = (s: InvoiceSpec) => ({
  id: s.id ?? `in_${rid()}`,
  object: "invoice",
  customer: s.customer,
  status: "paid",
  billing_reason: "subscription_cycle",
  amount_paid: s.amount ?? 2900,
  attempt_count: 1,
  next_payment_attempt: s.nextPaymentAttempt === undefined ? null : s.nextPaymentAttempt,
  parent: {
    type: "subscription_details",
    subscription_details: { subscription: s.subscription, metadata: s.metadata ?? {} },
  },
  lines: {
    object: "list",
    data: [
      { object: "line_item", period: { start: seconds(s.start), end: seconds(s.end ?? s.start + MONTH) } },
    ],
  },
  ...(s.paymentIntent
    ? {
        payments: {
          object: "list",
          data: [{ payment: { type: "payment_intent", payment_intent: s.paymentIntent } }],
        },
      }
    : {}),
});

export const subscription = (s: {
  id: string;
  customer: string;
  status: string;
  cancelAtPeriodEnd?: boolean;
  metadata?: Record<string, string>;
}) => ({
  id: s.id,
  object: "subscription",
  customer: s.customer,
  status: s.status,
  cancel_at_period_end: s.cancelAtPeriodEnd ?? false,
  metadata: s.metadata ?? {},
});

export const charge = (c: {
  paymentIntent: string;
  customer?: string | null;
  amount: number;
  amountRefunded: number;
}) => ({
  id: `ch_${rid()}`,
  object: "charge",
  customer: c.customer ?? null,
  payment_intent: c.paymentIntent,
  amount: c.amount,
  amount_refunded: c.amountRefunded,
  refunded: c.amountRefunded >= c.amount,
});

export const dispute = (paymentIntent: string) => ({
  id: `dp_${rid()}`,
  object: "dispute",
  charge: `ch_${rid()}`,
  payment_intent: paymentIntent,
  amount: 100,
  status: "needs_response",
});

/** The account's billing columns as stored. */
export const accountRow = (userId: string) =>
  env.DB.prepare(
    `SELECT plan_id AS plan, pending_plan_id AS pending, pending_plan_reason AS pendingReason,
       subscription_id AS subscription, token_balance AS balance, prepaid_balance AS prepaid, token_debt AS owed,
       current_period_end AS periodEnd FROM users WHERE id = ?`,
  )
    .bind(userId)
    .first<{
      plan: string;
      pending: string | null;
      pendingReason: string | null;
      subscription: string | null;
      balance: number;
      prepaid: number;
      owed: number;
      periodEnd: number;
    }>();

/** The account's ledger rows in the order they were written: [kind, amount, prepaid part]. */
export const ledgerRows = async (userId: string) =>
  (
    await env.DB.prepare(
      "SELECT kind, amount, prepaid_amount AS prepaid FROM token_ledger WHERE user_id = ? ORDER BY rowid",
    )
      .bind(userId)
      .all<{ kind: string; amount: number; prepaid: number }>()
  ).results.map((r) => [r.kind, r.amount, r.prepaid]);

/** The account's plan history, oldest first: [from, to, reason]. */
export const planHistory = async (userId: string) =>
  (
    await env.DB.prepare(
      "SELECT from_plan_id AS f, to_plan_id AS t, reason FROM plan_changes WHERE user_id = ? ORDER BY rowid",
    )
      .bind(userId)
      .all<{ f: string; t: string; reason: string }>()
  ).results.map((r) => [r.f, r.t, r.reason]);

type Checkout = { paymentId: string; sessionId: string };

/** POST /billing/plan for an upgrade: the checkout it answers. */
export const startUpgrade = async (token: string, planId: string) => {
  const res = await call("/api/v1/billing/plan", bearer(token, json("POST", { planId })));
  expect(res.status).toBe(200);
  const data = (await body<{ status: string; checkout: Checkout }>(res)).data!;
  expect(data.status).toBe("payment_required");
  return data.checkout;
};

/**
 * A plan bought the way Stripe reports it: the checkout completes with its subscription, the first invoice (for
 * the period starting `start`) is paid, and the payment that paid it is named. Returns the provider ids.
 */
export const subscribe = async (
  token: string,
  userId: string,
  planId: string,
  opts: { customer?: string; start?: number; order?: "completion-first" | "invoice-first" } = {},
) => {
  const checkout = await startUpgrade(token, planId);
  const customer = opts.customer ?? `cus_${userId}`;
  const subscriptionId = `sub_${rid()}`;
  const metadata = { paymentId: checkout.paymentId, userId, planId };
  const paymentIntent = `pi_${rid()}`;
  const first = invoice({
    subscription: subscriptionId,
    customer,
    metadata,
    start: opts.start ?? Date.now(),
    amount: planId === "pro" ? 2900 : 19900,
  });
  const completion = () =>
    deliver("checkout.session.completed", {
      id: checkout.sessionId,
      object: "checkout.session",
      mode: "subscription",
      payment_status: "paid",
      customer,
      subscription: subscriptionId,
      invoice: first.id,
      metadata,
    });
  if (opts.order === "invoice-first") {
    expect(await applied("invoice.paid", { ...first, billing_reason: "subscription_create" })).toBe(true);
    expect((await completion()).status).toBe(200);
  } else {
    expect((await completion()).status).toBe(200);
    expect(await applied("invoice.paid", { ...first, billing_reason: "subscription_create" })).toBe(true);
  }
  await applied("invoice_payment.paid", {
    object: "invoice_payment",
    invoice: first.id,
    payment: { type: "payment_intent", payment_intent: paymentIntent },
  });
  const end = first.lines.data[0]!.period.end * 1000;
  return { ...checkout, subscriptionId, customer, metadata, invoiceId: first.id, paymentIntent, end };
};
