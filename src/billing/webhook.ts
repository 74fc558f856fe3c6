/**
 * POST /api/v1/billing/webhook: one signed provider event (verified by Stripe's SDK before anything is read),
 * handed to the verb of its kind. Every verb is idempotent: a replay, a duplicate or an event that arrives after
 * a later one changes nothing (`applied: false`). Events of other types are acknowledged and ignored.
 */
import type { Ctx } from "../context.ts";
import { expireCheckout, settleCheckout } from "./checkout-settlement.ts";
import { onInvoiceFailed, onInvoicePaid } from "./paid-invoice.ts";
import { paymentProviderFor } from "./provider.ts";
import type { ProviderEvent } from "./provider-events.ts";
import { onChargeRefunded, onDisputeCreated, recordInvoicePayments } from "./reversals.ts";
import { onSubscriptionEvent } from "./subscriptions.ts";
import type { WebhookReceipt } from "./schemas.ts";

/** The event types this service acts on (the provider's webhook endpoint must send them: see docs/deploying.md). */
const HANDLED_EVENTS = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.expired",
  "invoice.paid",
  "invoice.payment_succeeded",
  "invoice.payment_failed",
  "invoice_payment.paid",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "charge.refunded",
  "charge.dispute.created",
] as const;

const apply = async (ctx: Ctx, event: ProviderEvent): Promise<boolean> => {
  if (!(HANDLED_EVENTS as readonly string[]).includes(event.type)) return false;
  switch (event.kind) {
    case "checkout":
      return event.type === "checkout.session.expired"
        ? expireCheckout(ctx, event)
        : settleCheckout(ctx, event);
    case "invoice":
      return event.type === "invoice.payment_failed"
        ? onInvoiceFailed(ctx, event)
        : onInvoicePaid(ctx, event);
    case "invoice_payment":
      return event.paymentIntentId
        ? recordInvoicePayments(ctx, event.invoiceId, [event.paymentIntentId])
        : false;
    case "subscription":
      return onSubscriptionEvent(ctx, event);
    case "charge":
      return onChargeRefunded(ctx, event);
    case "dispute":
      return onDisputeCreated(ctx, event);
    default:
      return false;
  }
};

export const handlePaymentWebhook = async (
  ctx: Ctx,
  rawBody: string,
  signature: string | undefined,
): Promise<WebhookReceipt> => {
  const event = await paymentProviderFor(ctx.env).verifyEvent(rawBody, signature);
  return { received: true, type: event.type, applied: await apply(ctx, event) };
};
