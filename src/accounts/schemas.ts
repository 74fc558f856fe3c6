/** Request bodies of the account operations (spec: Account requests). */
import * as v from "valibot";

/** The only terms version registration accepts (spec). */
export const TERMS_VERSION = "2026-10-12";

const Email = v.pipe(
  v.string("email must be a string"),
  v.trim(),
  v.maxLength(254, "email must be at most 254 characters"),
  v.email("email must be an e-mail address"),
  v.toLowerCase(),
);
const Name = v.pipe(
  v.string("name must be a string"),
  v.trim(),
  v.minLength(1, "name must not be empty"),
  v.maxLength(100, "name must be at most 100 characters"),
);
const CaptchaToken = v.optional(v.pipe(v.string("hcaptchaToken must be a string"), v.maxLength(8192)));

export const RegisterBody = v.strictObject({
  email: Email,
  name: v.optional(Name),
  consent: v.strictObject({
    termsAccepted: v.literal(true, "consent.termsAccepted must be true"),
    termsVersion: v.literal(TERMS_VERSION, `consent.termsVersion must be "${TERMS_VERSION}"`),
    marketingAccepted: v.boolean("consent.marketingAccepted must be true or false"),
  }),
  hcaptchaToken: CaptchaToken,
});
export type RegisterBody = v.InferOutput<typeof RegisterBody>;

export const LoginBody = v.strictObject({ email: Email, hcaptchaToken: CaptchaToken });

const Code = v.pipe(v.string("token must be a string"), v.regex(/^\d{6}$/, "token must be the 6-digit code"));

export const VerifyBody = v.strictObject({ email: Email, token: Code });

export const UpdateAccountBody = v.pipe(
  v.strictObject({
    name: v.optional(v.nullable(Name)),
    email: v.optional(Email),
    /** Needed with `email` where sign-in needs it (CAPTCHA_ENABLED). */
    hcaptchaToken: CaptchaToken,
  }),
  v.check((b) => b.name !== undefined || b.email !== undefined, "give name, email or both"),
);
export type UpdateAccountBody = v.InferOutput<typeof UpdateAccountBody>;

export const ConfirmEmailBody = v.strictObject({ token: Code });
