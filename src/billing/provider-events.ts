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
 * Each family's objects are read in a module of their own (`provider-events/`: checkout, subscription, reversal).
 */
import Stripe from "stripe";
import { UpstreamFailure, ValidationFailed } from "../lib/errors.ts";
import { readCheckout, type CheckoutEvent } from "./provider-events/checkout.ts";
import { readCharge, readDispute, type ChargeEvent, type DisputeEvent } from "./provider-events/reversal.ts";
import {
  readInvoice,
  readInvoicePayment,
  readSubscription,
  type InvoiceEvent,
  type InvoicePaymentEvent,
  type SubscriptionEvent,
} from "./provider-events/subscription.ts";

interface Base {
  /** The provider's event id. */
  id: string;
  type: string;
}

/** What an event says, by the kind of object it carries. */
type EventBody =
  | CheckoutEvent
  | InvoiceEvent
  | InvoicePaymentEvent
  | SubscriptionEvent
  | ChargeEvent
  | DisputeEvent
  | { kind: "other" };

export type ProviderEvent = Base & EventBody;

/** Each event family's reader, by the prefix of its types (the first that matches reads it). */
const READERS: [prefix: string, read: (object: unknown) => EventBody | null][] = [
  ["checkout.session.", readCheckout],
  ["invoice.", readInvoice],
  ["invoice_payment.", readInvoicePayment],
  ["customer.subscription.", readSubscription],
  ["charge.dispute.", readDispute],
  ["charge.", readCharge],
];

/** The object an event carries, read by its family; null when it has an unexpected shape. */
const readObject = (type: string, object: unknown): EventBody | null => {
  const reader = READERS.find(([prefix]) => type.startsWith(prefix));
  return reader ? reader[1](object) : { kind: "other" };
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
