/**
 * `/sign-in` and `/sign-up`: an address (and, for sign-up, the consent the spec requires: the terms of the current
 * version, marketing optional), the captcha where it is on, then the 6-digit code from the mail, exchanged for the
 * session cookie (POST /api/v1/auth/session). Locally the page links the dev outbox, where the mail lands.
 */
import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, data } from "../../shared/api.ts";
import type { SignInOptions } from "../../shared/api-types.ts";
import { Captcha } from "../../shared/captcha.tsx";
import { Field, FormErrors, useForm } from "../../shared/forms.tsx";
import { useSession } from "../../shared/session.tsx";
import { ErrorNotice, Loading, Notice, useResource, useTitle } from "../../shared/ui.tsx";
import { type SignUpDetails, SignUpFields } from "./sign-up-fields.tsx";

/** Where to go after signing in: a page of the console only (never another site). */
const nextPage = (query: Record<string, string>) => {
  const next = query.next ?? "";
  return /^\/console(?:[/?#]|$)/.test(next) ? next : "/console";
};

const useOptions = () => useResource(() => data(api.GET("/api/v1/auth/options")), []);

export const SignIn = () => <Entry mode="sign-in" />;
export const SignUp = () => <Entry mode="sign-up" />;

const Entry = ({ mode }: { mode: "sign-in" | "sign-up" }) => {
  useTitle(mode === "sign-in" ? "Sign in" : "Sign up");
  const options = useOptions();
  const { query } = useLocation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  return (
    <div class="narrow">
      <div class="panel">
        <h1>{mode === "sign-in" ? "Sign in" : "Create an account"}</h1>
        {query.ended && !sentTo && (
          <Notice kind="info">Your session ended (signed out, expired or revoked). Sign in to go on.</Notice>
        )}
        {options.state.status === "error" ? (
          <ErrorNotice error={options.state.error} retry={options.reload} />
        ) : options.state.status !== "ready" ? (
          <Loading />
        ) : sentTo ? (
          <CodeStep
            email={sentTo}
            options={options.state.data}
            next={nextPage(query)}
            restart={() => setSentTo(null)}
          />
        ) : (
          <AddressStep mode={mode} options={options.state.data} onSent={setSentTo} />
        )}
      </div>
      <p class="muted">
        {mode === "sign-in" ? (
          <>
            No account yet? <a href="/sign-up">Create one</a>.
          </>
        ) : (
          <>
            Already have an account? <a href="/sign-in">Sign in</a>.
          </>
        )}
      </p>
    </div>
  );
};

const AddressStep = ({
  mode,
  options,
  onSent,
}: {
  mode: "sign-in" | "sign-up";
  options: SignInOptions;
  onSent: (email: string) => void;
}) => {
  const [email, setEmail] = useState("");
  const [signUp, setSignUp] = useState<SignUpDetails>({ name: "", terms: false, marketing: false });
  const changeSignUp = (patch: Partial<SignUpDetails>) => setSignUp((details) => ({ ...details, ...patch }));
  const [captchaToken, setCaptchaToken] = useState("");
  const [round, setRound] = useState(0);
  const captcha = options.captcha ? { hcaptchaToken: captchaToken } : {};
  const form = useForm(
    async () => {
      try {
        if (mode === "sign-in")
          return await data(api.POST("/api/v1/auth/login", { body: { email, ...captcha } }));
        return await data(
          api.POST("/api/v1/auth/register", {
            body: {
              email,
              ...(signUp.name.trim() ? { name: signUp.name } : {}),
              consent: {
                termsAccepted: signUp.terms as true,
                termsVersion: options.termsVersion as "2026-10-12",
                marketingAccepted: signUp.marketing,
              },
              ...captcha,
            },
          }),
        );
      } finally {
        // A captcha token is good for one request.
        if (options.captcha) setRound((r) => r + 1);
      }
    },
    (sent) => onSent(sent.email),
  );
  const fields = ["email", "name", "consent", "hcaptchaToken"];
  return (
    <form class="stack" onSubmit={form.onSubmit} noValidate>
      <p>We e-mail you a 6-digit code; no password to remember.</p>
      <Field form={form} name="email" label="E-mail address">
        {(control) => (
          <input
            {...control}
            type="email"
            autoComplete="email"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        )}
      </Field>
      {mode === "sign-up" && (
        <SignUpFields
          form={form}
          termsVersion={options.termsVersion}
          details={signUp}
          change={changeSignUp}
        />
      )}
      {options.captcha && (
        <Captcha
          siteKey={options.captcha.siteKey}
          onToken={setCaptchaToken}
          round={round}
          error={form.errorsOf("hcaptchaToken").join("; ") || undefined}
        />
      )}
      <FormErrors form={form} fields={fields} />
      <div>
        <button type="submit" disabled={form.busy}>
          {form.busy ? "Sending…" : "E-mail me a code"}
        </button>
      </div>
    </form>
  );
};

const CodeStep = ({
  email,
  options,
  next,
  restart,
}: {
  email: string;
  options: SignInOptions;
  next: string;
  restart: () => void;
}) => {
  const session = useSession();
  const { route } = useLocation();
  const [code, setCode] = useState("");
  const form = useForm(
    () => data(api.POST("/api/v1/auth/session", { body: { email, token: code.trim() } })),
    (signedIn) => {
      session.signedIn(signedIn);
      route(next);
    },
  );
  return (
    <form class="stack" onSubmit={form.onSubmit} noValidate>
      <Notice kind="success">
        If <strong>{email}</strong> can receive mail, a 6-digit code is on its way. It works for{" "}
        {Math.round(options.codeTtlSeconds / 60)} minutes.
      </Notice>
      {options.devOutbox && (
        <p>
          Running locally: the mail is in the{" "}
          <a href={`${options.devOutbox}?email=${encodeURIComponent(email)}`} target="_blank" rel="noopener">
            dev outbox
          </a>
          .
        </p>
      )}
      <Field form={form} name="token" label="Code from the e-mail">
        {(control) => (
          <input
            {...control}
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            value={code}
            onInput={(e) => setCode(e.currentTarget.value)}
          />
        )}
      </Field>
      <FormErrors form={form} fields={["token"]} />
      <div class="row-actions">
        <button type="submit" disabled={form.busy}>
          {form.busy ? "Signing in…" : "Sign in"}
        </button>
        <button type="button" class="secondary" onClick={restart}>
          Use another address or send a new code
        </button>
      </div>
    </form>
  );
};
