/**
 * The frame of every page: a skip link, the header (brand, the sections, links to the builder and the API docs,
 * the account and sign-out), the main region and a footer. `nav` is the app's own list of sections, so the builder
 * can reuse the frame with its own. On a phone the sections fold behind a Menu button.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { explain } from "./api.ts";
import { BUILDER_PATH } from "./builder-link.ts";
import { useSession } from "./session.tsx";

export const DOCS_UI = "/api/v1/user-api/docs/ui";

export interface NavItem {
  href: string;
  label: string;
}

const isCurrent = (href: string, path: string) =>
  href === path || (href !== "/console" && path.startsWith(`${href}/`));

export const Shell = ({
  nav,
  path,
  children,
}: {
  nav: NavItem[];
  path: string;
  children: ComponentChildren;
}) => {
  const session = useSession();
  const [open, setOpen] = useState(false);
  const [signOutError, setSignOutError] = useState<unknown>(null);
  useEffect(() => setOpen(false), [path]);
  const signedIn = session.state.status === "signed-in" ? session.state.user : null;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <div class="bar">
          <a class="brand" href="/">
            <img src="/web/favicon.svg" alt="" width={28} height={28} />
            <span>Media Render</span>
          </a>
          <button
            type="button"
            class="menu-button secondary small"
            aria-expanded={open}
            aria-controls="sections"
            onClick={() => setOpen(!open)}
          >
            Menu
          </button>
          <nav id="sections" class={`sections${open ? " open" : ""}`} aria-label="Sections">
            <ul>
              {signedIn &&
                nav.map((item) => (
                  <li key={item.href}>
                    <a href={item.href} aria-current={isCurrent(item.href, path) ? "page" : undefined}>
                      {item.label}
                    </a>
                  </li>
                ))}
              <li>
                <a href={BUILDER_PATH}>Builder</a>
              </li>
              <li>
                <a href={DOCS_UI}>API docs</a>
              </li>
            </ul>
          </nav>
          <div class="who">
            {signedIn ? (
              <>
                <a href="/console/account" class="account-link" title={signedIn.email}>
                  {signedIn.name || signedIn.email}
                </a>
                <button
                  type="button"
                  class="secondary small"
                  onClick={() => session.signOut().catch(setSignOutError)}
                >
                  Sign out
                </button>
              </>
            ) : session.state.status === "signed-out" ? (
              <>
                <a href="/sign-in">Sign in</a>
                <a class="button small" href="/sign-up">
                  Sign up
                </a>
              </>
            ) : null}
          </div>
        </div>
        {signOutError ? (
          <p class="field-error bar" role="alert">
            Sign-out failed: {explain(signOutError)}
          </p>
        ) : null}
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <footer class="foot">
        <p>
          Media Render renders images and videos from JSON. <a href={DOCS_UI}>API reference</a> ·{" "}
          <a href="/terms">Terms</a> · <a href="/health">Service health</a>
        </p>
      </footer>
    </>
  );
};

/** A page's heading row: the title and its actions. */
export const PageHeader = ({ title, children }: { title: string; children?: ComponentChildren }) => (
  <div class="page-header">
    <h1>{title}</h1>
    {children && <div class="actions">{children}</div>}
  </div>
);
