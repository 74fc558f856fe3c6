/**
 * The payment provider behind one small interface: Stripe Checkout in production (STRIPE_SECRET_KEY), and
 * locally (ENVIRONMENT development, no key) a stand-in that creates sessions without the network and pays them
 * from a page of this Worker (GET /dev/checkout/{id}). Webhook events are verified by Stripe's own SDK in both
 * cases, with STRIPE_WEBHOOK_SECRET: the local page signs its events with the SDK's test helper, exactly as
 * Stripe signs real ones.
 */
import Stripe from "stripe";
import type { Env } from "../env";
import { isDevelopment } from "../env";
import { UpstreamFailure, ValidationFailed } from "../lib/errors";
import { newId } from "../lib/ids";

export interface CheckoutRequest {
  /** Our payment id, carried as metadata and client reference. */
  paymentId: string;
  userId: string;
  email: string;
  customerId: string | null;
  /** `payment` for a token pack, `subscription` for a plan. */
  mode: "payment" | "subscription";
  item: { name: string; amountCents: number; currency: string };
  successUrl: string;
  cancelUrl: string;
}

export interface CheckoutSession {
  sessionId: string;
  url: string;
  expiresAt: number;
}

/** The parts of a provider event this service acts on. */
export interface PaymentEvent {
  id: string;
  type: string;
  sessionId: string | null;
  paid: boolean;
  customerId: string | null;
  metadata: Record<string, string>;
}

export interface PaymentProvider {
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /** Verifies a webhook delivery's signature and reads its event; throws ValidationFailed when it is not genuine. */
  verifyEvent(rawBody: string, signature: string | undefined): Promise<PaymentEvent>;
}

/** Stripe Checkout sessions live 24 hours. */
const SESSION_TTL_MS = 24 * 3600_000;

const toEvent = (event: Stripe.Event): PaymentEvent => {
  const object = event.data.object as {
    id?: string;
    object?: string;
    payment_status?: string;
    customer?: string | { id: string } | null;
    metadata?: Record<string, string> | null;
  };
  const customer = typeof object.customer === "string" ? object.customer : (object.customer?.id ?? null);
  return {
    id: event.id,
    type: event.type,
    sessionId: object.object === "checkout.session" ? (object.id ?? null) : null,
    paid: object.payment_status === "paid" || object.payment_status === "no_payment_required",
    customerId: customer,
    metadata: object.metadata ?? {},
  };
};

/** Verifies a Stripe-signed delivery with the SDK (Web Crypto inside workerd). */
export const verifyStripeEvent = async (
  rawBody: string,
  signature: string | undefined,
  secret: string | undefined,
): Promise<PaymentEvent> => {
  if (!secret) throw new UpstreamFailure("STRIPE_WEBHOOK_SECRET is not set");
  if (!signature)
    throw new ValidationFailed([
      { field: "stripe-signature", message: "missing signature", code: "INVALID_SIGNATURE" },
    ]);
  try {
    const event = await Stripe.webhooks.constructEventAsync(
      rawBody,
      signature,
      secret,
      undefined,
      Stripe.createSubtleCryptoProvider(),
    );
    return toEvent(event);
  } catch (e) {
    throw new ValidationFailed(
      [{ field: "stripe-signature", message: (e as Error).message, code: "INVALID_SIGNATURE" }],
      "Invalid webhook signature",
    );
  }
};

const stripeProvider = (env: Env): PaymentProvider => {
  const stripe = new Stripe(env.STRIPE_SECRET_KEY!, { httpClient: Stripe.createFetchHttpClient() });
  return {
    async createCheckout(r) {
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
          metadata: { paymentId: r.paymentId, userId: r.userId },
          success_url: r.successUrl,
          cancel_url: r.cancelUrl,
        });
        return { sessionId: session.id, url: session.url!, expiresAt: session.expires_at * 1000 };
      } catch (e) {
        throw new UpstreamFailure(`The payment provider refused the checkout: ${(e as Error).message}`);
      }
    },
    verifyEvent: (raw, signature) => verifyStripeEvent(raw, signature, env.STRIPE_WEBHOOK_SECRET),
  };
};

/** Local stand-in: sessions paid from GET /dev/checkout/{id} (see src/dev/routes.ts). */
const localProvider = (env: Env): PaymentProvider => ({
  async createCheckout() {
    const sessionId = newId("cs_local");
    const base = env.PUBLIC_URL.replace(/\/+$/, "");
    return { sessionId, url: `${base}/dev/checkout/${sessionId}`, expiresAt: Date.now() + SESSION_TTL_MS };
  },
  verifyEvent: (raw, signature) => verifyStripeEvent(raw, signature, env.STRIPE_WEBHOOK_SECRET),
});

export const paymentProviderFor = (env: Env): PaymentProvider => {
  if (env.STRIPE_SECRET_KEY) return stripeProvider(env);
  if (isDevelopment(env)) return localProvider(env);
  throw new UpstreamFailure("Payments are not configured (STRIPE_SECRET_KEY)");
};

/**
 * A signed `checkout.session.completed` delivery for a session, built and signed with the SDK's own test helper
 * (the local checkout page and the tests use it; Stripe sends the same shape).
 */
export const signedCompletion = async (
  secret: string,
  session: { id: string; customer: string; metadata: Record<string, string> },
) => {
  const payload = JSON.stringify({
    id: newId("evt_local"),
    object: "event",
    type: "checkout.session.completed",
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: session.id,
        object: "checkout.session",
        payment_status: "paid",
        customer: session.customer,
        metadata: session.metadata,
      },
    },
  });
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret });
  return { payload, signature };
};
