/**
 * The captcha check of register and login, behind one interface: the vendor's siteverify call (hCaptcha) when the
 * captcha is on (isCaptchaOn: everywhere but development unless CAPTCHA_ENABLED is exactly "false"), nothing
 * otherwise (local runs and tests have no internet).
 */
import * as v from "valibot";
import type { Env } from "../env.ts";
import { isCaptchaOn } from "../lib/captcha-on.ts";
import { UpstreamFailure, ValidationFailed } from "../lib/errors.ts";

export interface CaptchaVerifier {
  /** True when the token is a solved challenge. */
  verify(token: string, remoteIp: string | null): Promise<boolean>;
}

const SITEVERIFY = "https://api.hcaptcha.com/siteverify";
const SiteverifyAnswer = v.object({ success: v.boolean() });

export const hcaptchaVerifier = (secret: string, send: typeof fetch = fetch): CaptchaVerifier => ({
  async verify(token, remoteIp) {
    const body = new URLSearchParams({
      secret,
      response: token,
      ...(remoteIp ? { remoteip: remoteIp } : {}),
    });
    let res: Response;
    try {
      res = await send(SITEVERIFY, { method: "POST", body, signal: AbortSignal.timeout(10_000) });
    } catch (e) {
      throw new UpstreamFailure(`Captcha check unavailable: ${(e as Error).message}`);
    }
    const parsed = v.safeParse(SiteverifyAnswer, await res.json().catch(() => null));
    if (!parsed.success) throw new UpstreamFailure(`Captcha check answered ${res.status}`);
    return parsed.output.success;
  },
});

/** The verifier for this deployment, or null when the check is off. */
export const captchaFor = (
  env: Pick<Env, "ENVIRONMENT" | "CAPTCHA_ENABLED" | "HCAPTCHA_SECRET">,
): CaptchaVerifier | null => {
  if (!isCaptchaOn(env)) return null;
  if (!env.HCAPTCHA_SECRET) throw new UpstreamFailure("The captcha is on but HCAPTCHA_SECRET is not set");
  return hcaptchaVerifier(env.HCAPTCHA_SECRET);
};

/** 400 unless the token (required when the check is on) passes. */
export const checkCaptcha = async (
  verifier: CaptchaVerifier | null,
  token: string | undefined,
  remoteIp: string | null,
): Promise<void> => {
  if (!verifier) return;
  if (!token)
    throw new ValidationFailed([
      { field: "hcaptchaToken", message: "hcaptchaToken is required", code: "CAPTCHA_REQUIRED" },
    ]);
  if (!(await verifier.verify(token, remoteIp)))
    throw new ValidationFailed([
      { field: "hcaptchaToken", message: "the captcha was not solved", code: "CAPTCHA_FAILED" },
    ]);
};
