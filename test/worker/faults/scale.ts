/**
 * How hard the fault and abuse tests push: the short form runs inside `npm test`, the long one in `npm run faults`
 * (FAULTS_SCALE=full, provided to the tests by test/worker/global-setup.ts).
 */
import { inject } from "vitest";

export const FULL = inject("faultsScale") === "full";

/** `short` in npm test, `full` in npm run faults. */
export const scaled = (short: number, full: number): number => (FULL ? full : short);

/** Prints one figure line the faults script collects (`[faults] name: value`). */
export const figure = (name: string, value: string | number) => console.log(`[faults] ${name}: ${value}`);
