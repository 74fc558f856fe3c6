/**
 * Small CSS builders shared by the layer compilers. Values that reach CSS are numbers or strings the
 * config schema has already held to strict patterns (colours, family names), so no CSS can be injected.
 */
export type Decls = Record<string, string | number | undefined | false>;

const px = (n: number) => `${Math.round(n * 1000) / 1000}px`;

/** `k:v;...` with numbers as px; undefined/false values are dropped. */
export const css = (decls: Decls): string =>
  Object.entries(decls)
    .filter(([, v]) => v !== undefined && v !== false)
    .map(([k, v]) => `${k}:${typeof v === "number" ? px(v) : v}`)
    .join(";");

/** Escapes text for HTML content and attribute values. */
export const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Opacity and blur (every layer type); `filter` is left out when there is no blur. */
export const effects = (layer: { opacity?: number; blur?: number }): Decls => ({
  opacity: layer.opacity !== undefined && layer.opacity < 1 ? String(layer.opacity) : undefined,
  filter: layer.blur ? `blur(${px(layer.blur)})` : undefined,
});
