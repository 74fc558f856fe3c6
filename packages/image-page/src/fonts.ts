/**
 * The fonts a document needs, as `@font-face` rules, and the `font-family`/`font-weight` of each text layer.
 * - `fontPath`: an uploaded .ttf/.otf/.woff/.woff2, served from the job's own storage keys;
 * - `googleFont`: `Family` or `Family:weight` from the bundled catalogue (catalog-faces.ts), else from the hosted
 *   faces the Worker looked up before compiling (src/image-renderer/hosted-fonts.ts);
 * - `fontFamily`: a catalogue family when it names one, else a system font name;
 * - none: the default face, Arimo 400 from the catalogue (metrically identical to Arial, the documented
 *   default), so text looks the same on every machine instead of depending on installed system fonts.
 */
import { catalogFaceName, resolveCatalogFont, type CatalogFont } from "@media-render/contract/fonts/catalog";
import { catalogFontFaces } from "./catalog-faces.ts";
import { fontKey, type FontFaces } from "./font-faces.ts";
import { RENDER_ORIGINS, type PageOrigins } from "./page-origins.ts";

export interface FontChoice {
  fontPath?: string;
  googleFont?: string;
  fontFamily?: string;
}

const FORMAT: Record<string, string> = {
  ttf: "truetype",
  otf: "opentype",
  woff: "woff",
  woff2: "woff2",
};

/** What a system font name falls back to. */
const FALLBACK = `"cf-arimo","Liberation Sans",Arial,sans-serif`;
export const DEFAULT_FONT = "Arimo:400";

export class FontRegistry {
  private rules = new Map<string, string>();
  private uploads = new Map<string, string>();
  private readonly hosted: ReadonlyMap<string, FontFaces>;
  private readonly origins: PageOrigins;

  constructor(hosted: ReadonlyMap<string, FontFaces> = new Map(), origins: PageOrigins = RENDER_ORIGINS) {
    this.hosted = hosted;
    this.origins = origins;
  }

  /** `font-family` and `font-weight` CSS values for a layer's font choice. */
  use(choice: FontChoice): { family: string; weight: number } {
    if (choice.fontPath) return { family: `"${this.upload(choice.fontPath)}",${FALLBACK}`, weight: 400 };
    const named = choice.googleFont ?? choice.fontFamily ?? DEFAULT_FONT;
    const resolved = resolveCatalogFont(named);
    if (!("error" in resolved))
      return { family: `"${this.catalog(resolved)}",${FALLBACK}`, weight: resolved.weight };
    const hosted = choice.googleFont ? this.hosted.get(fontKey(choice.googleFont)) : undefined;
    if (hosted) {
      this.rules.set(`hosted:${hosted.name}:${hosted.weight}`, hosted.css);
      return { family: `"${hosted.name}",${FALLBACK}`, weight: hosted.weight };
    }
    this.catalog(resolveCatalogFont(DEFAULT_FONT) as CatalogFont);
    // Validation refuses unknown catalogue fonts, so this is a system font name (schema-checked characters).
    return { family: `"${choice.fontFamily ?? "Arimo"}",${FALLBACK}`, weight: 400 };
  }

  private catalog(font: CatalogFont): string {
    const key = `${font.entry.id}:${font.weight}`;
    if (!this.rules.has(key)) this.rules.set(key, catalogFontFaces(font, this.origins.static));
    return catalogFaceName(font);
  }

  private upload(path: string): string {
    let name = this.uploads.get(path);
    if (!name) {
      name = `uf-${this.uploads.size}`;
      this.uploads.set(path, name);
      const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? "";
      const format = FORMAT[ext] ? ` format("${FORMAT[ext]}")` : "";
      this.rules.set(
        `upload:${path}`,
        `@font-face{font-family:"${name}";font-display:block;src:url(${this.origins.asset(path)})${format}}`,
      );
    }
    return name;
  }

  /** Every `@font-face` rule registered so far. */
  css(): string {
    return [...this.rules.values()].join("\n");
  }
}
