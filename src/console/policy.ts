/**
 * The Content-Security-Policy of every page of the web front end (a leaf module: the Worker's routes and the
 * browser tests use it). Scripts, styles, images, media, fonts and requests of this origin only, no inline script,
 * no framing; the captcha vendor's widget (script, frame, style, requests) only where the captcha is on.
 */

import { isCaptchaOn } from "../lib/captcha-on.ts";

/** The captcha vendor's hosts, as its documentation lists them for a Content-Security-Policy. */
const CAPTCHA_SOURCES = "https://hcaptcha.com https://*.hcaptcha.com";

/**
 * The console's policy; the captcha widget (script, frame, style, requests) only where the captcha is on, and
 * `captcha: false` leaves it out on a page that never shows it (the API docs).
 * `frames`: pages of this origin the page embeds (the builder's preview), none by default.
 */
export const contentSecurityPolicy = (
  env: { ENVIRONMENT?: string; CAPTCHA_ENABLED?: string },
  { frames = [], captcha: widget = isCaptchaOn(env) }: { frames?: readonly string[]; captcha?: boolean } = {},
): string => {
  const captcha = widget ? ` ${CAPTCHA_SOURCES}` : "";
  const frameSources = [...frames, ...(captcha ? [CAPTCHA_SOURCES] : [])];
  return [
    "default-src 'none'",
    `script-src 'self'${captcha}`,
    `style-src 'self'${captcha}`,
    "img-src 'self' blob: data:",
    "media-src 'self' blob:",
    "font-src 'self'",
    `connect-src 'self'${captcha}`,
    `frame-src ${frameSources.join(" ") || "'none'"}`,
    "manifest-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
};
