/**
 * The payment provider behind one small interface (`provider.ts` picks one): Stripe in production
 * (`stripe-provider.ts`), and locally a stand-in (`local-provider.ts`) whose checkout page pays from this Worker.
 */
import type { ProviderEvent } from "./provider-events.ts";

export interface CheckoutRequest {
  /** Our payment id, carried as metadata and client reference. */
  paymentId: string;
  userId: string;
  email: string;
  customerId: string | null;
  /** `payment` for a token pack, `subscription` for a plan. */
  mode: "payment" | "subscription";
  /** The plan of a subscription (kept in the subscription's metadata, which its invoices carry). */
  planId?: string;
  item: PriceItem;
  successUrl: string;
  cancelUrl: string;
}

/** What a checkout or a subscription bills (monthly, for a subscription). */
export interface PriceItem {
  name: string;
  amountCents: number;
  currency: string;
}

export interface CheckoutSession {
  sessionId: string;
  url: string;
  expiresAt: number;
}

export interface PaymentProvider {
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /** Verifies a webhook delivery's signature and reads its event; throws ValidationFailed when it is not genuine. */
  verifyEvent(rawBody: string, signature: string | undefined): Promise<ProviderEvent>;
  /**
   * Ends a subscription now: it bills nothing more. `prorate`: its unused time is credited to the customer (an
   * upgrade replaced it); otherwise nothing is credited (its payment was reversed or never came).
   */
  cancelSubscription(subscriptionId: string, options: { prorate: boolean }): Promise<void>;
  /**
   * What a subscription bills from its next period on: `next` (a plan's price; nothing is prorated now), or
   * nothing (null: it ends at the end of the current period).
   */
  setNextPeriod(subscriptionId: string, next: (PriceItem & { planId: string }) | null): Promise<void>;
}
