/**
 * The production payment provider (Stripe, through its SDK) with the network replaced by a recorder: the requests
 * a plan checkout and the subscription changes of plan changes send, as Stripe's API receives them.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { stripeProvider } from "../../../src/billing/stripe-provider.ts";

interface Sent {
  method: string;
  path: string;
  form: Record<string, string>;
}

/** A provider whose API calls are recorded and answered with `reply(path)`. */
const recorded = (reply: (method: string, path: string) => Record<string, unknown>) => {
  const sent: Sent[] = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
    const method = init?.method ?? "GET";
    // Parameters travel in the body, or in the query for GET and DELETE.
    const form = Object.fromEntries([
      ...url.searchParams,
      ...new URLSearchParams(typeof init?.body === "string" ? init.body : ""),
    ]);
    sent.push({ method, path: url.pathname, form });
    return Response.json(reply(method, url.pathname));
  }) as typeof fetch;
  const provider = stripeProvider({ ...env, STRIPE_SECRET_KEY: "sk_test_recorded" }, fetcher);
  return { provider, sent };
};

describe("the Stripe provider", () => {
  it("gives a plan checkout's subscription our payment, account and plan as metadata", async () => {
    const { provider, sent } = recorded(() => ({
      id: "cs_1",
      object: "checkout.session",
      url: "https://checkout.stripe.com/c/cs_1",
      expires_at: 1_900_000_000,
    }));
    const session = await provider.createCheckout({
      paymentId: "pay_1",
      userId: "acc_1",
      email: "a@example.com",
      customerId: "cus_1",
      mode: "subscription",
      planId: "pro",
      item: { name: "Pro plan (monthly)", amountCents: 2900, currency: "usd" },
      successUrl: "https://x/ok",
      cancelUrl: "https://x/no",
    });
    expect(session).toEqual({
      sessionId: "cs_1",
      url: "https://checkout.stripe.com/c/cs_1",
      expiresAt: 1_900_000_000_000,
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: "POST", path: "/v1/checkout/sessions" });
    expect(sent[0]!.form).toMatchObject({
      mode: "subscription",
      customer: "cus_1",
      "subscription_data[metadata][paymentId]": "pay_1",
      "subscription_data[metadata][userId]": "acc_1",
      "subscription_data[metadata][planId]": "pro",
      "line_items[0][price_data][recurring][interval]": "month",
      "line_items[0][price_data][unit_amount]": "2900",
    });
  });

  it("ends a subscription now, crediting its unused time only when asked", async () => {
    const { provider, sent } = recorded(() => ({ id: "sub_1", object: "subscription", status: "canceled" }));
    await provider.cancelSubscription("sub_1", { prorate: true });
    await provider.cancelSubscription("sub_2", { prorate: false });
    expect(sent.map((s) => [s.method, s.path, s.form.prorate])).toEqual([
      ["DELETE", "/v1/subscriptions/sub_1", "true"],
      ["DELETE", "/v1/subscriptions/sub_2", "false"],
    ]);
  });

  it("sets what the next period bills: nothing (ends at the period's end) or a lower plan, unprorated", async () => {
    const { provider, sent } = recorded((method) =>
      method === "GET"
        ? {
            id: "sub_1",
            object: "subscription",
            metadata: { paymentId: "pay_1", userId: "acc_1", planId: "business" },
            items: { object: "list", data: [{ id: "si_1", price: { id: "price_1", product: "prod_1" } }] },
          }
        : { id: "sub_1", object: "subscription" },
    );
    await provider.setNextPeriod("sub_1", null);
    await provider.setNextPeriod("sub_1", {
      planId: "pro",
      name: "Pro plan (monthly)",
      amountCents: 2900,
      currency: "usd",
    });
    expect(sent.map((s) => [s.method, s.path])).toEqual([
      ["POST", "/v1/subscriptions/sub_1"],
      ["GET", "/v1/subscriptions/sub_1"],
      ["POST", "/v1/subscriptions/sub_1"],
    ]);
    expect(sent[0]!.form).toEqual({ cancel_at_period_end: "true" });
    expect(sent[2]!.form).toMatchObject({
      cancel_at_period_end: "false",
      proration_behavior: "none",
      "items[0][id]": "si_1",
      "items[0][price_data][product]": "prod_1",
      "items[0][price_data][unit_amount]": "2900",
      "items[0][price_data][recurring][interval]": "month",
      "metadata[planId]": "pro",
      "metadata[paymentId]": "pay_1",
    });
  });

  it("says when the provider refuses, and takes a subscription already gone as ended", async () => {
    const fail = (code: string) =>
      stripeProvider({ ...env, STRIPE_SECRET_KEY: "sk_test_recorded" }, (async () =>
        Response.json(
          { error: { type: "invalid_request_error", code, message: `No such subscription: 'sub_x'` } },
          { status: 404 },
        )) as typeof fetch);
    await expect(
      fail("resource_missing").cancelSubscription("sub_x", { prorate: false }),
    ).resolves.toBeUndefined();
    await expect(fail("something_else").cancelSubscription("sub_x", { prorate: false })).rejects.toThrow(
      /The payment provider refused to cancel the subscription: No such subscription/,
    );
    await expect(fail("resource_missing").setNextPeriod("sub_x", null)).rejects.toThrow(/refused to change/);
  });
});
