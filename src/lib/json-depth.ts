/**
 * How deeply a JSON text nests, found by one pass over the raw text before anything parses it. JSON.parse itself
 * copes with deep nesting, but every recursive walk after it does not (JSON.stringify, valibot, the template
 * variable walker): 200,000 levels in a 400 KB body overflowed the stack and answered 500. The scan is a loop
 * with a counter, so it cannot overflow whatever it reads.
 */

/**
 * Deepest nesting of a request body we accept. The deepest path the grammar defines (body > config > clips[] > clip
 * > layers[] > layer > an option object > its list) is under 10 levels; an MCP call wraps a config in three more.
 * 64 leaves room for any future grammar without letting a body nest for free.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * The maximum nesting of arrays and objects in `text` (brackets inside strings do not count). With `stopAbove`,
 * returns as soon as the depth exceeds it (the text need not be read to its end to be refused). Malformed text
 * gets a number too; JSON.parse judges it afterwards.
 */
export const jsonDepth = (text: string, stopAbove = Number.POSITIVE_INFINITY): number => {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > max) {
        max = depth;
        if (max > stopAbove) return max;
      }
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
  }
  return max;
};

/** Whether `text` nests deeper than MAX_JSON_DEPTH. */
export const tooDeep = (text: string): boolean => jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH;
