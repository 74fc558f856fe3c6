/**
 * Live validation: the document is sent to POST /api/v1/jobs/validate a moment after the last change (DEBOUNCE_MS,
 * so typing or dragging sends one request per pause), and the answer (errors and warnings by field, the estimated
 * tokens) is kept until the next one. An answer that arrives after a newer request started is dropped.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { api, data } from "../../shared/api.ts";
import type { CreateJobBody } from "../../shared/api-types.ts";
import { withoutConditions } from "../service-code.ts";
import type { Doc } from "./store.ts";

export const DEBOUNCE_MS = 350;

export type Validation = Awaited<ReturnType<typeof validate>>;

export type ValidationState =
  | { status: "signed-out" }
  | { status: "checking"; result?: Validation }
  | { status: "done"; result: Validation }
  | { status: "failed"; error: unknown; result?: Validation };

/** The document as a job: its template conditions set aside (every layer checked as shown; fields unchanged). */
const validate = (doc: Doc) =>
  data(
    api.POST("/api/v1/jobs/validate", {
      body: { type: doc.type, config: withoutConditions(doc.config) } as CreateJobBody,
    }),
  );

export const useValidation = (doc: Doc, signedIn: boolean): ValidationState => {
  const [state, setState] = useState<ValidationState>({ status: signedIn ? "checking" : "signed-out" });
  const seq = useRef(0);
  useEffect(() => {
    if (!signedIn) {
      setState({ status: "signed-out" });
      return;
    }
    const run = ++seq.current;
    setState((s) => ({ status: "checking", result: "result" in s ? s.result : undefined }));
    const timer = setTimeout(() => {
      validate(doc).then(
        (result) => run === seq.current && setState({ status: "done", result }),
        (error) =>
          run === seq.current &&
          setState((s) => ({ status: "failed", error, result: "result" in s ? s.result : undefined })),
      );
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [doc, signedIn]);
  return state;
};
