/**
 * A subscription's events: `invoice.*` (its invoices, with the service period of their subscription lines, the prices
 * they bill, which name the plan, and the subscription's metadata snapshot), `invoice_payment.*` (which payment paid
 * an invoice: refunds and disputes name only the payment) and `customer.subscription.*` (its status).
 */
import * as v from "valibot";
import { Id, Metadata, ms, Ref, Seconds } from "./fields.ts";

const Invoice = v.looseObject({
  id: Id,
  customer: Ref,
  amount_paid: v.nullish(v.pipe(v.number(), v.integer()), 0),
  next_payment_attempt: v.nullish(Seconds, null),
  parent: v.nullish(
    v.looseObject({
      subscription_details: v.nullish(v.looseObject({ subscription: Ref, metadata: Metadata }), null),
    }),
    null,
  ),
  lines: v.nullish(
    v.looseObject({
      data: v.array(
        v.looseObject({
          period: v.nullish(v.looseObject({ start: Seconds, end: Seconds }), null),
          // What made the line: a subscription item (a proration or the period's price) or a one-off item.
          parent: v.nullish(
            v.looseObject({
              type: v.string(),
              subscription_item_details: v.nullish(
                v.looseObject({ proration: v.nullish(v.boolean(), false) }),
                null,
              ),
            }),
            null,
          ),
          pricing: v.nullish(
            v.looseObject({ price_details: v.nullish(v.looseObject({ price: Ref }), null) }),
            null,
          ),
        }),
      ),
    }),
    null,
  ),
  payments: v.nullish(
    v.looseObject({ data: v.array(v.looseObject({ payment: v.looseObject({ payment_intent: Ref }) })) }),
    null,
  ),
});

const InvoicePayment = v.looseObject({ invoice: Ref, payment: v.looseObject({ payment_intent: Ref }) });

const Subscription = v.looseObject({
  id: Id,
  customer: Ref,
  status: v.string(),
  cancel_at_period_end: v.nullish(v.boolean(), false),
  metadata: Metadata,
});

export interface InvoiceEvent {
  kind: "invoice";
  invoiceId: string;
  customerId: string | null;
  subscriptionId: string | null;
  /** The subscription's metadata when the invoice was finalised (`paymentId`, `userId`, `planId`). */
  metadata: Record<string, string>;
  /** The service period of its subscription lines (null: no line has one). */
  period: { start: number; end: number } | null;
  /** The prices its subscription items' lines bill for the period (prorations left out): they name its plan. */
  priceIds: string[];
  amountPaid: number;
  /** When the provider retries a failed payment next; null: no retry left. */
  nextPaymentAttempt: number | null;
  paymentIntentIds: string[];
}

export interface InvoicePaymentEvent {
  kind: "invoice_payment";
  invoiceId: string | null;
  paymentIntentId: string | null;
}

export interface SubscriptionEvent {
  kind: "subscription";
  subscriptionId: string;
  customerId: string | null;
  status: string;
  cancelAtPeriodEnd: boolean;
  metadata: Record<string, string>;
}

type Line = NonNullable<v.InferOutput<typeof Invoice>["lines"]>["data"][number];

/** The prices of the lines a subscription item made for its period (not prorations, not one-off items). */
const subscriptionPrices = (lines: Line[]) =>
  lines.flatMap((line) =>
    line.parent?.type === "subscription_item_details" &&
    !line.parent.subscription_item_details?.proration &&
    line.pricing?.price_details?.price
      ? [line.pricing.price_details.price]
      : [],
  );

/** The service period covered by an invoice's lines: earliest start to latest end. */
const periodOf = (lines: { period: { start: number; end: number } | null }[]) => {
  const periods = lines.flatMap((l) => (l.period ? [l.period] : []));
  if (!periods.length) return null;
  return {
    start: ms(Math.min(...periods.map((p) => p.start))),
    end: ms(Math.max(...periods.map((p) => p.end))),
  };
};

/** An Invoice as the event says it; null when it is not one. */
export const readInvoice = (object: unknown): InvoiceEvent | null => {
  const parsed = v.safeParse(Invoice, object);
  if (!parsed.success) return null;
  const invoice = parsed.output;
  const details = invoice.parent?.subscription_details;
  return {
    kind: "invoice",
    invoiceId: invoice.id,
    customerId: invoice.customer,
    subscriptionId: details?.subscription ?? null,
    metadata: details?.metadata ?? {},
    period: periodOf(invoice.lines?.data ?? []),
    priceIds: subscriptionPrices(invoice.lines?.data ?? []),
    amountPaid: invoice.amount_paid,
    nextPaymentAttempt: invoice.next_payment_attempt === null ? null : ms(invoice.next_payment_attempt),
    paymentIntentIds: (invoice.payments?.data ?? []).flatMap((p) =>
      p.payment.payment_intent ? [p.payment.payment_intent] : [],
    ),
  };
};

/** An InvoicePayment as the event says it; null when it is not one. */
export const readInvoicePayment = (object: unknown): InvoicePaymentEvent | null => {
  const parsed = v.safeParse(InvoicePayment, object);
  if (!parsed.success) return null;
  return {
    kind: "invoice_payment",
    invoiceId: parsed.output.invoice,
    paymentIntentId: parsed.output.payment.payment_intent,
  };
};

/** A Subscription as the event says it; null when it is not one. */
export const readSubscription = (object: unknown): SubscriptionEvent | null => {
  const parsed = v.safeParse(Subscription, object);
  if (!parsed.success) return null;
  const subscription = parsed.output;
  return {
    kind: "subscription",
    subscriptionId: subscription.id,
    customerId: subscription.customer,
    status: subscription.status,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    metadata: subscription.metadata,
  };
};
