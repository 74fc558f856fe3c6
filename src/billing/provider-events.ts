/**
 * The payment provider's webhook events this service acts on, read from a verified Stripe event (valibot at the
 * trust boundary: a genuine event of an unexpected shape is `other`, never half-read). Times become epoch ms.
 *
 * - `checkout.session.completed` / `async_payment_succeeded` / `expired`: a Checkout (token pack or plan);
 * - `invoice.paid` / `invoice.payment_succeeded` / `invoice.payment_failed`: a subscription's invoice, with the
 *   service period of its subscription lines, the prices they bill (which name the plan) and the subscription's
 *   metadata snapshot;
 * - `invoice_payment.paid`: which payment paid an invoice (refunds and disputes name only the payment);
 * - `customer.subscription.updated` / `deleted`: a subscription's status;
 * - `charge.refunded`, `charge.dispute.created`: a payment reversed.
 *
 * Every delivery is verified first by Stripe's SDK with STRIPE_WEBHOOK_SECRET (signature and 5-minute tolerance).
 */
import Stripe from "stripe";
import * as v from "valibot";
import { UpstreamFailure, ValidationFailed } from "../lib/errors.ts";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(255));
/** An expandable reference: the id, or the object carrying it. */
const Ref = v.nullish(
  v.union([
    Id,
    v.pipe(
      v.looseObject({ id: Id }),
      v.transform((o) => o.id),
    ),
  ]),
  null,
);
const Metadata = v.nullish(v.record(v.string(), v.string()), {});
const Seconds = v.pipe(v.number(), v.integer(), v.minValue(0));

const CheckoutSession = v.looseObject({
  id: Id,
  payment_status: v.nullish(v.string(), null),
  customer: Ref,
  subscription: Ref,
  payment_intent: Ref,
});

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

const Charge = v.looseObject({
  id: Id,
  customer: Ref,
  payment_intent: Ref,
  amount: v.pipe(v.number(), v.integer(), v.minValue(0)),
  amount_refunded: v.pipe(v.number(), v.integer(), v.minValue(0)),
  refunded: v.boolean(),
});

const Dispute = v.looseObject({ id: Id, charge: Ref, payment_intent: Ref });

interface Base {
  /** The provider's event id. */
  id: string;
  type: string;
}

/** What an event says, by the kind of object it carries. */
type EventBody =
  | {
      kind: "checkout";
      sessionId: string;
      paid: boolean;
      customerId: string | null;
      subscriptionId: string | null;
      paymentIntentId: string | null;
    }
  | {
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
  | { kind: "invoice_payment"; invoiceId: string | null; paymentIntentId: string | null }
  | {
      kind: "subscription";
      subscriptionId: string;
      customerId: string | null;
      status: string;
      cancelAtPeriodEnd: boolean;
      metadata: Record<string, string>;
    }
  | {
      kind: "charge";
      chargeId: string;
      customerId: string | null;
      paymentIntentId: string | null;
      amount: number;
      amountRefunded: number;
      refunded: boolean;
    }
  | { kind: "dispute"; disputeId: string; chargeId: string | null; paymentIntentId: string | null }
  | { kind: "other" };

export type ProviderEvent = Base & EventBody;

const ms = (seconds: number) => seconds * 1000;

type Line = NonNullable<v.InferOutput<typeof Invoice>["lines"]>["data"][number];

/** The prices of the lines a subscription item made for its period (not prorations, not one-off items). */
const subscriptionPrices = (lines: Line[]) =>
  lines.flatMap((l) =>
    l.parent?.type === "subscription_item_details" &&
    !l.parent.subscription_item_details?.proration &&
    l.pricing?.price_details?.price
      ? [l.pricing.price_details.price]
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

const readObject = (type: string, object: unknown): EventBody | null => {
  if (type.startsWith("checkout.session.")) {
    const parsed = v.safeParse(CheckoutSession, object);
    if (!parsed.success) return null;
    const session = parsed.output;
    return {
      kind: "checkout",
      sessionId: session.id,
      paid: session.payment_status === "paid" || session.payment_status === "no_payment_required",
      customerId: session.customer,
      subscriptionId: session.subscription,
      paymentIntentId: session.payment_intent,
    };
  }
  if (type.startsWith("invoice.")) {
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
  }
  if (type.startsWith("invoice_payment.")) {
    const parsed = v.safeParse(InvoicePayment, object);
    if (!parsed.success) return null;
    return {
      kind: "invoice_payment",
      invoiceId: parsed.output.invoice,
      paymentIntentId: parsed.output.payment.payment_intent,
    };
  }
  if (type.startsWith("customer.subscription.")) {
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
  }
  if (type.startsWith("charge.dispute.")) {
    const parsed = v.safeParse(Dispute, object);
    if (!parsed.success) return null;
    return {
      kind: "dispute",
      disputeId: parsed.output.id,
      chargeId: parsed.output.charge,
      paymentIntentId: parsed.output.payment_intent,
    };
  }
  if (type.startsWith("charge.")) {
    const parsed = v.safeParse(Charge, object);
    if (!parsed.success) return null;
    const charge = parsed.output;
    return {
      kind: "charge",
      chargeId: charge.id,
      customerId: charge.customer,
      paymentIntentId: charge.payment_intent,
      amount: charge.amount,
      amountRefunded: charge.amount_refunded,
      refunded: charge.refunded,
    };
  }
  return { kind: "other" };
};

/** The parts of a verified event this service acts on; an unexpected shape is `other` (acknowledged, ignored). */
const toProviderEvent = (event: Stripe.Event): ProviderEvent => {
  const read = readObject(event.type, (event.data as { object?: unknown } | undefined)?.object);
  if (!read) console.warn(`payment webhook: event ${event.id} (${event.type}) has an unexpected shape`);
  return { id: event.id, type: event.type, ...(read ?? { kind: "other" }) };
};

/** Verifies a Stripe-signed delivery with the SDK (Web Crypto inside workerd). */
export const verifyStripeEvent = async (
  rawBody: string,
  signature: string | undefined,
  secret: string | undefined,
): Promise<ProviderEvent> => {
  if (!secret) throw new UpstreamFailure("STRIPE_WEBHOOK_SECRET is not set");
  if (!signature)
    throw new ValidationFailed([
      { field: "stripe-signature", message: "missing signature", code: "INVALID_SIGNATURE" },
    ]);
  let event: Stripe.Event;
  try {
    event = await Stripe.webhooks.constructEventAsync(
      rawBody,
      signature,
      secret,
      undefined,
      Stripe.createSubtleCryptoProvider(),
    );
  } catch (e) {
    throw new ValidationFailed(
      [{ field: "stripe-signature", message: (e as Error).message, code: "INVALID_SIGNATURE" }],
      "Invalid webhook signature",
    );
  }
  return toProviderEvent(event);
};
