/**
 * The payment provider in production: Stripe Checkout for token packs (payment mode) and plans (subscription
 * mode, the plan in the subscription's metadata), and the subscription changes a plan change needs. `fetcher`
 * replaces the network in tests.
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
    async createCheckout(r) {
      const metadata = {
        paymentId: r.paymentId,
        userId: r.userId,
        ...(r.planId ? { planId: r.planId } : {}),
      };
      try {
        const session = await stripe.checkout.sessions.create({
          mode: r.mode,
          client_reference_id: r.paymentId,
          ...(r.customerId ? { customer: r.customerId } : { customer_email: r.email }),
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: r.item.currency,
                unit_amount: r.item.amountCents,
                product_data: { name: r.item.name },
                ...(r.mode === "subscription" ? { recurring: { interval: "month" as const } } : {}),
              },
            },
          ],
          metadata,
          // Its invoices carry this snapshot: the first one may arrive before the session's own event.
          ...(r.mode === "subscription" ? { subscription_data: { metadata } } : {}),
          success_url: r.successUrl,
          cancel_url: r.cancelUrl,
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
        const product = typeof item.price.product === "string" ? item.price.product : item.price.product.id;
        await stripe.subscriptions.update(id, {
          cancel_at_period_end: false,
          proration_behavior: "none",
          items: [
            {
              id: item.id,
              price_data: {
                currency: next.currency,
                product,
                unit_amount: next.amountCents,
                recurring: { interval: "month" },
              },
            },
          ],
          metadata: { ...subscription.metadata, planId: next.planId },
        });
      } catch (e) {
        throw refused("to change the subscription", e);
      }
    },
  };
};
