/**
 * `/console/account`: the profile (name; a new e-mail address is confirmed by a code sent to it, and then every
 * other session is signed out), the consent given at sign-up, and signing out.
 */
import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, data } from "../../shared/api.ts";
import type { Account as AccountUser } from "../../shared/api-types.ts";
import { Captcha } from "../../shared/captcha.tsx";
import { Field, FormErrors, useForm } from "../../shared/forms.tsx";
import { formatDate } from "../../shared/format.ts";
import { PageHeader } from "../../shared/layout.tsx";
import { useSession } from "../../shared/session.tsx";
import { Notice, useResource, useTitle } from "../../shared/ui.tsx";

/** The code sent to a new address, which confirms it. */
const ConfirmEmail = ({
  pending,
  devOutbox,
  onConfirmed,
}: {
  /** The new address the code went to. */
  pending: string;
  /** The local mail outbox (development only). */
  devOutbox: string | null | undefined;
  onConfirmed: (user: AccountUser) => void;
}) => {
  const [code, setCode] = useState("");
  const confirm = useForm(
    () => data(api.POST("/api/v1/account/email/verify", { body: { token: code.trim() } })),
    (answer) => {
      onConfirmed(answer.user);
      setCode("");
    },
  );
  return (
    <form class="stack" onSubmit={confirm.onSubmit} noValidate>
      <Notice kind="info">
        A code went to <strong>{pending}</strong> (if it can receive mail).{" "}
        {devOutbox && (
          <a href={`${devOutbox}?email=${encodeURIComponent(pending)}`} target="_blank" rel="noopener">
            Open the dev outbox
          </a>
        )}
      </Notice>
      <Field form={confirm} name="token" label="Code sent to the new address">
        {(control) => (
          <input
            {...control}
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onInput={(e) => setCode(e.currentTarget.value)}
          />
        )}
      </Field>
      <FormErrors form={confirm} fields={["token"]} />
      <div>
        <button type="submit" disabled={confirm.busy}>
          {confirm.busy ? "Confirming…" : "Confirm the new address"}
        </button>
      </div>
    </form>
  );
};

/** What the account agreed to and since when, its plan, and signing out of this browser. */
const ConsentPanel = ({ user }: { user: AccountUser }) => {
  const session = useSession();
  const { route } = useLocation();
  const signOut = useForm(
    () => session.signOut(),
    () => route("/"),
  );
  return (
    <section class="panel" aria-labelledby="consent-h">
      <h2 id="consent-h">Consent and session</h2>
      <dl class="facts">
        <dt>Terms accepted</dt>
        <dd>
          {user.termsVersion ? `version ${user.termsVersion}, ${formatDate(user.termsAcceptedAt)}` : "—"} (
          <a href="/terms">terms</a>)
        </dd>
        <dt>Product news</dt>
        <dd>{user.marketingAccepted ? "yes" : "no"}</dd>
        <dt>Plan</dt>
        <dd>
          {user.planId} (<a href="/console/billing">billing</a>)
        </dd>
        <dt>Member since</dt>
        <dd>{formatDate(user.createdAt)}</dd>
      </dl>
      <form onSubmit={signOut.onSubmit}>
        <FormErrors form={signOut} />
        <p>
          <button type="submit" class="secondary" disabled={signOut.busy}>
            Sign out of this browser
          </button>
        </p>
      </form>
    </section>
  );
};

/** The profile form's state: what is typed, the captcha's round, the address awaiting its code, whether it saved. */
const useProfileForm = (user: AccountUser, captcha: { siteKey: string } | null | undefined) => {
  const session = useSession();
  const [name, setName] = useState(user.name ?? "");
  const [email, setEmail] = useState(user.email ?? "");
  const [captchaToken, setCaptchaToken] = useState("");
  const [round, setRound] = useState(0);
  const [pending, setPending] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const profile = useForm(
    async () => {
      setSaved(false);
      const emailChanged = email.trim().toLowerCase() !== user.email;
      try {
        return await data(
          api.PATCH("/api/v1/account", {
            body: {
              name: name.trim() ? name : null,
              ...(emailChanged ? { email } : {}),
              ...(emailChanged && captcha ? { hcaptchaToken: captchaToken } : {}),
            },
          }),
        );
      } finally {
        if (captcha) setRound((r) => r + 1);
      }
    },
    (answer) => {
      session.updateUser(answer.user);
      setSaved(true);
      if (answer.emailChange) setPending(answer.emailChange.sentTo);
    },
  );
  /** The new address confirmed by its code: it is the account's now. */
  const onConfirmed = (confirmed: AccountUser) => {
    session.updateUser(confirmed);
    setEmail(confirmed.email);
    setPending(null);
  };
  return { profile, name, setName, email, setEmail, setCaptchaToken, round, pending, saved, onConfirmed };
};

/** The account's name and address; a new address is confirmed by a code (behind a captcha when the service asks). */
const ProfilePanel = ({
  user,
  captcha,
  devOutbox,
}: {
  user: AccountUser;
  captcha: { siteKey: string } | null | undefined;
  devOutbox: string | null | undefined;
}) => {
  const { profile, name, setName, email, setEmail, setCaptchaToken, round, pending, saved, onConfirmed } =
    useProfileForm(user, captcha);
  return (
    <section class="panel" aria-labelledby="profile-h">
      <h2 id="profile-h">Profile</h2>
      <form class="stack" onSubmit={profile.onSubmit} noValidate>
        <Field form={profile} name="name" label="Name">
          {(control) => (
            <input
              {...control}
              type="text"
              autoComplete="name"
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field
          form={profile}
          name="email"
          label="E-mail address"
          hint="A new address is confirmed by a code sent to it."
        >
          {(control) => (
            <input
              {...control}
              type="email"
              autoComplete="email"
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          )}
        </Field>
        {captcha && email.trim().toLowerCase() !== user.email && (
          <Captcha
            siteKey={captcha.siteKey}
            onToken={setCaptchaToken}
            round={round}
            error={profile.errorsOf("hcaptchaToken").join("; ") || undefined}
          />
        )}
        <FormErrors form={profile} fields={["name", "email", "hcaptchaToken"]} />
        {saved && !pending && <Notice kind="success">Saved.</Notice>}
        <div>
          <button type="submit" disabled={profile.busy}>
            {profile.busy ? "Saving…" : "Save profile"}
          </button>
        </div>
      </form>
      {pending && <ConfirmEmail pending={pending} devOutbox={devOutbox} onConfirmed={onConfirmed} />}
    </section>
  );
};

export const Account = () => {
  useTitle("Account");
  const session = useSession();
  const options = useResource(() => data(api.GET("/api/v1/auth/options")), []);
  const user = session.state.status === "signed-in" ? session.state.user : null;
  if (!user) return null;
  return (
    <>
      <PageHeader title="Account" />
      <div class="two">
        <ProfilePanel
          user={user}
          captcha={options.state.data?.captcha}
          devOutbox={options.state.data?.devOutbox}
        />
        <ConsentPanel user={user} />
      </div>
    </>
  );
};
