/**
 * Bytes the image page loads (pictures, uploaded fonts, catalogue fonts, libraries), kept in the browser
 * object's memory so a warm render does not go back to R2 or the ASSETS folder for each request.
 * Least recently used entries leave first once `budget` bytes are held. Storage keys name immutable
 * uploads (a new upload gets a new key), so entries never go stale.
 */
export interface CachedAsset {
  body: Uint8Array;
  contentType: string;
}

export class AssetCache {
  private entries = new Map<string, CachedAsset>();
  private pending = new Map<string, Promise<CachedAsset | null>>();
  private bytes = 0;
  private readonly budget: number;

  constructor(budget: number) {
    this.budget = budget;
  }

  /** The cached asset, or what `load` returns (concurrent callers share one load; null is not cached). */
  async get(key: string, load: () => Promise<CachedAsset | null>): Promise<CachedAsset | null> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    let pending = this.pending.get(key);
    if (!pending) {
      pending = load().then(
        (asset) => {
          this.pending.delete(key);
          if (asset && asset.body.byteLength <= this.budget) this.put(key, asset);
          return asset;
        },
        (e) => {
          this.pending.delete(key);
          throw e;
        },
      );
      this.pending.set(key, pending);
    }
    return pending;
  }

  private put(key: string, asset: CachedAsset) {
    this.entries.set(key, asset);
    this.bytes += asset.body.byteLength;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.budget) break;
      this.entries.delete(k);
      this.bytes -= v.body.byteLength;
    }
  }
}
