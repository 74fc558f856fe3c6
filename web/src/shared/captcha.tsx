/**
 * The captcha widget of sign-in, sign-up and address changes, where the service has the captcha on
 * (GET /api/v1/auth/options): the vendor's script, loaded from the vendor only then (the page's policy allows its
 * hosts only then), rendered explicitly; its token goes in the request's `hcaptchaToken` field.
 */
import { useEffect, useRef, useState } from "preact/hooks";

interface Widget {
  render(container: HTMLElement, options: Record<string, unknown>): string;
  reset(id?: string): void;
}
declare global {
  interface Window {
    hcaptcha?: Widget;
    mrsCaptchaLoaded?: () => void;
  }
}

const SCRIPT = "https://js.hcaptcha.com/1/api.js?render=explicit&onload=mrsCaptchaLoaded";
let loading: Promise<Widget> | null = null;

const loadWidget = (): Promise<Widget> =>
  (loading ??= new Promise((resolve, reject) => {
    window.mrsCaptchaLoaded = () => resolve(window.hcaptcha!);
    const script = document.createElement("script");
    script.src = SCRIPT;
    script.async = true;
    script.onerror = () => {
      loading = null;
      reject(new Error("The captcha could not be loaded: check the connection and reload the page"));
    };
    document.head.append(script);
  }));

/**
 * Renders the widget; `onToken` gets the solved token (or "" when it expires). Changing `round` (after a refused
 * request: a token is single use) resets it.
 */
export const Captcha = ({
  siteKey,
  onToken,
  round,
  error,
}: {
  siteKey: string;
  onToken: (token: string) => void;
  round: number;
  error?: string;
}) => {
  const box = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: Widget; id: string } | null>(null);
  const [failed, setFailed] = useState<string | null>(
    siteKey ? null : "The captcha has no site key configured",
  );
  const tokenRef = useRef(onToken);
  tokenRef.current = onToken;

  useEffect(() => {
    if (!siteKey) return;
    let live = true;
    loadWidget().then(
      (api) => {
        if (!live || !box.current) return;
        const id = api.render(box.current, {
          sitekey: siteKey,
          callback: (token: string) => tokenRef.current(token),
          "expired-callback": () => tokenRef.current(""),
          "error-callback": () => tokenRef.current(""),
        });
        widget.current = { api, id };
      },
      (e: Error) => live && setFailed(e.message),
    );
    return () => {
      live = false;
    };
  }, [siteKey]);

  useEffect(() => {
    if (round === 0 || !widget.current) return;
    widget.current.api.reset(widget.current.id);
    tokenRef.current("");
  }, [round]);

  return (
    <div class={`field captcha${error ? " invalid" : ""}`}>
      <div ref={box} />
      {failed && <p class="field-error">{failed}</p>}
      {error && (
        <p class="field-error" id="f-hcaptchaToken-error">
          {error}
        </p>
      )}
    </div>
  );
};
