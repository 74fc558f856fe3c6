/** The part of fontkit 2.0.4 the renderer uses (the package ships no types). */
declare module "fontkit" {
  export interface Font {
    unitsPerEm: number;
    hasGlyphForCodePoint(codePoint: number): boolean;
    layout(text: string): { advanceWidth: number };
  }
  export function openSync(path: string): Font | { fonts: Font[] };
}
