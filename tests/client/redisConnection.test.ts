/**
 * What the Redis users share (`provider/client/redisConnection.ts`): the URLs accepted, a URL shown
 * without its password, and a connection that fails at once instead of retrying.
 */
import { isRedisUrl, openRedis, redactRedisUrl } from "../../provider/client/redisConnection";
import { freePort } from "../helpers/redisServer";

it("shows a URL without the password", () => {
  expect(redactRedisUrl("redis://:s3cret@cache.internal:6380/2")).toBe("redis://cache.internal:6380/2");
  expect(redactRedisUrl("rediss://user:s3cret@cache.internal:6380")).toBe("rediss://user@cache.internal:6380");
});

it("accepts redis:// and rediss:// URLs with a host, nothing else", () => {
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
