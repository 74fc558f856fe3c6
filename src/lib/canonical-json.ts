/** JSON with object keys sorted at every level: the same value always gives the same text (fingerprints). */
export const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, node: unknown) =>
    node && typeof node === "object" && !Array.isArray(node)
      ? Object.fromEntries(
          Object.entries(node as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : node,
  );
