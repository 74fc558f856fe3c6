/**
 * The console: one page app on the API's origin (src/console/routes.ts serves it on `/`, `/sign-in`, `/sign-up`,
 * `/terms` and `/console/*`). Every page talks to the public API through src/shared/api.ts with the session cookie.
 */
import { render } from "preact";
import { LocationProvider, Route, Router, useLocation } from "preact-iso";
import type { ComponentType } from "preact";
import "../shared/styles.css";
import { Shell, type NavItem } from "../shared/layout.tsx";
import { SessionProvider } from "../shared/session.tsx";
import { RequireSession } from "./require-session.tsx";
import { Account } from "./pages/account.tsx";
import { BatchPage } from "./pages/batch.tsx";
import { Billing } from "./pages/billing.tsx";
import { Files } from "./pages/files.tsx";
import { JobPage } from "./pages/job.tsx";
import { Jobs } from "./pages/jobs.tsx";
import { Keys } from "./pages/keys.tsx";
import { Landing } from "./pages/landing.tsx";
import { NotFound } from "./pages/not-found.tsx";
import { Overview } from "./pages/overview.tsx";
import { SignIn, SignUp } from "./pages/sign-in.tsx";
import { TemplatePage } from "./pages/template.tsx";
import { Templates } from "./pages/templates.tsx";
import { Terms } from "./pages/terms.tsx";
import { JobCallbacksPage } from "./pages/job-callbacks.tsx";
import { WebhookPage } from "./pages/webhook.tsx";
import { Webhooks } from "./pages/webhooks.tsx";

const NAV: NavItem[] = [
  { href: "/console", label: "Overview" },
  { href: "/console/jobs", label: "Jobs" },
  { href: "/console/files", label: "Files" },
  { href: "/console/templates", label: "Templates" },
  { href: "/console/webhooks", label: "Webhooks" },
  { href: "/console/keys", label: "API keys" },
  { href: "/console/billing", label: "Billing" },
];

/** Links the router takes over; every other link (builder, API docs, downloads, outbox) is an ordinary one. */
const SCOPE = /^\/(?:$|[?#]|(?:console|sign-in|sign-up|terms)(?:[/?#]|$))/;

const signedIn =
  <P,>(Page: ComponentType<P>) =>
  (props: P) => (
    <RequireSession>
      <Page {...(props as P & {})} />
    </RequireSession>
  );

/** The pages of the signed-in account, wrapped once (a wrapper made per render would remount its page). */
const CONSOLE_PAGES: [string, ComponentType<any>][] = [
  ["/console", Overview],
  ["/console/jobs", Jobs],
  ["/console/jobs/:id", JobPage],
  ["/console/files", Files],
  ["/console/templates", Templates],
  ["/console/templates/:id", TemplatePage],
  ["/console/batches/:id", BatchPage],
  ["/console/webhooks", Webhooks],
  // Before `:id`: a fixed path.
  ["/console/webhooks/job-callbacks", JobCallbacksPage],
  ["/console/webhooks/:id", WebhookPage],
  ["/console/keys", Keys],
  ["/console/billing", Billing],
  ["/console/account", Account],
];
const ROUTES = CONSOLE_PAGES.map(([path, page]) => [path, signedIn(page)] as const);

const App = () => {
  const { path } = useLocation();
  return (
    <Shell nav={NAV} path={path}>
      <Router>
        <Route path="/" component={Landing} />
        <Route path="/sign-in" component={SignIn} />
        <Route path="/sign-up" component={SignUp} />
        <Route path="/terms" component={Terms} />
        {ROUTES.map(([path, page]) => (
          <Route key={path} path={path} component={page} />
        ))}
        <Route default component={NotFound} />
      </Router>
    </Shell>
  );
};

render(
  <LocationProvider scope={SCOPE}>
    <SessionProvider>
      <App />
    </SessionProvider>
  </LocationProvider>,
  document.getElementById("app")!,
);
