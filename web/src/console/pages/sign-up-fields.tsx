/**
 * What sign-up asks beyond the address (sign-in.tsx): an optional name and the consent the spec requires (the terms
 * of the current version, marketing optional). Errors of `consent.*` show under the consent group.
 */
import { Field, type FormState, GroupErrors } from "../../shared/forms.tsx";

/** The sign-up fields as typed: the name, and whether the terms and the marketing mails are accepted. */
export interface SignUpDetails {
  name: string;
  terms: boolean;
  marketing: boolean;
}

/** The name field and the consent group, for the terms of `termsVersion`. */
export const SignUpFields = ({
  form,
  termsVersion,
  details,
  change,
}: {
  form: FormState;
  termsVersion: string;
  details: SignUpDetails;
  change: (patch: Partial<SignUpDetails>) => void;
}) => (
  <>
    <Field form={form} name="name" label="Name (optional)">
      {(control) => (
        <input
          {...control}
          type="text"
          autoComplete="name"
          value={details.name}
          onInput={(e) => change({ name: e.currentTarget.value })}
        />
      )}
    </Field>
    <fieldset>
      <legend>Consent</legend>
      <label class="check">
        <input
          type="checkbox"
          name="consent.termsAccepted"
          checked={details.terms}
          onChange={(e) => change({ terms: e.currentTarget.checked })}
          aria-invalid={form.errorsOf("consent.termsAccepted").length ? true : undefined}
        />
        <span>
          I accept the{" "}
          <a href="/terms" target="_blank" rel="noopener">
            terms of service
          </a>{" "}
          (version {termsVersion}). Required.
        </span>
      </label>
      <label class="check">
        <input
          type="checkbox"
          name="consent.marketingAccepted"
          checked={details.marketing}
          onChange={(e) => change({ marketing: e.currentTarget.checked })}
        />
        <span>Send me product news by e-mail now and then. Optional.</span>
      </label>
      <GroupErrors form={form} name="consent" />
    </fieldset>
  </>
);
