/** The renderer's fault tests run short in `npm test` and full in `npm run faults` (FAULTS_SCALE=full). */
export const FULL = process.env.FAULTS_SCALE === "full";

/** `short` in npm test, `full` in npm run faults. */
export const scaled = (short: number, full: number): number => (FULL ? full : short);

/** Prints one figure line the faults script collects (`[faults] name: value`). */
export const figure = (name: string, value: string | number) => console.log(`[faults] ${name}: ${value}`);
