/**
 * A pattern that matches `word` in any casing, letter by letter (`[bB][uU][rR][nN]`): JSON Schema patterns carry
 * no case-insensitive flag, so the served schemas spell it out where the grammar ignores case.
 */
export const anyCase = (word: string): string =>
  [...word].map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c)).join("");
