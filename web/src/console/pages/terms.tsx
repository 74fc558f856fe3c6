/** `/terms`: the terms a sign-up accepts, by version (the version registration sends). */
import { useTitle } from "../../shared/ui.tsx";

export const TERMS_VERSION = "2026-10-12";

export const Terms = () => {
  useTitle("Terms");
  return (
    <article class="panel narrow">
      <h1>Terms of service</h1>
      <p class="muted">Version {TERMS_VERSION}</p>
      <h2>What you agree to</h2>
      <ul>
        <li>
          You send only content you have the right to render, and you are responsible for what you render.
        </li>
        <li>
          Tokens pay for renders as the API documentation states; failed and cancelled jobs cost nothing.
        </li>
        <li>Prepaid tokens and paid plans are charged through the payment provider at checkout.</li>
        <li>Abuse (attacks on the service or others, unlawful content) ends the account.</li>
      </ul>
      <h2>What the service keeps</h2>
      <ul>
        <li>Your e-mail address, your name if you give one, and your consent choices with their date.</li>
        <li>Uploaded files until they expire (24 hours by default, at most 30 days); outputs 7 days.</li>
        <li>Job configs and the token ledger, for your history and billing.</li>
        <li>Marketing mail only if you opt in; you can sign up without it.</li>
      </ul>
      <p>
        The operator of this deployment publishes the binding text of these terms; this page summarises
        version {TERMS_VERSION}.
      </p>
    </article>
  );
};
