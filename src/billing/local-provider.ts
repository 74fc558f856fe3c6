/**
 * The local stand-in for the payment provider (ENVIRONMENT development, no STRIPE_SECRET_KEY): checkout sessions
 * are made without the network and paid from a page of this Worker (GET /dev/checkout/{id}, src/dev/routes.ts),
 * which sends the events Stripe would send, shaped like Stripe's and signed with the SDK's own test helper:
 * a token pack's `checkout.session.completed`; a plan's `checkout.session.completed`, `invoice.paid` (the first
 * period) and `invoice_payment.paid`. POST /dev/subscriptions/{id}/renew sends the next period's paid invoice.
 * Subscription changes (cancel, next period's price) and credits have no provider to reach: they change nothing
 * here. A plan's price is named `price_local_<plan>_<cents>_<currency>` and names no plan by itself: the service
 * knows it because it recorded it when it made it (src/billing/plan-prices.ts), as it records Stripe's.
 */
import Stripe from "stripe";
import type { Env } from "../env.ts";
import { newId } from "../lib/ids.ts";
import type { PaymentProvider } from "./payment-provider.ts";
import { verifyStripeEvent } from "./provider-events.ts";

/** Stripe Checkout sessions live 24 hours. */
const SESSION_TTL_MS = 24 * 3600_000;

export const localProvider = (env: Env): PaymentProvider => ({
  async createCheckout() {
    const sessionId = newId("cs_local");
    const base = env.PUBLIC_URL.replace(/\/+$/, "");
    return { sessionId, url: `${base}/dev/checkout/${sessionId}`, expiresAt: Date.now() + SESSION_TTL_MS };
  },
  verifyEvent: (raw, signature) => verifyStripeEvent(raw, signature, env.STRIPE_WEBHOOK_SECRET),
  cancelSubscription: async () => undefined,
  setNextPeriod: async () => undefined,
  planPrice: async (plan) => localPriceId(plan),
  readPrice: async () => null,
  creditCustomer: async () => undefined,
});

/** The stand-in's price of a plan (one per plan, amount and currency), named as Stripe names prices. */
export const localPriceId = (p: { planId: string; amountCents: number; currency: string }) =>
  `price_local_${p.planId}_${p.amountCents}_${p.currency}`;

/** The same time one calendar month later, clamped to the month's last day (as Stripe bills monthly). */
export const addMonth = (at: number): number => {
  const date = new Date(at);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 2, 0)).getUTCDate();
  return Date.UTC(
    date.getUTCFullYear(),
    date.getUTCMonth() + 1,
    Math.min(date.getUTCDate(), lastDay),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
  );
};

export interface SignedDelivery {
  payload: string;
  signature: string;
}

/** A provider event of `type` about `object`, signed with `secret` by the SDK's test helper. */
export const signedEvent = async (
  secret: string,
  type: string,
  object: Record<string, unknown>,
): Promise<SignedDelivery> => {
  const payload = JSON.stringify({
    id: newId("evt_local"),
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  return { payload, signature: await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret }) };
};

const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * A paid subscription invoice for the period [start, addMonth(start)), as `invoice.paid` carries it: one line, the
 * subscription item's, billing the plan's price.
 */
export const localInvoice = (invoice: {
  subscriptionId: string;
  customerId: string;
  metadata: Record<string, string>;
  priceId: string;
  amountCents: number;
  currency: string;
  start: number;
  billingReason: "subscription_create" | "subscription_cycle";
}) => {
  const invoiceId = newId("in_local");
  return {
    id: invoiceId,
    object: "invoice",
    customer: invoice.customerId,
    status: "paid",
    billing_reason: invoice.billingReason,
    currency: invoice.currency,
    amount_paid: invoice.amountCents,
    next_payment_attempt: null,
    parent: {
      type: "subscription_details",
      subscription_details: { subscription: invoice.subscriptionId, metadata: invoice.metadata },
    },
    lines: {
      object: "list",
      data: [
        {
          object: "line_item",
          amount: invoice.amountCents,
          currency: invoice.currency,
          period: { start: seconds(invoice.start), end: seconds(addMonth(invoice.start)) },
          parent: {
            type: "subscription_item_details",
            subscription_item_details: {
              subscription: invoice.subscriptionId,
              subscription_item: `si_local_${invoice.subscriptionId}`,
              proration: false,
            },
          },
          pricing: {
            type: "price_details",
            price_details: {
              price: invoice.priceId,
              product: `prod_local_${invoice.metadata.planId ?? "plan"}`,
            },
            unit_amount_decimal: String(invoice.amountCents),
          },
        },
      ],
    },
  };
};

/** What the stand-in's checkout page sends when a session is paid, in Stripe's order. */
export const localCheckoutEvents = async (
  secret: string,
  payment: {
    id: string;
    userId: string;
    sessionId: string;
    kind: "tokens" | "plan";
    planId: string | null;
    amountCents: number;
    currency: string;
  },
  at: number,
): Promise<SignedDelivery[]> => {
  const customer = `cus_local_${payment.userId}`;
  const metadata = {
    paymentId: payment.id,
    userId: payment.userId,
    ...(payment.planId ? { planId: payment.planId } : {}),
  };
  const session = {
    id: payment.sessionId,
    object: "checkout.session",
    mode: payment.kind === "plan" ? "subscription" : "payment",
    payment_status: "paid",
    customer,
    metadata,
  };
  if (payment.kind === "tokens")
    return [
      await signedEvent(secret, "checkout.session.completed", {
        ...session,
        payment_intent: `pi_local_${payment.id}`,
      }),
    ];
  const subscriptionId = `sub_local_${payment.id}`;
  const invoice = localInvoice({
    subscriptionId,
    customerId: customer,
    metadata,
    priceId: localPriceId({
      planId: payment.planId ?? "",
      amountCents: payment.amountCents,
      currency: payment.currency,
    }),
    amountCents: payment.amountCents,
    currency: payment.currency,
    start: at,
    billingReason: "subscription_create",
  });
  return [
    await signedEvent(secret, "checkout.session.completed", {
      ...session,
      subscription: subscriptionId,
      invoice: invoice.id,
    }),
    await signedEvent(secret, "invoice.paid", invoice),
    await signedEvent(secret, "invoice_payment.paid", {
      object: "invoice_payment",
      invoice: invoice.id,
      payment: { type: "payment_intent", payment_intent: `pi_local_${payment.id}` },
    }),
  ];
};
