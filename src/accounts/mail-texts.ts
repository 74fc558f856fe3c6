/** The texts of the sign-in mails. Codes appear in the subject too, so the outbox and a phone preview show them. */
import type { Mail } from "../mail/mailer.ts";

const minutes = (ms: number) => Math.round(ms / 60_000);

export const registrationCodeMail = (to: string, code: string, ttlMs: number): Mail => ({
  to,
  subject: `Your sign-up code: ${code}`,
  text: `Welcome! Your code is ${code}. It expires in ${minutes(ttlMs)} minutes and works once.\n\nIf you did not sign up, ignore this mail: nothing was created.`,
});

export const loginCodeMail = (to: string, code: string, ttlMs: number): Mail => ({
  to,
  subject: `Your sign-in code: ${code}`,
  text: `Your sign-in code is ${code}. It expires in ${minutes(ttlMs)} minutes and works once.\n\nIf you did not ask for it, ignore this mail; nobody can sign in without the code.`,
});

/** Sent when someone registers an address that already has an account: a sign-in code instead. */
export const alreadyRegisteredMail = (to: string, code: string, ttlMs: number): Mail => ({
  to,
  subject: `Your sign-in code: ${code}`,
  text: `Someone (probably you) tried to sign up with this address, which already has an account. To sign in, use the code ${code} (valid ${minutes(ttlMs)} minutes).\n\nIf it was not you, ignore this mail.`,
});

/** Sent when someone asks to sign in with an address that has no account (the API answers the same either way). */
export const noAccountMail = (to: string): Mail => ({
  to,
  subject: "Sign-in attempt",
  text: "Someone asked to sign in with this address, but it has no account. To create one, register with POST /api/v1/auth/register.\n\nIf it was not you, ignore this mail.",
});

export const emailChangeCodeMail = (to: string, code: string, ttlMs: number): Mail => ({
  to,
  subject: `Confirm your new address: ${code}`,
  text: `Your code to make this your account's address is ${code}. It expires in ${minutes(ttlMs)} minutes.\n\nIf you did not ask for it, ignore this mail.`,
});

/** Sent to an address another account asked to move to while it is already in use. */
export const addressInUseMail = (to: string): Mail => ({
  to,
  subject: "Address change attempt",
  text: "Another account asked to use this address, which already belongs to an account. Nothing was changed.\n\nIf it was not you, ignore this mail.",
});
