/**
 * What the Redis users share (`provider/infrastructure/redis.ts`): the URLs accepted, a URL shown
 * without its password, and a connection that fails at once instead of retrying.
 */
import { redactText } from "../../../provider/infrastructure/redact";
import {
  isRedisUrl,
  mayCarryPassword,
  openRedis,
  redactRedisUrl,
  redisTargetOf,
  redisUrlSecrets,
} from "../../../provider/infrastructure/redis";
import { freePort } from "../../helpers/redisServer";

it("shows a URL without the password", () => {
  expect(redactRedisUrl("redis://:s3cret@cache.internal:6380/2")).toBe("redis://cache.internal:6380/2");
  expect(redactRedisUrl("rediss://user:s3cret@cache.internal:6380")).toBe("rediss://user@cache.internal:6380");
  expect(redactRedisUrl("redis+cluster://:s3cret@a.internal:7000,b.internal:7001")).toBe("redis+cluster://a.internal:7000,b.internal:7001");
  expect(redactRedisUrl("rediss+sentinel://app:s3cret@s1:26379,[::1]:26380/mymaster?sentinelPassword=s3ntinel")).toBe(
    "rediss+sentinel://app@s1:26379,[::1]:26380/mymaster?sentinelPassword=[REDACTED]",
  );
});

describe("the limits URL's forms", () => {
  it("a server: the URL as ioredis reads it", () => {
    expect(redisTargetOf("redis://:pw@cache.internal:6380/2")).toEqual({ form: "server", url: "redis://:pw@cache.internal:6380/2" });
    expect(redisTargetOf("rediss://cache.internal")).toEqual({ form: "server", url: "rediss://cache.internal" });
  });

  it("a cluster: some of its nodes, the data nodes' user and password, TLS by rediss", () => {
    expect(redisTargetOf("redis+cluster://:p%40ss@10.0.0.1:7000,node-b,[::1]:7002")).toEqual({
      form: "cluster",
      tls: false,
      password: "p@ss",
      nodes: [
        { host: "10.0.0.1", port: 7000 },
        { host: "node-b", port: 6379 },
        { host: "::1", port: 7002 },
      ],
    });
    expect(redisTargetOf("rediss+cluster://app:pw@c.internal:7000/")).toMatchObject({ tls: true, username: "app", password: "pw" });
  });

  it("Sentinel: the sentinels, the primary's name, and the sentinels' own user and password as query parameters", () => {
    expect(redisTargetOf("redis+sentinel://:data%20pw@s1,s2:26380/mymaster?sentinelPassword=sent%2Fpw")).toEqual({
      form: "sentinel",
      tls: false,
      password: "data pw",
      sentinels: [
        { host: "s1", port: 26379 },
        { host: "s2", port: 26380 },
      ],
      name: "mymaster",
      sentinelPassword: "sent/pw",
    });
    expect(redisTargetOf("rediss+sentinel://s1/main?sentinelUsername=watch&sentinelPassword=x")).toMatchObject({
      tls: true,
      sentinelUsername: "watch",
      sentinelPassword: "x",
    });
  });

  it.each([
    "redis+cluster://a:7000/0", // a cluster has no databases
    "redis+cluster://a:7000?password=x", // the password goes in the user info
    "redis+sentinel://s1:26379", // no primary's name
    "redis+sentinel://s1:26379/main?sentinelPasword=x", // a misspelt parameter is not dropped silently
    "redis+sentinel://:pw/x@s1/main", // a password whose end is not certain
    "redis://a:1,b:2", // several hosts are a cluster or sentinels, not a server
    "redis+cluster://a:99999",
    "redis+shard://a:7000",
  ])("refuses %j", (url) => {
    expect(redisTargetOf(url)).toBeUndefined();
    expect(isRedisUrl(url)).toBe(false);
  });

  it("says a URL may carry a password when a sentinel password is in its query", () => {
    expect(mayCarryPassword("redis+sentinel://s1/main?sentinelPassword=x")).toBe(true);
    expect(mayCarryPassword("redis+sentinel://s1/main")).toBe(false);
    expect(mayCarryPassword("redis+cluster://:pw@a:7000")).toBe(true);
  });
});

describe("a URL whose password's end is not certain", () => {
  // [URL, what must not be shown]: the three shapes, then their relatives.
  const odd: [string, string][] = [
    ["redis://:Pa55/word@127.0.0.1:46379/0", "Pa55/word"],
    ["redis:/:pw5ecret@127.0.0.1:46379", "pw5ecret"],
    ["redis://127.0.0.1:46379/0?password=qs5ecret", "qs5ecret"],
    ["redis://127.0.0.1:46379/0?db=1&password=qs5ecret", "qs5ecret"],
    ["redis://:p@ssw0rd@127.0.0.1:46379", "p@ssw0rd"],
    ["redis://:pa#ss@127.0.0.1:46379", "pa#ss"],
    ["redis://:pa?ss@127.0.0.1:46379", "pa?ss"],
    ["redis://user:Pa55/word@cache.internal", "Pa55/word"],
    ["redis:pw5ecret@127.0.0.1:46379", "pw5ecret"],
    ["redis//:pw5ecret@127.0.0.1:46379", "pw5ecret"],
    ["redis:///:pw5ecret@127.0.0.1:46379", "pw5ecret"],
    ["rediss://:pw%2F5ecret@cache.internal:6380", "pw/5ecret"],
    ["redis://pw5ecret@127.0.0.1:46379", "pw5ecret"],
    ["redis://:pw 5ecret@127.0.0.1:46379", "pw 5ecret"],
    ["redis://:pw5ecret@127.0.0.1:46379/0#frag", "pw5ecret"],
    ["  redis://:pw5ecret@[::1]:46379  ", "pw5ecret"],
    ["pw5ecret", "pw5ecret"],
    ["", ""],
  ];

  it.each(odd)("shows %j without its secret", (url, secret) => {
    const shown = redactRedisUrl(url);
    if (secret !== "") expect(shown).not.toContain(secret);
    expect(shown).not.toContain(encodeURIComponent(secret) || "\u0000");
    // A message quoting the URL is scrubbed too.
    expect(redactText(`cannot connect to ${url}`, redisUrlSecrets(url))).not.toContain(secret || "\u0000");
  });

  it("shows nothing after the scheme when the URL is not of the one clear shape", () => {
    expect(redactRedisUrl("redis://:Pa55/word@127.0.0.1:46379/0")).toBe("redis:[REDACTED]");
    expect(redactRedisUrl("redis:/:pw@127.0.0.1:46379")).toBe("redis:[REDACTED]");
    expect(redactRedisUrl("cache.internal/pw")).toBe("[REDACTED]");
  });

  it("shows the parts of a clear URL that help find it: host, port, database, user, query names", () => {
    expect(redactRedisUrl("redis://127.0.0.1:46379/0?password=x&family=6")).toBe(
      "redis://127.0.0.1:46379/0?password=[REDACTED]&family=[REDACTED]",
    );
    expect(redactRedisUrl("redis://only-a-password@cache.internal")).toBe("redis://[REDACTED]@cache.internal");
    expect(redactRedisUrl("rediss://user:pw@[::1]:6380/3")).toBe("rediss://user@[::1]:6380/3");
  });

  /** A deterministic stream of numbers in [0, 1) (mulberry32): the same cases on every run. */
  function random(seed: number): () => number {
    let a = seed;
    return () => {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  it("never shows a password, whatever characters it holds and wherever the URL puts it", () => {
    const next = random(21);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const alphabet = "abcXYZ0189/?#@:%+&= .~-_[]";
    const schemes = [
      "redis://",
      "rediss://",
      "redis:/",
      "redis:",
      "redis:///",
      "REDIS://",
      "redis//",
      "",
      "http://",
      "redis+cluster://",
      "rediss+sentinel://",
      "redis+sentinel:/",
    ];
    const hosts = ["127.0.0.1", "cache.internal", "[::1]", "", "h", "a:7000,b:7001", "s1,[::1]:26380"];
    const tails = ["", ":46379", ":46379/0", "/2", "/0?family=6", "?db=3", "#x", "/", "/mymaster", "/mymaster?sentinelUsername=u"];
    for (let i = 0; i < 2_000; i++) {
      // At least 4 characters (shorter is not scrubbed as a credential), framed by letters no other
      // URL part has (a limits URL is trimmed, so a password cannot end in white space).
      let secret = "Qz";
      for (let n = 1 + Math.floor(next() * 12); n > 0; n--) secret += pick([...alphabet]);
      secret += "k";
      const password = next() < 0.3 ? encodeURIComponent(secret) : secret;
      const where = pick(["userinfo", "user-and-password", "bare-userinfo", "query", "query-second", "sentinel-query"]);
      const host = pick(hosts);
      const tail = pick(tails);
      const url =
        where === "userinfo"
          ? `${pick(schemes)}:${password}@${host}${tail}`
          : where === "user-and-password"
            ? `${pick(schemes)}user:${password}@${host}${tail}`
            : where === "bare-userinfo"
              ? `${pick(schemes)}${password}@${host}${tail}`
              : where === "query"
                ? `${pick(schemes)}${host}${tail.split("?")[0]}?password=${password}`
                : where === "sentinel-query"
                  ? `${pick(schemes)}${host}/mymaster?sentinelUsername=u&sentinelPassword=${password}`
                  : `${pick(schemes)}${host}/0?family=6&password=${password}`;
      const shown = redactRedisUrl(url);
      for (const form of new Set([secret, password])) {
        expect({ url, shown, leaks: shown.includes(form) }).toEqual({ url, shown, leaks: false });
        const scrubbed = redactText(`failed: ${url} (${secret})`, redisUrlSecrets(url));
        expect({ url, scrubbed, leaks: scrubbed.includes(form) }).toEqual({ url, scrubbed, leaks: false });
      }
    }
  });
});

it("accepts redis:// and rediss:// URLs with a host, and the cluster and Sentinel forms", () => {
  expect(isRedisUrl("redis+cluster://127.0.0.1:7000")).toBe(true);
  expect(isRedisUrl("rediss+sentinel://127.0.0.1:26379/mymaster")).toBe(true);
  expect(isRedisUrl("redis://127.0.0.1:6379")).toBe(true);
  expect(isRedisUrl("rediss://cache.internal:6380/2")).toBe(true);
  expect(isRedisUrl("http://cache.internal:6379")).toBe(false);
  expect(isRedisUrl("cache.internal:6379")).toBe(false);
});

it("opens a connection lazily that rejects at once when nothing listens, without retrying", async () => {
  const port = await freePort();
  const redis = openRedis(`redis://127.0.0.1:${port}`, { connectTimeoutMs: 2_000, commandTimeoutMs: 2_000 });
  const errors: Error[] = [];
  redis.on("error", (error: Error) => errors.push(error));
  expect(redis.status).toBe("wait");
  await expect(redis.connect()).rejects.toThrow();
  expect(redis.status).toBe("end");
  expect(errors.length).toBeLessThanOrEqual(1);
  redis.disconnect();
});
