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
  /** What it bills: a token pack's item, or a plan's price at the provider (`planPrice`) for a subscription. */
  item: PriceItem;
  priceId?: string;
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
   * What a subscription bills from its next period on: `next` (a plan's price at the provider; nothing is prorated
   * now), or nothing (null: it ends at the end of the current period). A renewal invoice is drawn with the price the
   * subscription has when its period ends.
   */
  setNextPeriod(subscriptionId: string, next: { planId: string; priceId: string } | null): Promise<void>;
  /**
   * The id of the plan's recurring monthly price at the provider, made the first time it is asked for, with the
   * plan's id in the metadata of the price and of its product (which is how an invoice's line names its plan).
   */
  planPrice(plan: PriceItem & { planId: string }): Promise<string>;
  /** A price at the provider: the plan its metadata (or its product's) names, its amount. Null: no such price. */
  readPrice(priceId: string): Promise<PriceFacts | null>;
  /**
   * Credits the customer's balance at the provider (its next invoices use it first). `key` makes a repeated call
   * credit once.
   */
  creditCustomer(credit: CustomerCredit): Promise<void>;
}

export interface PriceFacts {
  /** The plan named in the price's metadata, else in its product's; null: neither names one. */
  planId: string | null;
  amountCents: number | null;
  currency: string;
}

export interface CustomerCredit {
  customerId: string;
  amountCents: number;
  currency: string;
  description: string;
  /** The subscription it credits. */
  subscriptionId: string;
  key: string;
}
