/**
 * Puts the compiled layers into the preview's body, replacing only those whose markup changed (a picture keeps its
 * decoded image, an html layer its running page), and measures where each layer's box is.
 */
import type { LayerBox } from "./protocol.ts";

export interface Drawn {
  keys: string[];
  elements: Element[];
}

/**
 * A layer's markup without its html sandbox nonce: the compile step draws a fresh one per document
 * (packages/contract/src/html-sandbox.ts), which would make every html layer look changed. Escaped in `srcdoc`, it reads
 * `nonce=&#34;…` in the script tags and `nonce-…` in the policy.
 */
const keyOf = (html: string) => html.replace(/nonce(?:-|=&#34;)[\w-]+/g, "nonce");

const parse = (html: string): Element => {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template.content.firstElementChild ?? document.createElement("span");
};

/** Replaces the changed elements of `body` (one per layer, in order); `hidden(k)`: layer k is hidden. */
export const applyLayers = (
  body: HTMLElement,
  previous: Drawn,
  layers: string[],
  hidden: (k: number) => boolean,
): Drawn => {
  const keys = layers.map(keyOf);
  const elements = keys.map((key, k) => {
    const old = previous.elements[k];
    const element = old && previous.keys[k] === key ? old : parse(layers[k]!);
    if (old && old !== element) old.replaceWith(element);
    else if (!old) body.append(element);
    const style = (element as HTMLElement).style;
    const visibility = hidden(k) ? "hidden" : "";
    if (style && style.visibility !== visibility) style.visibility = visibility;
    return element;
  });
  for (const extra of previous.elements.slice(layers.length)) extra.remove();
  return { keys, elements };
};

/**
 * Each element's box in canvas pixels before rotation: its layout box moved by its transform's translation
 * (placement.ts writes `translate(...) rotate(...)` about the centre, so the matrix's e/f are the translation and
 * its a/b the rotation).
 */
export const measure = (elements: Element[]): (LayerBox | null)[] =>
  elements.map((element) => {
    if (!(element instanceof HTMLElement)) return null;
    const transform = getComputedStyle(element).transform;
    const matrix = new DOMMatrixReadOnly(transform === "none" ? undefined : transform);
    return {
      left: element.offsetLeft + matrix.e,
      top: element.offsetTop + matrix.f,
      width: element.offsetWidth,
      height: element.offsetHeight,
      rotation: (Math.atan2(matrix.b, matrix.a) * 180) / Math.PI,
    };
  });
