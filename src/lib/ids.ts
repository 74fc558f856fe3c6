/** Identifier generation. Media files use bare cuids (the spec says so); other records get a prefix. */
import { createId } from "@paralleldrive/cuid2";

export const newId = (prefix?: string): string => (prefix ? `${prefix}_${createId()}` : createId());
