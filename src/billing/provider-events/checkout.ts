/** `checkout.session.*` events: a Checkout (token pack or plan) completed, paid later, or expired. */
import * as v from "valibot";
import { Id, Ref } from "./fields.ts";

const CheckoutSession = v.looseObject({
  id: Id,
  payment_status: v.nullish(v.string(), null),
  customer: Ref,
  subscription: Ref,
  payment_intent: Ref,
});

export interface CheckoutEvent {
  kind: "checkout";
  sessionId: string;
  paid: boolean;
  customerId: string | null;
  subscriptionId: string | null;
  paymentIntentId: string | null;
}

/** A Checkout Session as the event says it; null when it is not one. */
export const readCheckout = (object: unknown): CheckoutEvent | null => {
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
};
