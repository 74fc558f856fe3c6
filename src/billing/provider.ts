/**
 * The payment provider in use: Stripe when STRIPE_SECRET_KEY is set; locally (ENVIRONMENT development, no key) the
 * stand-in. Webhook events are verified by Stripe's own SDK in both cases, with STRIPE_WEBHOOK_SECRET: the
 * stand-in signs its events with the SDK's test helper, exactly as Stripe signs real ones.
 */
import type { Env } from "../env.ts";
import { isDevelopment } from "../env.ts";
import { UpstreamFailure } from "../lib/errors.ts";
import { localProvider } from "./local-provider.ts";
import type { PaymentProvider } from "./payment-provider.ts";
import { stripeProvider } from "./stripe-provider.ts";

export const paymentProviderFor = (env: Env): PaymentProvider => {
  if (env.STRIPE_SECRET_KEY) return stripeProvider(env);
  if (isDevelopment(env)) return localProvider(env);
  throw new UpstreamFailure("Payments are not configured (STRIPE_SECRET_KEY)");
};
