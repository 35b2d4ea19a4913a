/**
 * Local-only limiting when the Redis of the limits URL cannot be used (down, unreachable, refusing
 * authentication, gone mid-run): one warning per URL naming it without its password, the machine's
 * file store instead, and no failed transaction or call. Against real `redis-server` processes.
 */
import { existsSync } from "node:fs";
import { RATE_CLASSES } from "../../../provider/catalog/rateClasses";
import { epochClock } from "../../../provider/client/clock";
import { FallbackLimiterStore } from "../../../provider/client/fallbackLimiterStore";
import { sharedStatePathForKey } from "../../../provider/client/fileLimiterStore";
import { RateLimiter } from "../../../provider/client/limiter";
import { setFallbackWarningSink } from "../../../provider/client/fallbackWarnings";
import { sharedStoreFor } from "../../../provider/client/limiterRegistry";
import { closeRedisConnections } from "../../../provider/client/sharedRedis";
import { freePort, startRedisServer } from "../../helpers/redisServer";

let warnings: string[] = [];
let previousSink: (message: string) => void;

beforeEach(() => {
  warnings = [];
  previousSink = setFallbackWarningSink((message) => warnings.push(message));
});

afterEach(() => {
  setFallbackWarningSink(previousSink);
});

afterAll(() => closeRedisConnections());

let accounts = 0;
const freshKey = () => `fallback-account-${process.pid}-${++accounts}`;

describe("limits store fallback", () => {
  it("uses Redis when the URL's password is right, without a warning", async () => {
    const server = await startRedisServer({ password: "right horse" });
    try {
      const store = sharedStoreFor(freshKey(), server.url);
      await expect(Promise.resolve(store.transact(() => "shared"))).resolves.toBe("shared");
      expect((store as FallbackLimiterStore).usingLocal).toBe(false);
      expect(warnings).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it("falls back with one warning, without the password, when authentication is refused", async () => {
    const server = await startRedisServer({ password: "right horse" });
    try {
      const url = `redis://:wrong-battery@127.0.0.1:${server.port}/1`;
      const key = freshKey();
      const store = sharedStoreFor(key, url);
      await expect(Promise.resolve(store.transact(() => "local"))).resolves.toBe("local");
      expect((store as FallbackLimiterStore).usingLocal).toBe(true);
      expect(existsSync(sharedStatePathForKey(key))).toBe(true);
      // A second account on the same URL: no second warning.
      await Promise.resolve(sharedStoreFor(freshKey(), url).transact(() => undefined));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`redis://127.0.0.1:${server.port}/1`);
      expect(warnings[0]).toMatch(/WRONGPASS|NOAUTH|auth/i);
      expect(warnings[0]).not.toContain("wrong-battery");
    } finally {
      await server.stop();
    }
  });

  it("never shows the password in the warning, whatever shape of URL holds it", async () => {
    const server = await startRedisServer({ password: "right horse" });
    try {
      const at = `127.0.0.1:${server.port}`;
      // [URL, its password]: the password sent to a real server that refuses it, or a URL no
      // parser reads the same way, each warned about once.
      const urls: [string, string][] = [
        [`redis://:Pa55/word@${at}/0`, "Pa55/word"],
        [`redis:/:pw5ecret@${at}`, "pw5ecret"],
        [`redis://${at}/0?password=qs5ecret`, "qs5ecret"],
        [`redis://${at}/1?db=1&password=qs%2F5ecret`, "qs/5ecret"],
        [`redis://p@ssw0rd@${at}/2`, "p@ssw0rd"],
        [`redis://wr0ngpass@${at}/3`, "wr0ngpass"],
      ];
      for (const [url] of urls) await Promise.resolve(sharedStoreFor(freshKey(), url).transact(() => undefined));
      expect(warnings).toHaveLength(urls.length);
      for (const [index, [, password]] of urls.entries()) {
        expect(warnings[index]).not.toContain(password);
        expect(warnings[index]).not.toContain(encodeURIComponent(password));
      }
    } finally {
      await server.stop();
    }
  });

  it("falls back with a warning when nothing listens at the URL", async () => {
    const port = await freePort();
    const store = sharedStoreFor(freshKey(), `redis://127.0.0.1:${port}`);
    await expect(Promise.resolve(store.transact(() => 7))).resolves.toBe(7);
    expect(await Promise.resolve(store.load())).toBeDefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`redis://127.0.0.1:${port}`);
    expect(warnings[0]).toContain("this machine's processes only");
  });

  it("falls back with a warning when the URL is not a Redis URL", async () => {
    const store = sharedStoreFor(freshKey(), "http://:pw-in-it@127.0.0.1:1");
    expect(store.transact(() => 1)).toBe(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).not.toContain("pw-in-it");
  });

  it("goes on locally, without a failed call, when Redis goes away mid-run", async () => {
    const server = await startRedisServer();
    const store = sharedStoreFor(freshKey(), server.url);
    const limiter = new RateLimiter({ clock: epochClock, classes: RATE_CLASSES, sharedStore: store });
    const first = await limiter.acquire({ rateClass: "C", cost: 1 });
    first.release();
    expect((store as FallbackLimiterStore).usingLocal).toBe(false);
    await server.stop();
    const permits = await Promise.all([1, 2, 3].map(() => limiter.acquire({ rateClass: "C", cost: 1 })));
    for (const permit of permits) permit.release();
    expect(permits).toHaveLength(3);
    expect((store as FallbackLimiterStore).usingLocal).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(server.url);
  });

  it("passes on an error of the decision itself, and keeps using the shared store", async () => {
    const server = await startRedisServer();
    try {
      const store = sharedStoreFor(freshKey(), server.url);
      await expect(
        Promise.resolve().then(() =>
          store.transact(() => {
            throw new Error("broken decision");
          }),
        ),
      ).rejects.toThrow("broken decision");
      expect((store as FallbackLimiterStore).usingLocal).toBe(false);
      await expect(Promise.resolve(store.transact(() => "after"))).resolves.toBe("after");
      expect(warnings).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});
