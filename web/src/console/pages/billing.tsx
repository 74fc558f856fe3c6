/**
 * `/console/billing`: the plan, this period's usage, the prepaid balance, the ledger; buying tokens and changing
 * plan go through the payment provider's checkout, which sends the browser back here
 * (`?payment=<id>&checkout=success|cancelled`): the page then follows the payment until it is settled.
 */
import { useCallback, useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, data, explain } from "../../shared/api.ts";
import type { CurrentPlan, Payment, Plan } from "../../shared/api-types.ts";
import { Field, FormErrors, useForm } from "../../shared/forms.tsx";
import { formatDate, formatMoney, formatNumber } from "../../shared/format.ts";
import { PageHeader } from "../../shared/layout.tsx";
import { Notice, Pager, Show, TableWrap, useResource, useTitle } from "../../shared/ui.tsx";

export const UsageMeter = ({ usage: { plan, usage, pendingPlan } }: { usage: CurrentPlan }) => (
  <div class="stack">
    <p>
      Plan <strong>{plan.displayName}</strong>
      {pendingPlan && (
        <span class="muted">
          {" "}
          (moves to {pendingPlan.id} on {formatDate(pendingPlan.effectiveAt)})
        </span>
      )}
    </p>
    <div>
      <label for="usage-meter">
        Monthly allowance: {formatNumber(usage.monthlyUsed)} of {formatNumber(usage.monthlyQuota)} used
      </label>
      <meter
        id="usage-meter"
        min={0}
        max={Math.max(1, usage.monthlyQuota)}
        low={usage.monthlyQuota * 0.7}
        high={usage.monthlyQuota * 0.9}
        optimum={0}
        value={usage.monthlyUsed}
      />
      <p class="hint">Renews {formatDate(usage.currentPeriodEnd)}.</p>
    </div>
    <dl class="facts">
      <dt>Prepaid tokens</dt>
      <dd>{formatNumber(usage.prepaidBalance)}</dd>
      <dt>Available now</dt>
      <dd>
        <strong>{formatNumber(usage.totalAvailable)}</strong>
      </dd>
    </dl>
  </div>
);

/** Follows the payment the checkout returned for, until the provider's confirmation settles it. */
const PaymentReturn = ({
  paymentId,
  outcome,
  settled,
}: {
  paymentId: string;
  outcome: string;
  settled: () => void;
}) => {
  const [payment, setPayment] = useState<Payment | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (outcome !== "success") return;
    let live = true;
    const started = Date.now();
    const poll = async () => {
      try {
        const polled = await data(
          api.GET("/api/v1/billing/payments/{id}", { params: { path: { id: paymentId } } }),
        );
        if (!live) return;
        setPayment(polled);
        if (polled.status === "pending" && Date.now() - started < 60_000) setTimeout(poll, 1000);
        else if (polled.status === "paid") settled();
      } catch (e) {
        if (live) setError(e);
      }
    };
    void poll();
    return () => {
      live = false;
    };
  }, [paymentId, outcome, settled]);
  if (outcome !== "success") return <Notice kind="info">Checkout cancelled: nothing was charged.</Notice>;
  if (error) return <Notice kind="error">The payment could not be read: {explain(error)}</Notice>;
  if (!payment || payment.status === "pending")
    return <Notice kind="info">Payment received by the provider; waiting for its confirmation…</Notice>;
  if (payment.status === "paid")
    return (
      <Notice kind="success">
        Payment of {formatMoney(payment.amountCents, payment.currency)} confirmed:{" "}
        {payment.kind === "tokens"
          ? `${formatNumber(payment.tokens ?? 0)} tokens added.`
          : `you are on the ${payment.planId} plan.`}
      </Notice>
    );
  return <Notice kind="warning">The checkout expired; nothing was charged.</Notice>;
};

const Plans = ({ current, plans, changed }: { current: CurrentPlan; plans: Plan[]; changed: () => void }) => {
  const [message, setMessage] = useState<string | null>(null);
  const [target, setTarget] = useState("");
  const form = useForm(
    () => data(api.POST("/api/v1/billing/plan", { body: { planId: target } })),
    (change) => {
      if (change.status === "payment_required") return location.assign(change.checkout.checkoutUrl);
      setMessage(
        change.status === "scheduled"
          ? `The move to ${change.pendingPlan.id} is scheduled for ${formatDate(change.pendingPlan.effectiveAt)}.`
          : "The scheduled plan change is cancelled: you stay on your plan.",
      );
      changed();
    },
  );
  return (
    <form onSubmit={form.onSubmit}>
      <div class="grid">
        {plans.map((plan) => {
          const isCurrent = plan.id === current.plan.id;
          return (
            <div class="panel" key={plan.id}>
              <h3>{plan.displayName}</h3>
              <p class="stat">
                {plan.pricePerMonth ? `${formatMoney(plan.pricePerMonth * 100)} / month` : "Free"}
              </p>
              <p>
                {formatNumber(plan.tokensPerMonth)} tokens a month · {plan.maxConcurrentJobs} jobs at once ·{" "}
                {plan.supportLevel} support
              </p>
              {isCurrent && !current.pendingPlan ? (
                <p>
                  <strong>Your plan</strong>
                </p>
              ) : (
                <button
                  type="submit"
                  class={isCurrent ? "secondary" : ""}
                  disabled={form.busy}
                  onClick={() => setTarget(plan.id)}
                >
                  {isCurrent
                    ? `Stay on ${plan.displayName}`
                    : `${plan.tokensPerMonth > current.plan.tokensPerMonth ? "Upgrade" : "Downgrade"} to ${plan.displayName}`}
                </button>
              )}
            </div>
          );
        })}
      </div>
      <FormErrors form={form} fields={[]} />
      {message && <Notice kind="success">{message}</Notice>}
    </form>
  );
};

const BuyTokens = () => {
  const [tokens, setTokens] = useState("1000");
  const form = useForm(
    () => data(api.POST("/api/v1/billing/checkout", { body: { tokens: Number(tokens) } })),
    (checkout) => location.assign(checkout.checkoutUrl),
  );
  return (
    <form class="inline-form" onSubmit={form.onSubmit} noValidate>
      <Field
        form={form}
        name="tokens"
        label="Tokens to buy"
        hint="In packs of 1,000; the price is shown at checkout."
      >
        {(control) => (
          <input
            {...control}
            type="number"
            min={1000}
            step={1000}
            value={tokens}
            onInput={(e) => setTokens(e.currentTarget.value)}
          />
        )}
      </Field>
      <button type="submit" disabled={form.busy}>
        {form.busy ? "Opening checkout…" : "Buy tokens"}
      </button>
      <div class="grow">
        <FormErrors form={form} fields={["tokens"]} />
      </div>
    </form>
  );
};

const Ledger = ({ version }: { version: number }) => {
  const [page, setPage] = useState(1);
  const ledger = useResource(
    () => data(api.GET("/api/v1/billing/ledger", { params: { query: { page: String(page), limit: "20" } } })),
    [page, version],
  );
  return (
    <Show resource={ledger} what="Loading the ledger">
      {({ entries, pagination }) =>
        entries.length === 0 ? (
          <p>No token movements yet.</p>
        ) : (
          <>
            <TableWrap label="Token ledger">
              <table>
                <thead>
                  <tr>
                    <th>When</th>
                    <th>What</th>
                    <th class="num">Tokens</th>
                    <th>Job</th>
                    <th>Note</th>
                  </tr>
                </thead>
                <tbody>
                  {entries.map((e) => (
                    <tr key={e.id}>
                      <td>{formatDate(e.createdAt)}</td>
                      <td>{e.kind}</td>
                      <td class="num">
                        {e.amount > 0 ? `+${formatNumber(e.amount)}` : formatNumber(e.amount)}
                      </td>
                      <td>{e.jobId ? <a href={`/console/jobs/${e.jobId}`}>{e.jobId}</a> : "—"}</td>
                      <td>{e.note ?? ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
            <Pager page={page} totalPages={pagination.totalPages} onPage={setPage} />
          </>
        )
      }
    </Show>
  );
};

export const Billing = () => {
  useTitle("Billing");
  const { query } = useLocation();
  const [version, setVersion] = useState(0);
  const usage = useResource(() => data(api.GET("/api/v1/billing/usage")), [version]);
  const plans = useResource(() => data(api.GET("/api/v1/billing/plans")), []);
  const refresh = useCallback(() => setVersion((v) => v + 1), []);
  return (
    <>
      <PageHeader title="Usage and billing" />
      {query.payment && (
        <PaymentReturn paymentId={query.payment} outcome={query.checkout ?? ""} settled={refresh} />
      )}
      <div class="two">
        <section class="panel" aria-labelledby="usage-h">
          <h2 id="usage-h">This period</h2>
          <Show resource={usage}>{(u) => <UsageMeter usage={u} />}</Show>
        </section>
        <section class="panel" aria-labelledby="buy-h">
          <h2 id="buy-h">Prepaid tokens</h2>
          <p>Prepaid tokens are spent after the monthly allowance and never expire with the period.</p>
          <BuyTokens />
        </section>
      </div>
      <section aria-labelledby="plans-h">
        <h2 id="plans-h">Plans</h2>
        <Show resource={usage}>
          {(currentPlan) => (
            <Show resource={plans}>
              {({ plans }) => <Plans current={currentPlan} plans={plans} changed={refresh} />}
            </Show>
          )}
        </Show>
      </section>
      <section aria-labelledby="ledger-h">
        <h2 id="ledger-h">Token ledger</h2>
        <Ledger version={version} />
      </section>
    </>
  );
};
