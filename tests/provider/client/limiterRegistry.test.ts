/**
 * Which store the registry picks for the limits URL it is given (the caller's resolved settings;
 * their resolution is in tests/provider/configuration/settings.test.ts). Limiters on the registry
 * are in `limiter.sharedStore.test.ts`; the stores it picks in their own test files.
 */
import { existsSync } from "node:fs";
import { sharedStatePathForKey } from "../../../provider/client/fileLimiterStore";
import { sharedStoreFor } from "../../../provider/client/limiterRegistry";
import { FallbackLimiterStore } from "../../../provider/client/fallbackLimiterStore";

describe("limits URL", () => {
  it("picks the file store without a URL and Redis (with its fallback) with one", async () => {
    const machine = sharedStoreFor("registry-account-1", undefined) as FallbackLimiterStore;
    await Promise.resolve(machine.transact(() => undefined));
    expect(machine.usingLocal).toBe(false);
    expect(existsSync(sharedStatePathForKey("registry-account-1"))).toBe(true);
    expect(sharedStoreFor("registry-account-2", "redis://127.0.0.1:1")).toBeInstanceOf(FallbackLimiterStore);
  });
});
