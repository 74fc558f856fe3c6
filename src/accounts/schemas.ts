/** Request bodies of the account operations (spec: Account requests). */
import * as v from "valibot";
import { Timestamp } from "../lib/envelope.ts";

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

/** The account as its owner sees it. */
export const Account = v.object({
  id: v.string(),
  email: v.string(),
  name: v.nullable(v.string()),
  planId: v.string(),
  pendingPlanId: v.pipe(
    v.nullable(v.string()),
    v.description("A downgrade that applies at the period's end"),
  ),
  marketingAccepted: v.boolean(),
  termsVersion: v.nullable(v.string()),
  termsAcceptedAt: v.nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Account = v.InferOutput<typeof Account>;

/** The answer of register and login, whatever the address (nothing tells whether it has an account). */
export const CodeSent = v.object({
  sent: v.literal(true),
  email: v.string(),
  expiresInSeconds: v.pipe(v.number(), v.integer()),
  next: v.string(),
});
export type CodeSent = v.InferOutput<typeof CodeSent>;

export const SignedIn = v.object({
  session: v.object({
    token: v.pipe(v.string(), v.description("Send it as `Authorization: Bearer <token>`")),
    expiresAt: Timestamp,
  }),
  user: Account,
});
export type SignedIn = v.InferOutput<typeof SignedIn>;

/** The account after a change; `emailChange` when a code went to a new address to confirm it. */
export const AccountUpdated = v.object({
  user: Account,
  emailChange: v.optional(
    v.object({ sentTo: v.string(), expiresInSeconds: v.pipe(v.number(), v.integer()) }),
  ),
});
export type AccountUpdated = v.InferOutput<typeof AccountUpdated>;

export const LoggedOut = v.object({ loggedOut: v.literal(true) });
export type LoggedOut = v.InferOutput<typeof LoggedOut>;

/** What the console's sign-in and sign-up pages need to know (GET /api/v1/auth/options). */
export const SignInOptions = v.object({
  termsVersion: v.pipe(v.string(), v.description("The terms version registration accepts")),
  captcha: v.pipe(
    v.nullable(v.object({ provider: v.literal("hcaptcha"), siteKey: v.string() })),
    v.description("The captcha widget to show (null: no captcha)"),
  ),
  devOutbox: v.pipe(
    v.nullable(v.string()),
    v.description("Where the mailed code lands on a local run (null in production)"),
  ),
  codeTtlSeconds: v.pipe(v.number(), v.integer()),
});
export type SignInOptions = v.InferOutput<typeof SignInOptions>;

/** A browser's session (POST and GET /api/v1/auth/session): the session itself is in the cookie, never here. */
export const BrowserSession = v.object({
  user: Account,
  csrfToken: v.pipe(v.string(), v.description("Send it as `x-csrf-token` on every request but GET/HEAD")),
  expiresAt: Timestamp,
});
export type BrowserSession = v.InferOutput<typeof BrowserSession>;
