/** Sealing of stored secrets (src/lib/sealed.ts): round trip, binding to its row and purpose, tampering. */
import { describe, expect, it } from "vitest";
import { seal, unseal } from "../../../../src/lib/sealed.ts";

const KEY = "unit-test-key-material-0123456789abcdef";

describe("sealed secrets", () => {
  it("opens what it sealed, and each seal of the same value differs (fresh IV)", async () => {
    const a = await seal(KEY, "webhook-secret", "whe_1", "whsec_abc");
    const b = await seal(KEY, "webhook-secret", "whe_1", "whsec_abc");
    expect(a).toMatch(/^sealed\.v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("whsec_abc");
    expect(await unseal(KEY, "webhook-secret", "whe_1", a)).toBe("whsec_abc");
  });

  it("does not open under another row, another purpose or another key, nor once tampered with", async () => {
    const sealed = await seal(KEY, "webhook-secret", "whe_1", "whsec_abc");
    await expect(unseal(KEY, "webhook-secret", "whe_2", sealed)).rejects.toThrow(/did not open/);
    await expect(unseal(KEY, "other-purpose", "whe_1", sealed)).rejects.toThrow(/did not open/);
    await expect(unseal(`${KEY}x`, "webhook-secret", "whe_1", sealed)).rejects.toThrow(/did not open/);
    const [prefix, iv, data] = [sealed.slice(0, 10), ...sealed.slice(10).split(".")];
    const flipped = `${data![0] === "A" ? "B" : "A"}${data!.slice(1)}`;
    await expect(unseal(KEY, "webhook-secret", "whe_1", `${prefix}${iv}.${flipped}`)).rejects.toThrow(
      /did not open/,
    );
  });

  it("passes a value stored before sealing through, and refuses to seal without key material", async () => {
    expect(await unseal(KEY, "webhook-secret", "whe_1", "whsec_plain")).toBe("whsec_plain");
    await expect(seal(undefined, "webhook-secret", "whe_1", "x")).rejects.toThrow(/DATA_ENCRYPTION_KEY/);
    await expect(seal("short", "webhook-secret", "whe_1", "x")).rejects.toThrow(/DATA_ENCRYPTION_KEY/);
  });
});
