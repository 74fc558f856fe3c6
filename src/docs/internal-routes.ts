/**
 * The routes the OpenAPI document leaves out, by path prefix, each with its reason (src/docs/openapi.ts excludes
 * them; the contract check of the tests leaves them alone, even where a documented path pattern would match one).
 */
import { CONSOLE_PAGES, MOUNTS } from "../paths.ts";

export const INTERNAL_ROUTES: readonly { prefix: string; why: string }[] = [
  { prefix: MOUNTS.storage, why: "the renderer's signed storage URLs" },
  {
    prefix: `${MOUNTS.renderer}/runner`,
    why: "the renderer's signed status callback and transcription (the spec's path)",
  },
  { prefix: `${MOUNTS.billing}/webhook`, why: "the payment provider's signed events" },
  { prefix: `${MOUNTS.health}/detailed`, why: "administration (basic auth)" },
  { prefix: `${MOUNTS.jobs}/queue-status`, why: "administration (basic auth)" },
  { prefix: MOUNTS.dev, why: "local development helpers (404 in production)" },
  { prefix: MOUNTS.docs, why: "this document and its UI" },
  { prefix: MOUNTS.builder, why: "the builder page (it uses the documented API)" },
  { prefix: MOUNTS.render, why: "the bundled fonts and html libraries the builder's preview draws with" },
  { prefix: MOUNTS.mcp, why: "the MCP endpoint (its tools are described by MCP itself)" },
  { prefix: MOUNTS.llms, why: "the config-writing guide for agents (text, not an API)" },
  { prefix: MOUNTS.web, why: "the web front end's files" },
  ...CONSOLE_PAGES.map((prefix) => ({ prefix, why: "the console's pages (they use the documented API)" })),
];
