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
  idempotencyKey?: string;
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
    const key = new Headers(init?.headers).get("idempotency-key");
    sent.push({ method, path: url.pathname, form, ...(key ? { idempotencyKey: key } : {}) });
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
      priceId: "price_pro",
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
      // The plan's own price, which names the plan: its invoices say what they bill.
      "line_items[0][price]": "price_pro",
    });
    expect(Object.keys(sent[0]!.form).some((k) => k.includes("price_data"))).toBe(false);
  });

  it("makes a plan's price once, the plan named in its and its product's metadata, and finds it by its lookup key", async () => {
    let exists = false;
    const { provider, sent } = recorded((method, path) => {
      if (method === "GET")
        return {
          object: "list",
          data: exists ? [{ id: "price_made", object: "price" }] : [],
          has_more: false,
          url: path,
        };
      exists = true;
      return { id: "price_made", object: "price" };
    });
    const plan = { planId: "pro", name: "Pro plan (monthly)", amountCents: 2900, currency: "usd" };
    expect(await provider.planPrice(plan)).toBe("price_made");
    expect(await provider.planPrice(plan)).toBe("price_made");
    expect(sent.map((s) => [s.method, s.path])).toEqual([
      ["GET", "/v1/prices"],
      ["POST", "/v1/prices"],
      ["GET", "/v1/prices"],
    ]);
    expect(sent[0]!.form).toMatchObject({ "lookup_keys[0]": "plan_pro_2900_usd_monthly", active: "true" });
    // Two first checkouts at once make one price.
    expect(sent[1]!.idempotencyKey).toBe("plan_pro_2900_usd_monthly");
    expect(sent[1]!.form).toEqual({
      currency: "usd",
      unit_amount: "2900",
      "recurring[interval]": "month",
      lookup_key: "plan_pro_2900_usd_monthly",
      "metadata[planId]": "pro",
      "product_data[name]": "Pro plan (monthly)",
      "product_data[metadata][planId]": "pro",
    });
  });

  it("reads a price's plan from its metadata, else its product's; a price that is gone is none", async () => {
    const prices: Record<string, Record<string, unknown>> = {
      price_a: { metadata: { planId: "business" }, product: { id: "prod_a", metadata: {} } },
      price_b: { metadata: {}, product: { id: "prod_b", metadata: { planId: "pro" } } },
      price_c: { metadata: {}, product: { id: "prod_c", metadata: {} } },
    };
    const { provider, sent } = recorded((_method, path) => {
      const id = path.split("/").at(-1)!;
      return { id, object: "price", unit_amount: 2900, currency: "usd", ...prices[id] };
    });
    expect(await provider.readPrice("price_a")).toEqual({
      planId: "business",
      amountCents: 2900,
      currency: "usd",
    });
    expect(await provider.readPrice("price_b")).toEqual({
      planId: "pro",
      amountCents: 2900,
      currency: "usd",
    });
    expect(await provider.readPrice("price_c")).toEqual({ planId: null, amountCents: 2900, currency: "usd" });
    expect(sent[0]).toMatchObject({
      method: "GET",
      path: "/v1/prices/price_a",
      form: { "expand[0]": "product" },
    });
    const gone = stripeProvider({ ...env, STRIPE_SECRET_KEY: "sk_test_recorded" }, (async () =>
      Response.json(
        { error: { type: "invalid_request_error", code: "resource_missing", message: "No such price" } },
        { status: 404 },
      )) as typeof fetch);
    expect(await gone.readPrice("price_x")).toBeNull();
  });

  it("credits a customer's balance once per key: a negative balance transaction in the plan's currency", async () => {
    const { provider, sent } = recorded(() => ({ id: "cbtxn_1", object: "customer_balance_transaction" }));
    await provider.creditCustomer({
      customerId: "cus_1",
      amountCents: 1740,
      currency: "usd",
      description: "Unused Pro plan",
      subscriptionId: "sub_1",
      key: "unused-credit-sub_1",
    });
    expect(sent).toEqual([
      {
        method: "POST",
        path: "/v1/customers/cus_1/balance_transactions",
        form: {
          amount: "-1740",
          currency: "usd",
          description: "Unused Pro plan",
          "metadata[subscriptionId]": "sub_1",
        },
        idempotencyKey: "unused-credit-sub_1",
      },
    ]);
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

  it("sets what the next period bills: nothing (ends at the period's end) or a lower plan's price, unprorated", async () => {
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
    await provider.setNextPeriod("sub_1", { planId: "pro", priceId: "price_pro" });
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
      "items[0][price]": "price_pro",
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
