/**
 * The builder: a second app beside the console (builder.html), served by the Worker on /builder
 * (src/builder/routes.ts) and loaded only there. It reuses the console's frame, session and API client
 * (src/shared) and calls the public API only.
 */
import { render } from "preact";
import "../shared/styles.css";
import "./builder.css";
import { Shell, type NavItem } from "../shared/layout.tsx";
import { SessionProvider } from "../shared/session.tsx";
import { Builder } from "./builder.tsx";

const NAV: NavItem[] = [
  { href: "/console", label: "Console" },
  { href: "/console/jobs", label: "Jobs" },
  { href: "/console/files", label: "Files" },
  { href: "/console/templates", label: "Templates" },
];

render(
  <SessionProvider>
    <Shell nav={NAV} path={location.pathname}>
      <Builder />
    </Shell>
  </SessionProvider>,
  document.getElementById("app")!,
);
