/**
 * Stripe events for the billing tests, shaped as the provider sends them (the API version of the pinned SDK:
 * an invoice names its subscription under `parent.subscription_details`, its service period on its lines), signed
 * with the SDK's own test helper and the service's real webhook secret, and posted to the real local webhook.
 * Plus readers of what the service stored: the account's billing columns, its ledger rows, its plan history.
 */
import { env } from "cloudflare:workers";
import Stripe from "stripe";
import { expect } from "vitest";
import { localPriceId } from "../../../src/billing/local-provider.ts";
import { handlePaymentWebhook } from "../../../src/billing/webhook.ts";
import { createContext } from "../../../src/context.ts";
import { call, json } from "../helpers.ts";
import { bearer, body } from "./sign-up.ts";

const rid = () => Math.random().toString(36).slice(2, 12);
const seconds = (ms: number) => Math.floor(ms / 1000);
export const DAY = 24 * 3600_000;
export const MONTH = 30 * DAY;

/** An event as Stripe sends it: its payload and signature (the SDK's test helper; another `secret` forges it). */
export const signed = async (
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
  return { payload, signature };
};

/** Posts one signed event; `secret` other than the service's forges it. */
export const deliver = async (
  type: string,
  object: Record<string, unknown>,
  opts: { secret?: string; id?: string } = {},
) => {
  const { payload, signature } = await signed(type, object, opts);
  return call("/api/v1/billing/webhook", {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    body: payload,
  });
};

/** One request the service sent to Stripe's API. */
export interface StripeRequest {
  method: string;
  path: string;
  form: Record<string, string>;
}

/**
 * The webhook verb run with the Stripe provider (a test key) and the network replaced by a recorder that answers as
 * Stripe's API does (`prices`: the prices it knows, by id): `deliverToStripe` hands it one signed event; `sent`
 * lists the API requests the service made.
 * (The Worker's own fetch path uses the local stand-in, which reaches no provider.)
 */
export const stripeRecorder = (prices: Record<string, Record<string, unknown>> = {}) => {
  const sent: StripeRequest[] = [];
  const recorder = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
    const method = init?.method ?? "GET";
    const form = Object.fromEntries([
      ...url.searchParams,
      ...new URLSearchParams(typeof init?.body === "string" ? init.body : ""),
    ]);
    sent.push({ method, path: url.pathname, form });
    const id = url.pathname.split("/").at(-1)!;
    if (url.pathname.startsWith("/v1/prices/"))
      return prices[id]
        ? Response.json({ id, object: "price", ...prices[id] })
        : Response.json(
            {
              error: {
                type: "invalid_request_error",
                code: "resource_missing",
                message: `No such price: '${id}'`,
              },
            },
            { status: 404 },
          );
    return Response.json(
      url.pathname.includes("/balance_transactions")
        ? { id: `cbtxn_${rid()}`, object: "customer_balance_transaction", amount: Number(form.amount) }
        : { id, object: "subscription", status: "canceled" },
    );
  }) as typeof fetch;
  const deliverToStripe = async (type: string, object: Record<string, unknown>) => {
    const { payload, signature } = await signed(type, object);
    const ctx = createContext({ ...env, STRIPE_SECRET_KEY: "sk_test_recorded" });
    // The SDK's fetch client takes the global fetch when the provider is made (once per call of the verb).
    const original = globalThis.fetch;
    globalThis.fetch = recorder;
    try {
      return (await handlePaymentWebhook(ctx, payload, signature)).applied;
    } finally {
      globalThis.fetch = original;
    }
  };
  return { sent, deliverToStripe };
};

/** Posts a signed event and answers its `applied` (the delivery itself must be accepted). */
export const applied = async (type: string, object: Record<string, unknown>, opts = {}) => {
  const res = await deliver(type, object, opts);
  expect(res.status).toBe(200);
  return (await body<{ applied: boolean }>(res)).data!.applied;
};

/** Monthly prices of the paid plans, in cents (the plans table). */
export const PLAN_CENTS: Record<string, number> = { pro: 2900, business: 19900 };

/** The provider's price of a plan: the local stand-in's, which the service made when a checkout or change needed it. */
export const priceOf = (plan: string) =>
  localPriceId({ planId: plan, amountCents: PLAN_CENTS[plan]!, currency: "usd" });

export interface InvoiceSpec {
  id?: string;
  subscription: string;
  customer: string;
  metadata?: Record<string, string>;
  /** Service period, ms. */
  start: number;
  end?: number;
  /** The plan its subscription line bills (its price; default pro); `price` names another price instead. */
  plan?: string;
  price?: string;
  amount?: number;
  nextPaymentAttempt?: number | null;
  paymentIntent?: string;
}

/**
 * A subscription invoice (paid unless the event says otherwise). Its one line is the subscription item's, billing
 * the plan's price for the period, as Stripe draws it when the period starts.
 */
export const invoice = (s: InvoiceSpec) => {
  const plan = s.plan ?? "pro";
  const amount = s.amount ?? PLAN_CENTS[plan] ?? 0;
  return {
    id: s.id ?? `in_${rid()}`,
    object: "invoice",
    customer: s.customer,
    status: "paid",
    billing_reason: "subscription_cycle",
    currency: "usd",
    amount_paid: amount,
    attempt_count: 1,
    next_payment_attempt: s.nextPaymentAttempt === undefined ? null : s.nextPaymentAttempt,
    parent: {
      type: "subscription_details",
      subscription_details: { subscription: s.subscription, metadata: s.metadata ?? {} },
    },
    lines: {
      object: "list",
      data: [
        {
          object: "line_item",
          amount,
          currency: "usd",
          period: { start: seconds(s.start), end: seconds(s.end ?? s.start + MONTH) },
          parent: {
            type: "subscription_item_details",
            subscription_item_details: {
              subscription: s.subscription,
              subscription_item: `si_${s.subscription}`,
              proration: false,
              proration_details: { credited_items: null },
              invoice_item: null,
            },
          },
          pricing: {
            type: "price_details",
            price_details: { price: s.price ?? priceOf(plan), product: `prod_${plan}` },
            unit_amount_decimal: String(PLAN_CENTS[plan] ?? amount),
          },
        },
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
  };
};

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

/**
 * Time passes: the account's paid period, and the invoice that paid it, ended `ago` ms before now (whole seconds,
 * as the provider's periods are). Returns when it ended.
 */
export const endPaidPeriod = async (userId: string, ago = 3600_000) => {
  const end = Math.floor((Date.now() - ago) / 1000) * 1000;
  await env.DB.batch([
    env.DB.prepare(
      `UPDATE subscription_invoices SET period_start = period_start + (?2 - period_end), period_end = ?2
       WHERE user_id = ?1 AND period_end = (SELECT current_period_end FROM users WHERE id = ?1)`,
    ).bind(userId, end),
    env.DB.prepare("UPDATE users SET current_period_end = ?2 WHERE id = ?1").bind(userId, end),
  ]);
  return end;
};

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
    plan: planId,
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
