/**
 * The limits URL's cluster and Sentinel forms, against real set-ups on loopback
 * (tests/helpers/redisTopologies.ts): the limiter's store and the create journal work through each
 * (every step one command on one key, whatever slot it falls in), and when the primary holding the account fails
 * over, the process either absorbs it within the command bound or steps down to the machine's places, says so once,
 * comes back once the set-up serves again, says that once; its state goes on on the new primary, and no ioredis error
 * goes unhandled.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Cluster, Redis } from "ioredis";
import { accountKey } from "../../../provider/client/accountKey";
import type { LimiterState } from "../../../provider/limiter/limiterState";
import { sharedStoreFor } from "../../../provider/limiter/limiterRegistry";
import { sharedStateName } from "../../../provider/limiter/limiterStores";
import { redisStateKey } from "../../../provider/limiter/redisLimiterStore";
import { closeRedisConnections } from "../../../provider/infrastructure/redis";
import { setFallbackWarningSink, type WarningSink } from "../../../provider/infrastructure/warnings";
import { journalStoreFor } from "../../../provider/resources/journal/store";
import { redisServerCommand, valkeyServerCommand } from "../../helpers/redisServer";
import { type RedisCluster, type RedisSentinelSet, startRedisCluster, startRedisSentinel } from "../../helpers/redisTopologies";
import { ENTRY_URN, answeredEntry } from "../../helpers/sampleJournalEntry";

jest.setTimeout(120_000);

const ACCOUNT = { baseUrl: "http://127.0.0.1:9", token: "topology-token" };
const NAME = sharedStateName(accountKey(ACCOUNT.baseUrl, ACCOUNT.token));
const state = (mark: number): LimiterState => ({
  classes: {},
  tickets: {},
  cap: { value: 4, ceiling: null, loweredAt: null, good: mark },
});

let journalDir: string;
let lines: { severity: string; message: string }[];
let previousSink: WarningSink;
let consoleError: jest.SpyInstance;
beforeEach(() => {
  journalDir = fs.mkdtempSync(path.join(os.tmpdir(), "adp-topology-journal-"));
  lines = [];
  previousSink = setFallbackWarningSink((message, severity = "warning") => lines.push({ severity, message }));
  consoleError = jest.spyOn(console, "error");
});
afterEach(() => {
  setFallbackWarningSink(previousSink);
  consoleError.mockRestore();
  closeRedisConnections();
  fs.rmSync(journalDir, { recursive: true, force: true });
});

/**
 * What every form must do with `url`: serve the store and the journal; then, across `failover`,
 * answer every decision (on the machine's file while the set-up is away, if it is), warn once and come back
 * once with one info line if it stepped down, writing to the primary `primary()` names afterwards.
 */
async function servesAcrossFailover(url: string, password: string, failover: () => Promise<void>, primaryOf: () => Promise<Redis>) {
  const store = sharedStoreFor(url);
  const journal = () => journalStoreFor({ journalDir, limitsUrl: url });
  const seen: (number | undefined)[] = [];
  const decide = (mark: number) => Promise.resolve(store.update(NAME, (found) => (seen.push(found?.cap.good), state(mark))));

  await decide(11);
  await decide(12);
  expect(seen).toEqual([undefined, 11]);
  await journal().put(answeredEntry({ sentAt: Date.now() }));
  expect(await journal().get(ENTRY_URN)).toMatchObject({ id: "100001" });
  expect(lines).toEqual([]);

  // Decisions go on while the primary is killed and replaced, until the process has settled: a failover within the
  // command bound is absorbed (ioredis finds the new primary; nothing is said), a longer one steps down and, once a
  // probe finds the new primary (one a second at most, while the store is used), back up, said once each way.
  const said = () => lines.map((line) => line.severity).join(",");
  let decisions = 0;
  let failedOver: { at: number; decisions: number } | undefined;
  const settled = () => said() === "warning,info" || (said() === "" && failedOver !== undefined && decisions >= failedOver.decisions + 5);
  const during = (async () => {
    while (!settled() && (failedOver === undefined || Date.now() < failedOver.at + 30_000)) {
      await decide(20);
      decisions += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  await failover();
  failedOver = { at: Date.now(), decisions };
  await during;
  expect(decisions).toBeGreaterThan(0);

  expect(["", "warning,info"]).toContain(said());
  if (lines.length > 0) {
    expect(lines[0]!.message).toContain("is not used");
    expect(lines[1]!.message).toContain("answers again");
  }
  for (const line of lines) expect(line.message).not.toContain(password);
  // ioredis's errors all had a listener: none was printed as unhandled.
  expect(consoleError.mock.calls.filter((call) => String(call[0]).includes("ioredis"))).toEqual([]);

  // Sharing goes on through the new primary.
  await decide(30);
  const primary = await primaryOf();
  try {
    expect(JSON.parse((await primary.hget(redisStateKey(NAME), "s"))!)).toMatchObject({ cap: { good: 30 } });
    await journal().put(answeredEntry({ sentAt: Date.now(), id: "100002" }));
    expect(await journal().get(ENTRY_URN)).toMatchObject({ id: "100002" });
    expect(await journal().removeIfId(ENTRY_URN, "100002")).toBe(true);
  } finally {
    primary.disconnect();
  }
}

const valkey = valkeyServerCommand();
if (valkey === undefined) throw new Error("no valkey-server: run scripts/ensure-redis --valkey (npm test's pretest does)");
const servers: [string, string][] = [
  ["Redis", redisServerCommand()],
  ["Valkey", valkey],
];

describe.each(servers)("redis+cluster:// on a %s Cluster of three primaries with a replica each", (_, command) => {
  const password = "cluster pw/1";
  let cluster: RedisCluster;
  let url: string;
  beforeAll(async () => {
    cluster = await startRedisCluster({ primaries: 3, replicasPerPrimary: 1, password, command });
    const seeds = cluster.shards.map((shard) => `127.0.0.1:${shard.primary.port}`).join(",");
    url = `redis+cluster://:${encodeURIComponent(password)}@${seeds}`;
  }, 90_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  test("runs the journal's steps whatever slots its keys fall in, and the account's state in the slot of its tag", async () => {
    const journal = journalStoreFor({ journalDir, limitsUrl: url });
    await journal.put(answeredEntry({ sentAt: Date.now() }));
    expect(await journal.get(ENTRY_URN)).toMatchObject({ id: "100001" });
    await journal.removeById("BidStrategy", "acct", "100001");
    expect(await journal.get(ENTRY_URN)).toBeUndefined();
    await journal.put(answeredEntry({ sentAt: Date.now() }));
    expect(await journal.removeIfId(ENTRY_URN, "100001")).toBe(true);
    const client = new Cluster([...cluster.nodes], { redisOptions: { password } });
    try {
      expect(await client.cluster("KEYSLOT", redisStateKey(NAME))).toBe(await client.cluster("KEYSLOT", `{${NAME}}`));
    } finally {
      client.disconnect();
    }
    expect(lines).toEqual([]);
  });

  test("serves across a failover of the primary holding the account", async () => {
    const client = new Cluster([...cluster.nodes], { redisOptions: { password } });
    const slot = Number(await client.cluster("KEYSLOT", redisStateKey(NAME)));
    client.disconnect();
    const shard = cluster.shardOf(slot);
    await servesAcrossFailover(
      url,
      password,
      async () => void (await cluster.failover(shard)),
      async () => new Redis({ ...cluster.shards[shard]!.primary, password }),
    );
  });
});

describe("redis+sentinel:// on a primary, a replica and three sentinels", () => {
  const password = "data pw";
  const sentinelPassword = "sentinel pw&x";
  let set: RedisSentinelSet;
  let url: string;
  beforeAll(async () => {
    set = await startRedisSentinel({ replicas: 1, sentinels: 3, password, sentinelPassword });
    const sentinels = set.sentinels.map((sentinel) => `127.0.0.1:${sentinel.port}`).join(",");
    url =
      `redis+sentinel://:${encodeURIComponent(password)}@${sentinels}/${set.name}` +
      `?sentinelPassword=${encodeURIComponent(sentinelPassword)}`;
  }, 90_000);
  afterAll(async () => {
    await set?.stop();
  });

  test("serves across a failover, writing to the replica the sentinels promoted", async () => {
    await servesAcrossFailover(
      url,
      sentinelPassword,
      async () => void (await set.failover()),
      async () => new Redis({ ...set.primary, password }),
    );
    expect(lines.map((line) => line.message).join("\n")).not.toContain(password);
  });
});
