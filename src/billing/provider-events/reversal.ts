/** `charge.*` and `charge.dispute.*` events: a payment refunded or disputed. */
import * as v from "valibot";
import { Id, Ref } from "./fields.ts";

const Charge = v.looseObject({
  id: Id,
  customer: Ref,
  payment_intent: Ref,
  amount: v.pipe(v.number(), v.integer(), v.minValue(0)),
  amount_refunded: v.pipe(v.number(), v.integer(), v.minValue(0)),
  refunded: v.boolean(),
});

const Dispute = v.looseObject({ id: Id, charge: Ref, payment_intent: Ref });

export interface ChargeEvent {
  kind: "charge";
  chargeId: string;
  customerId: string | null;
  paymentIntentId: string | null;
  amount: number;
  amountRefunded: number;
  refunded: boolean;
}

export interface DisputeEvent {
  kind: "dispute";
  disputeId: string;
  chargeId: string | null;
  paymentIntentId: string | null;
}

/** A Charge as the event says it; null when it is not one. */
export const readCharge = (object: unknown): ChargeEvent | null => {
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
};

/** A Dispute as the event says it; null when it is not one. */
export const readDispute = (object: unknown): DisputeEvent | null => {
  const parsed = v.safeParse(Dispute, object);
  if (!parsed.success) return null;
  return {
    kind: "dispute",
    disputeId: parsed.output.id,
    chargeId: parsed.output.charge,
    paymentIntentId: parsed.output.payment_intent,
  };
};
