/**
 * Whose fault a failed render is, the same way on both sides (the Worker's queue consumer, the renderer's failure
 * report): the job's (its config or media: permanent, with a message naming the field), the infrastructure's (a
 * machine, a network, a killed process: handed over again), or a defect of ours (a bug: the same job fails the same
 * way on every attempt, so it fails once, logged with its stack under a reference the user is given to report).
 */

/** The error classes JavaScript raises for a mistake in code; a network failure comes as TypeError too. */
const PROGRAMMING_ERRORS = [TypeError, RangeError, ReferenceError, SyntaxError, EvalError, URIError];
/** fetch's network failures (Node's undici: "fetch failed"; workerd: "Network connection lost"...). */
const NETWORK = /fetch failed|network|terminated|socket|ECONN|EPIPE|ETIMEDOUT|EAI_AGAIN/i;

/**
 * A broken invariant of our own code (a graph compiled without what it needs, a table missing an entry): thrown
 * where the code knows it is not the job's doing, so it is reported as a defect, never as the config's fault.
 */
export class Defect extends Error {}

/**
 * Whether `error` is a bug in our code (a Defect, a TypeError from reading a property of undefined...), not a
 * network fault.
 */
export const isProgrammingError = (error: unknown): boolean =>
  error instanceof Defect ||
  (PROGRAMMING_ERRORS.some((kind) => error instanceof kind) && !NETWORK.test((error as Error).message));

/** A fresh reference for one defect's log line and its user-facing message (`ref_` and 12 hex digits). */
export const newFaultReference = (): string => `ref_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;

/** What the job's owner reads for a defect of ours: not their config's fault, and the reference to report. */
export const defectMessage = (reference: string): string =>
  `Rendering failed: internal error, reference ${reference} (a fault of the service, not of the config; no tokens were charged). Please report the reference.`;
