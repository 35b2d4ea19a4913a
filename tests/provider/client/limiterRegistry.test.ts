/**
 * Which limits URL the registry uses: the stack config's (handed over by `configure` in the plugin
 * and by the data sources' settings in the program), else `ADPLATFORM_LIMITS_URL`. Limiters on the
 * registry are in `limiter.sharedStore.test.ts`; the stores it picks in their own test files.
 */
import { configureCredentials } from "../../../provider/faces/dynamic/configure";
import { existsSync } from "node:fs";
import { sharedStatePathForKey } from "../../../provider/client/fileLimiterStore";
import { configureLimitsUrl, limitsUrl, sharedStoreFor } from "../../../provider/client/limiterRegistry";
import { FallbackLimiterStore } from "../../../provider/client/fallbackLimiterStore";

afterEach(() => configureLimitsUrl(undefined));

describe("limits URL", () => {
  it("is the stack config's when set, else the environment's, else none", () => {
    const env = { ADPLATFORM_LIMITS_URL: "redis://from-env:6379" };
    expect(limitsUrl({})).toBeUndefined();
    expect(limitsUrl(env)).toBe("redis://from-env:6379");
    configureCredentials({ get: (key) => (key === "adplatform:limitsUrl" ? "redis://from-config:6379" : undefined) });
    expect(limitsUrl(env)).toBe("redis://from-config:6379");
    configureCredentials({ get: () => undefined });
    expect(limitsUrl(env)).toBe("redis://from-env:6379");
  });

  it("picks the file store without a URL and Redis (with its fallback) with one", async () => {
    const machine = sharedStoreFor("registry-account-1", undefined) as FallbackLimiterStore;
    await Promise.resolve(machine.transact(() => undefined));
    expect(machine.usingLocal).toBe(false);
    expect(existsSync(sharedStatePathForKey("registry-account-1"))).toBe(true);
    expect(sharedStoreFor("registry-account-2", "redis://127.0.0.1:1")).toBeInstanceOf(FallbackLimiterStore);
  });
});
