/**
 * The payment provider in production: Stripe Checkout for token packs (payment mode) and plans (subscription
 * mode), and the subscription changes a plan change needs. A plan is billed at its own recurring price (one per
 * plan and amount, found by its lookup key), whose metadata and product's metadata name the plan: an invoice's
 * subscription line names that price, so the invoice says which plan it paid for. `fetcher` replaces the network in
 * tests.
 */
import Stripe from "stripe";
import type { Env } from "../env.ts";
import { UpstreamFailure } from "../lib/errors.ts";
import type { PaymentProvider } from "./payment-provider.ts";
import { verifyStripeEvent } from "./provider-events.ts";

const refused = (what: string, e: unknown) =>
  new UpstreamFailure(`The payment provider refused ${what}: ${(e as Error).message}`);

export const stripeProvider = (env: Env, fetcher?: typeof fetch): PaymentProvider => {
  const stripe = new Stripe(env.STRIPE_SECRET_KEY!, { httpClient: Stripe.createFetchHttpClient(fetcher) });
  return {
    async createCheckout(checkout) {
      const metadata = {
        paymentId: checkout.paymentId,
        userId: checkout.userId,
        ...(checkout.planId ? { planId: checkout.planId } : {}),
      };
      if (checkout.mode === "subscription" && !checkout.priceId)
        throw new Error("a plan's checkout needs the plan's price");
      try {
        const session = await stripe.checkout.sessions.create({
          mode: checkout.mode,
          client_reference_id: checkout.paymentId,
          ...(checkout.customerId ? { customer: checkout.customerId } : { customer_email: checkout.email }),
          line_items: [
            checkout.mode === "subscription"
              ? { quantity: 1, price: checkout.priceId }
              : {
                  quantity: 1,
                  price_data: {
                    currency: checkout.item.currency,
                    unit_amount: checkout.item.amountCents,
                    product_data: { name: checkout.item.name },
                  },
                },
          ],
          metadata,
          // Its invoices carry this snapshot: the first one may arrive before the session's own event.
          ...(checkout.mode === "subscription" ? { subscription_data: { metadata } } : {}),
          success_url: checkout.successUrl,
          cancel_url: checkout.cancelUrl,
        });
        return { sessionId: session.id, url: session.url!, expiresAt: session.expires_at * 1000 };
      } catch (e) {
        throw refused("the checkout", e);
      }
    },
    verifyEvent: (raw, signature) => verifyStripeEvent(raw, signature, env.STRIPE_WEBHOOK_SECRET),
    async cancelSubscription(id, { prorate }) {
      try {
        await stripe.subscriptions.cancel(id, { prorate, invoice_now: false });
      } catch (e) {
        // Already gone at the provider: what we wanted.
        if ((e as { code?: string }).code === "resource_missing") return;
        throw refused("to cancel the subscription", e);
      }
    },
    async setNextPeriod(id, next) {
      try {
        if (!next) {
          await stripe.subscriptions.update(id, { cancel_at_period_end: true });
          return;
        }
        const subscription = await stripe.subscriptions.retrieve(id);
        const item = subscription.items.data[0];
        if (!item) throw new Error(`subscription ${id} has no item`);
        await stripe.subscriptions.update(id, {
          cancel_at_period_end: false,
          proration_behavior: "none",
          items: [{ id: item.id, price: next.priceId }],
          metadata: { ...subscription.metadata, planId: next.planId },
        });
      } catch (e) {
        throw refused("to change the subscription", e);
      }
    },
    async planPrice(plan) {
      const lookupKey = `plan_${plan.planId}_${plan.amountCents}_${plan.currency}_monthly`;
      try {
        const found = await stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
        if (found.data[0]) return found.data[0].id;
        const metadata = { planId: plan.planId };
        const price = await stripe.prices.create(
          {
            currency: plan.currency,
            unit_amount: plan.amountCents,
            recurring: { interval: "month" },
            lookup_key: lookupKey,
            metadata,
            product_data: { name: plan.name, metadata },
          },
          // Two first checkouts at once make one price.
          { idempotencyKey: lookupKey },
        );
        return price.id;
      } catch (e) {
        throw refused("the plan's price", e);
      }
    },
    async readPrice(id) {
      try {
        const price = await stripe.prices.retrieve(id, { expand: ["product"] });
        const product = typeof price.product === "string" || price.product.deleted ? null : price.product;
        return {
          planId: price.metadata.planId ?? product?.metadata.planId ?? null,
          amountCents: price.unit_amount,
          currency: price.currency,
        };
      } catch (e) {
        if ((e as { code?: string }).code === "resource_missing") return null;
        throw refused("to read a price", e);
      }
    },
    async creditCustomer(c) {
      try {
        await stripe.customers.createBalanceTransaction(
          c.customerId,
          {
            // A negative amount is a credit the customer's next invoices use first.
            amount: -c.amountCents,
            currency: c.currency,
            description: c.description,
            metadata: { subscriptionId: c.subscriptionId },
          },
          { idempotencyKey: c.key },
        );
      } catch (e) {
        throw refused("to credit the customer", e);
      }
    },
  };
};
