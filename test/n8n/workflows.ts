/**
 * Workflows for the n8n tier, made and run through n8n's own public API as an automation user would: a credential
 * of the node's type, a workflow that a Webhook node starts (published, so its production URL answers), the
 * webhook called, and the execution read back with its data.
 */
import { randomUUID } from "node:crypto";
import { inject } from "vitest";

const n8nUrl = inject("n8nUrl");
const n8nKey = inject("n8nApiKey");

/** The node's type as n8n names a node loaded from its custom-nodes folder. */
export const NODE_TYPE = "CUSTOM.mediaRender";
export const CREDENTIAL_TYPE = "mediaRenderApi";

/** A call to n8n's public API (`/api/v1`), its JSON answer and status. */
export const n8nApi = async <T = unknown>(path: string, init: { method?: string; body?: unknown } = {}) => {
  const res = await fetch(`${n8nUrl}/api/v1${path}`, {
    method: init.method ?? "GET",
    headers: { "X-N8N-API-KEY": n8nKey, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`n8n ${init.method ?? "GET"} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
};

/** A credential of the node's type (base URL and API key); answers its id and name. */
export const createCredential = async (data: { baseUrl: string; apiKey: string }) => {
  const name = `Media Render ${randomUUID().slice(0, 8)}`;
  const made = await n8nApi<{ id: string }>("/credentials", {
    method: "POST",
    body: { name, type: CREDENTIAL_TYPE, data },
  });
  return { id: made.id, name };
};

/** One Media Render node of a workflow: its name and parameters. */
export interface Step {
  name: string;
  parameters: Record<string, unknown>;
  /** n8n's node setting "On Error" (`continueRegularOutput` is the editor's "Continue"). */
  onError?: "stopWorkflow" | "continueRegularOutput";
}

export interface Webhook {
  workflowId: string;
  /** Calls the workflow's production webhook. */
  call(body: BodyInit, contentType: string): Promise<Response>;
}

/**
 * A published workflow: Webhook (POST, answering with the last node's first binary or its items' JSON) followed
 * by `steps`, Media Render nodes using `credential`, one after another.
 */
export const webhookWorkflow = async (
  steps: Step[],
  credential: { id: string; name: string },
  respond: "binary" | "json",
): Promise<Webhook> => {
  const path = randomUUID();
  const webhook = {
    id: randomUUID(),
    name: "Webhook",
    type: "n8n-nodes-base.webhook",
    typeVersion: 2,
    position: [0, 0],
    webhookId: path,
    parameters: {
      httpMethod: "POST",
      path,
      responseMode: "lastNode",
      responseData: respond === "binary" ? "firstEntryBinary" : "allEntries",
      options: {},
    },
  };
  const nodes = steps.map((step, i) => ({
    id: randomUUID(),
    name: step.name,
    type: NODE_TYPE,
    typeVersion: 1,
    position: [240 * (i + 1), 0],
    parameters: step.parameters,
    ...(step.onError ? { onError: step.onError } : {}),
    credentials: { [CREDENTIAL_TYPE]: credential },
  }));
  const chain = [webhook, ...nodes];
  const connections = Object.fromEntries(
    chain
      .slice(0, -1)
      .map((node, i) => [node.name, { main: [[{ node: chain[i + 1]!.name, type: "main", index: 0 }]] }]),
  );
  const workflow = await n8nApi<{ id: string }>("/workflows", {
    method: "POST",
    body: {
      name: `n8n tier ${path.slice(0, 8)}`,
      nodes: chain,
      connections,
      settings: { executionOrder: "v1", saveDataSuccessExecution: "all", saveDataErrorExecution: "all" },
    },
  });
  await n8nApi(`/workflows/${workflow.id}/activate`, { method: "POST" });
  return {
    workflowId: workflow.id,
    call: async (body, contentType) => {
      // n8n registers a published workflow's webhook a moment after answering the activation: until then the
      // URL answers 404 "... is not registered" and runs nothing, so asking again is safe.
      const deadline = Date.now() + 15_000;
      for (;;) {
        const res = await fetch(`${n8nUrl}/webhook/${path}`, {
          method: "POST",
          headers: { "content-type": contentType },
          body,
          signal: AbortSignal.timeout(170_000),
        });
        if (res.status !== 404 || Date.now() > deadline) return res;
        const text = await res.clone().text();
        if (!text.includes("is not registered")) return res;
        await new Promise((r) => setTimeout(r, 200));
      }
    },
  };
};

/** What n8n keeps of an execution (the parts the tests read). */
export interface Execution {
  id: string;
  status: string;
  finished: boolean;
  data: {
    resultData: {
      error?: { message: string; description?: string | null; httpCode?: string; node?: { name: string } };
      lastNodeExecuted?: string;
      runData: Record<
        string,
        {
          error?: { message: string; description?: string | null };
          data?: {
            main: (
              | {
                  json: Record<string, unknown>;
                  binary?: Record<string, { mimeType: string; fileName?: string; fileSize?: string }>;
                }[]
              | null
            )[];
          };
        }[]
      >;
    };
  };
}

/** The workflow's one execution, with its data, once n8n has stored it as ended. */
export const executionOf = async (workflowId: string): Promise<Execution> => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const list = await n8nApi<{ data: Execution[] }>(
      `/executions?workflowId=${workflowId}&includeData=true&limit=1`,
    );
    const execution = list.data[0];
    if (execution && execution.status !== "running" && execution.status !== "new") return execution;
    if (Date.now() > deadline) throw new Error(`no ended execution of workflow ${workflowId}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

/** The JSON a node output in an execution (its first run). */
export const outputOf = (execution: Execution, node: string) =>
  (execution.data.resultData.runData[node]?.[0]?.data?.main[0] ?? []).map((item) => item.json);
