/**
 * Whether register, sign-in and an address change need a captcha (a leaf: the Worker, the console's policy, the
 * browser tests and `npm run deploy` read the one rule). Fails closed, as admin auth does: in any ENVIRONMENT but
 * `development` it is on unless CAPTCHA_ENABLED is exactly "false" (a typo, "TRUE", "1" or no value keep it on); in
 * `development` (local runs and the tests, which have no internet) only "true" turns it on.
 */
export const isCaptchaOn = (env: { ENVIRONMENT?: string; CAPTCHA_ENABLED?: string }): boolean =>
  env.ENVIRONMENT === "development" ? env.CAPTCHA_ENABLED === "true" : env.CAPTCHA_ENABLED !== "false";
