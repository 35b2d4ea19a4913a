/**
 * The Cluster and Sentinel harness, proven with the clients the stores will use (ioredis `Cluster`
 * and a Sentinel-configured `Redis`) before any store relies on it: the keys of one hash tag live on
 * one node, so a script over two of them runs there whole; a client keeps working across a failover.
 */
import { Cluster, Redis } from "ioredis";
import { redisServerCommand, valkeyServerCommand } from "./redisServer";
import { type RedisCluster, type RedisSentinelSet, startRedisCluster, startRedisSentinel } from "./redisTopologies";

// Two keys of one account under one hash tag, as the stores name them.
const first = "adplatform:{acct}:first";
const second = "adplatform:{acct}:second";
// Adds ARGV[1] to both keys and returns both: were the script split, concurrent runs would interleave.
const addToBoth = "return { redis.call('INCRBY', KEYS[1], ARGV[1]), redis.call('INCRBY', KEYS[2], ARGV[1]) }";

// Valkey's server takes Redis's arguments and speaks its protocol; the cluster runs on it as well.
// Each server names itself in INFO: Redis 7 as `redis_mode:cluster`, Valkey as `server_name:valkey`.
// npm test's pretest provisions it (scripts/ensure-redis --valkey): a missing one is a failure, not a skip.
const valkey = valkeyServerCommand();
if (valkey === undefined) throw new Error("no valkey-server: run scripts/ensure-redis --valkey (npm test's pretest does)");
const servers: [string, string, string][] = [
  ["Redis", redisServerCommand(), "redis_mode:cluster"],
  ["Valkey", valkey, "server_name:valkey"],
];

describe.each(servers)("a %s Cluster of three primaries with a replica each", (_, command, serverInfo) => {
  const password = "cluster secret";
  let cluster: RedisCluster;
  let client: Cluster;
  beforeAll(async () => {
    cluster = await startRedisCluster({ primaries: 3, replicasPerPrimary: 1, password, command });
    client = new Cluster([...cluster.nodes], { redisOptions: { password } });
  }, 90_000);
  afterAll(async () => {
    client?.disconnect();
    await cluster?.stop();
  });

  test("keys of one hash tag sit on one node, and a script over two of them runs whole", async () => {
    const info = await client.info("server");
    expect(info).toContain(serverInfo);
    expect(cluster.shards).toHaveLength(3);
    expect(cluster.shards.every((shard) => shard.replicas.length === 1)).toBe(true);
    await client.set(first, "0");
    await client.set(second, "0");
    const results = (await Promise.all(
      Array.from({ length: 200 }, (_, i) => client.eval(addToBoth, 2, first, second, i % 2 === 0 ? 1 : 2)),
    )) as [number, number][];
    for (const [a, b] of results) expect(a).toBe(b);
    expect(await client.get(first)).toBe("300");
    expect(await client.get(second)).toBe("300");
    // Without a shared tag the two keys hash to different slots, and Redis refuses the script.
    await expect(client.eval(addToBoth, 2, "adplatform:acct:first", "adplatform:acct:second", 1)).rejects.toThrow(/CROSSSLOT/);
  }, 30_000);

  test("after the primary holding the tag fails over, the same client reads and writes on", async () => {
    const shard = cluster.shardOf(Number(await client.cluster("KEYSLOT", first)));
    const before = cluster.shards[shard]!;
    const promoted = await cluster.failover(shard);
    expect(promoted).toEqual(before.replicas[0]);
    expect(cluster.shards[shard]!.primary).toEqual(promoted);
    // What was written before the failover reached the replica that now serves it.
    expect(await client.get(first)).toBe("300");
    expect(await client.eval(addToBoth, 2, first, second, 1)).toEqual([301, 301]);
    const direct = new Redis({ ...promoted, password });
    try {
      expect(await direct.get(second)).toBe("301");
    } finally {
      direct.disconnect();
    }
  }, 60_000);
});

describe("a primary, a replica and three sentinels", () => {
  const password = "data secret";
  const sentinelPassword = "sentinel secret";
  let set: RedisSentinelSet;
  let client: Redis;
  const reconnectErrors: string[] = [];
  beforeAll(async () => {
    set = await startRedisSentinel({ replicas: 1, sentinels: 3, password, sentinelPassword });
    client = new Redis({ sentinels: [...set.sentinels], name: set.name, password, sentinelPassword });
    // While the sentinels still name the killed primary, the client reports each failed reconnect.
    client.on("error", (error: Error) => reconnectErrors.push(error.message));
  }, 90_000);
  afterAll(async () => {
    client?.disconnect();
    await set?.stop();
  });

  test("the client writes to the primary, and after a failover to the replica the sentinels promoted", async () => {
    await client.set(first, "before");
    const oldPrimary = set.primary;
    const [replica] = set.replicas;
    const promoted = await set.failover();
    expect(promoted).toEqual(replica);
    expect(set.primary).not.toEqual(oldPrimary);
    expect(reconnectErrors.filter((message) => !/sentinels are unreachable|ECONNREFUSED|Connection is closed/.test(message))).toEqual([]);
    expect(await client.get(first)).toBe("before");
    await client.set(second, "after");
    const direct = new Redis({ ...promoted, password });
    try {
      expect(await direct.call("ROLE").then((role) => (role as string[])[0])).toBe("master");
      expect(await direct.get(second)).toBe("after");
    } finally {
      direct.disconnect();
    }
  }, 60_000);
});
