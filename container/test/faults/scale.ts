/** Prints one figure line the faults script collects (`[faults] name: value`). */
export const figure = (name: string, value: string | number) => console.log(`[faults] ${name}: ${value}`);
