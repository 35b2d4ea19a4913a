/**
 * The Redis set-ups teams run beyond one server, made of real processes on loopback (redisServer.ts
 * starts each): a Redis Cluster of primaries with replicas, and a primary with replicas watched by
 * Sentinels. Each can lose a primary on demand and resolves once the set-up serves again, so a suite
 * can fail over in the middle of a run. Timings are short on purpose (a node counts as down after
 * about a second), and every wait has a deadline that names what never happened.
 */
import { execFile } from "node:child_process";
import { Redis } from "ioredis";
import { type RedisProcess, redisCliCommand, startRedisProcess } from "./redisServer";

/** A node's loopback address, as ioredis takes it. */
export interface NodeAddress {
  readonly host: "127.0.0.1";
  readonly port: number;
}

/** A primary of a cluster with the replicas that follow it. */
export interface ClusterShard {
  readonly primary: NodeAddress;
  readonly replicas: readonly NodeAddress[];
  /** The hash slots it serves, as inclusive [first, last] ranges. */
  readonly slots: readonly (readonly [number, number])[];
}

export interface RedisCluster {
  /** Every node that runs, primaries first: the seed list for ioredis `Cluster`. */
  readonly nodes: readonly NodeAddress[];
  /** The shards in the order of their slots (shard 0 serves slot 0). */
  readonly shards: readonly ClusterShard[];
  /** The shard serving `slot`. */
  shardOf(slot: number): number;
  /**
   * Kills shard `index`'s primary; resolves with the replica that took its place once every
   * running node reports `cluster_state:ok` and sees it as the primary.
   */
  failover(index: number): Promise<NodeAddress>;
  /** Kills every process and removes their directories. */
  stop(): Promise<void>;
}

export interface RedisSentinelSet {
  /** The name the sentinels monitor the primary under. */
  readonly name: string;
  /** The sentinels, as ioredis takes them (`sentinels: [...]`). */
  readonly sentinels: readonly NodeAddress[];
  /** The current primary. */
  readonly primary: NodeAddress;
  readonly replicas: readonly NodeAddress[];
  /**
   * Kills the primary; resolves with the replica the sentinels promoted once every sentinel names
   * it and it serves as a primary.
   */
  failover(): Promise<NodeAddress>;
  /** Kills every process and removes their directories. */
  stop(): Promise<void>;
}

/** How long a node may be unreachable before the cluster or the sentinels count it as down. */
const NODE_TIMEOUT_MS = 1_000;
/** The bound on forming a set-up or on a failover; a loaded 2-core machine needs a few seconds. */
const SETTLE_MS = 45_000;

const address = (port: number): NodeAddress => ({ host: "127.0.0.1", port });

/**
 * Arguments of every data node: a replica's first sync starts at once (the default waits 5 s for
 * more replicas), as a replica that never synced may not take over in a cluster.
 */
const dataNodeArgs = (password: string | undefined) => [
  "--repl-diskless-sync-delay",
  "0",
  ...(password !== undefined ? ["--requirepass", password, "--masterauth", password] : []),
];

/** Resolves `true` once every replica's link to its primary is up, else names one that is not. */
async function replicasInSync(ports: readonly number[], password: string | undefined): Promise<true | string> {
  for (const port of ports) {
    const link = fields(await ask(port, password, "INFO", "replication")).get("master_link_status");
    if (link !== "up") return `replica ${port}: master_link_status:${link}`;
  }
  return true;
}

/**
 * Polls `look` until it returns `true`; otherwise it returns what it saw, which the error quotes
 * when `ms` have passed.
 */
async function waitUntil(what: string, look: () => Promise<true | string>, ms = SETTLE_MS): Promise<void> {
  const deadline = Date.now() + ms;
  let seen: string;
  for (;;) {
    try {
      const result = await look();
      if (result === true) return;
      seen = result;
    } catch (error) {
      seen = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms (last seen: ${seen})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sends one command to the node on `port` over a connection of its own that gives up at once. */
async function ask(port: number, password: string | undefined, ...command: [string, ...(string | number)[]]): Promise<unknown> {
  const connection = new Redis({
    host: "127.0.0.1",
    port,
    password,
    lazyConnect: true,
    connectTimeout: 2_000,
    commandTimeout: 2_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  connection.on("error", () => undefined);
  try {
    await connection.connect();
    return await connection.call(...command);
  } finally {
    connection.disconnect();
  }
}

/** The `field:value` lines of an INFO-style reply. */
function fields(reply: unknown): Map<string, string> {
  const lines = String(reply).split("\r\n");
  return new Map(
    lines.filter((line) => line.includes(":")).map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1)]),
  );
}

/** A value as a configuration file reads it back whole (Redis parses double quotes as C strings do). */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

async function stopAll(processes: readonly RedisProcess[]): Promise<void> {
  await Promise.all(processes.map((process) => process.stop()));
}

/** One line of CLUSTER NODES. */
interface ClusterNode {
  readonly id: string;
  readonly port: number;
  readonly primary: boolean;
  readonly primaryId: string;
  readonly slots: [number, number][];
}

function clusterNodes(reply: unknown): ClusterNode[] {
  return String(reply)
    .trim()
    .split("\n")
    .map((line) => {
      const [id, addr, flags, primaryId, , , , , ...slots] = line.trim().split(" ");
      return {
        id: id!,
        port: Number(addr!.split("@")[0]!.split(":")[1]),
        primary: flags!.split(",").includes("master"),
        primaryId: primaryId!,
        slots: slots
          .filter((range) => !range.startsWith("["))
          .map((range) => {
            const [first, last] = range.split("-");
            return [Number(first), Number(last ?? first)] as [number, number];
          }),
      };
    });
}

/**
 * Starts `primaries * (1 + replicasPerPrimary)` nodes with `--cluster-enabled yes` and forms them
 * into one cluster with `redis-cli --cluster create`; resolves once every node reports
 * `cluster_state:ok`. `password` guards every node (and lets replicas authenticate to primaries).
 */
export async function startRedisCluster(
  options: { primaries?: number; replicasPerPrimary?: number; password?: string; command?: string } = {},
): Promise<RedisCluster> {
  const { primaries = 3, replicasPerPrimary = 1, password, command } = options;
  if (primaries < 3) throw new Error(`startRedisCluster: redis-cli forms a cluster of 3 primaries or more, not ${primaries}`);
  const args = ["--cluster-enabled", "yes", "--cluster-node-timeout", String(NODE_TIMEOUT_MS), ...dataNodeArgs(password)];
  const processes: RedisProcess[] = [];
  try {
    const count = primaries * (1 + replicasPerPrimary);
    // One after another: on a loaded machine a burst of starts only makes each slower.
    for (let i = 0; i < count; i += 1) processes.push(await startRedisProcess({ args, command }));
    await formCluster(processes, replicasPerPrimary, password);
    const shards = await readShards(processes, primaries, replicasPerPrimary, password);
    return clusterHandle(processes, shards, password);
  } catch (error) {
    await stopAll(processes);
    throw error;
  }
}

function formCluster(processes: readonly RedisProcess[], replicasPerPrimary: number, password: string | undefined): Promise<void> {
  const nodes = processes.map((process) => `127.0.0.1:${process.port}`);
  const args = ["--cluster", "create", ...nodes, "--cluster-replicas", String(replicasPerPrimary), "--cluster-yes"];
  // The password goes through the environment, never the command line another user could read.
  const env = password !== undefined ? { ...process.env, REDISCLI_AUTH: password } : process.env;
  return new Promise((resolve, reject) =>
    execFile(redisCliCommand(), args, { env, timeout: SETTLE_MS }, (error, stdout, stderr) => {
      if (error) reject(new Error(`redis-cli --cluster create failed (${error.message}): ${stderr || stdout}`.trim()));
      else resolve();
    }),
  );
}

/**
 * Waits until every node reports `cluster_state:ok` and sees `primaries` primaries serving slots,
 * each with `replicasPerPrimary` replicas (redis-cli returns before the gossip has reached every
 * node); returns the shards in slot order.
 */
async function readShards(
  processes: readonly RedisProcess[],
  primaries: number,
  replicasPerPrimary: number,
  password: string | undefined,
): Promise<ClusterShard[]> {
  let shards: ClusterShard[] = [];
  await waitUntil(`${primaries} primaries with ${replicasPerPrimary} replica(s) each and cluster_state:ok on every node`, async () => {
    for (const node of processes) {
      const state = fields(await ask(node.port, password, "CLUSTER", "INFO")).get("cluster_state");
      if (state !== "ok") return `node ${node.port}: cluster_state:${state}`;
      const nodes = clusterNodes(await ask(node.port, password, "CLUSTER", "NODES"));
      shards = nodes
        .filter((entry) => entry.primary && entry.slots.length > 0)
        .map((primary) => ({
          primary: address(primary.port),
          replicas: nodes.filter((entry) => entry.primaryId === primary.id).map((entry) => address(entry.port)),
          slots: primary.slots,
        }))
        .sort((a, b) => a.slots[0]![0] - b.slots[0]![0]);
      const shape = shards.map((shard) => shard.replicas.length);
      if (shape.length !== primaries || shape.some((count) => count !== replicasPerPrimary)) {
        return `node ${node.port} sees primaries with ${shape.join(", ") || "no"} replicas`;
      }
    }
    return true;
  });
  const replicaPorts = shards.flatMap((shard) => shard.replicas.map((replica) => replica.port));
  await waitUntil("the cluster's replicas to sync with their primaries", () => replicasInSync(replicaPorts, password));
  return shards;
}

function clusterHandle(processes: RedisProcess[], initial: ClusterShard[], password: string | undefined): RedisCluster {
  let shards = initial;
  const running = () => processes.filter((process) => !process.exited);
  const allOk = async (): Promise<true | string> => {
    for (const node of running()) {
      const state = fields(await ask(node.port, password, "CLUSTER", "INFO")).get("cluster_state");
      if (state !== "ok") return `node ${node.port}: cluster_state:${state}`;
    }
    return true;
  };
  return {
    get nodes() {
      const primaryPorts = new Set(shards.map((shard) => shard.primary.port));
      const ports = running().map((process) => process.port);
      return [...ports.filter((port) => primaryPorts.has(port)), ...ports.filter((port) => !primaryPorts.has(port))].map(address);
    },
    get shards() {
      return shards;
    },
    shardOf(slot) {
      const index = shards.findIndex((shard) => shard.slots.some(([first, last]) => first <= slot && slot <= last));
      if (index < 0) throw new Error(`no shard serves slot ${slot}`);
      return index;
    },
    async failover(index) {
      const shard = shards[index];
      if (!shard) throw new Error(`failover: no shard ${index} (there are ${shards.length})`);
      if (shard.replicas.length === 0) throw new Error(`failover: shard ${index} has no replica left to take over`);
      const victim = processes.find((process) => process.port === shard.primary.port)!;
      await victim.kill();
      let promoted: NodeAddress | undefined;
      await waitUntil(`a replica of shard ${index} (port ${shard.primary.port} killed) taking over`, async () => {
        for (const replica of shard.replicas) {
          const role = await ask(replica.port, password, "ROLE").catch(() => undefined);
          if (Array.isArray(role) && role[0] === "master") {
            promoted = replica;
            return true;
          }
        }
        return "every replica still a replica";
      });
      await waitUntil("cluster_state:ok on every running node after the failover", allOk);
      const others = running().filter((process) => process.port !== promoted!.port);
      await waitUntil(`every node seeing port ${promoted!.port} as a primary`, async () => {
        for (const node of others) {
          const seen = clusterNodes(await ask(node.port, password, "CLUSTER", "NODES")).find((entry) => entry.port === promoted!.port);
          if (!seen?.primary) return `node ${node.port} does not yet`;
        }
        return true;
      });
      shards = shards.map((entry, i) =>
        i === index
          ? { primary: promoted!, replicas: shard.replicas.filter((replica) => replica.port !== promoted!.port), slots: shard.slots }
          : entry,
      );
      return promoted!;
    },
    stop: () => stopAll(processes),
  };
}

/**
 * Starts a primary, `replicas` replicas following it, and `sentinels` Sentinels (the same binary
 * with `--sentinel`) monitoring it under `name` with a quorum of 2; resolves once every sentinel
 * knows the replicas and the other sentinels. `password` guards the data nodes (the sentinels reach
 * them with `sentinel auth-pass`); `sentinelPassword` guards the sentinels themselves, apart.
 */
export async function startRedisSentinel(
  options: { replicas?: number; sentinels?: number; password?: string; sentinelPassword?: string; name?: string; command?: string } = {},
): Promise<RedisSentinelSet> {
  const { replicas: replicaCount = 1, sentinels: sentinelCount = 3, password, sentinelPassword, name = "adplatform", command } = options;
  if (sentinelCount < 2) throw new Error(`startRedisSentinel: a quorum of 2 needs 2 sentinels or more, not ${sentinelCount}`);
  const auth = dataNodeArgs(password);
  const processes: RedisProcess[] = [];
  try {
    const primary = await startRedisProcess({ args: auth, command });
    processes.push(primary);
    const replicas: RedisProcess[] = [];
    for (let i = 0; i < replicaCount; i += 1) {
      replicas.push(await startRedisProcess({ args: [...auth, "--replicaof", "127.0.0.1", String(primary.port)], command }));
      processes.push(replicas.at(-1)!);
    }
    await waitUntil("the replicas to sync with the primary", () =>
      replicasInSync(
        replicas.map((replica) => replica.port),
        password,
      ),
    );
    // Directives a sentinel keeps in the file it rewrites; the quorum of 2 lets one sentinel be
    // wrong or gone. A failover that stalls is retried after twice the failover timeout.
    const config = () =>
      [
        `sentinel monitor ${name} 127.0.0.1 ${primary.port} 2`,
        `sentinel down-after-milliseconds ${name} ${NODE_TIMEOUT_MS}`,
        `sentinel failover-timeout ${name} 3000`,
        `sentinel parallel-syncs ${name} 1`,
        ...(password !== undefined ? [`sentinel auth-pass ${name} ${quoted(password)}`] : []),
        ...(sentinelPassword !== undefined ? [`requirepass ${quoted(sentinelPassword)}`] : []),
        "",
      ].join("\n");
    const sentinels: RedisProcess[] = [];
    for (let i = 0; i < sentinelCount; i += 1) {
      sentinels.push(await startRedisProcess({ config, args: ["--sentinel"], command }));
      processes.push(sentinels.at(-1)!);
    }
    await waitUntil("every sentinel to know the replicas and the other sentinels", async () => {
      for (const sentinel of sentinels) {
        const master = await ask(sentinel.port, sentinelPassword, "SENTINEL", "MASTER", name);
        const reply = Array.isArray(master) ? (master as string[]) : [];
        const field = (key: string) => reply[reply.indexOf(key) + 1];
        if (Number(field("num-slaves")) < replicaCount || Number(field("num-other-sentinels")) < sentinelCount - 1) {
          return `sentinel ${sentinel.port}: ${field("num-slaves")} replicas, ${field("num-other-sentinels")} other sentinels`;
        }
      }
      return true;
    });
    return sentinelHandle(processes, primary, replicas, sentinels, name, password, sentinelPassword);
  } catch (error) {
    await stopAll(processes);
    throw error;
  }
}

function sentinelHandle(
  processes: readonly RedisProcess[],
  firstPrimary: RedisProcess,
  firstReplicas: readonly RedisProcess[],
  sentinels: readonly RedisProcess[],
  name: string,
  password: string | undefined,
  sentinelPassword: string | undefined,
): RedisSentinelSet {
  let primary = firstPrimary;
  let replicas = firstReplicas;
  return {
    name,
    sentinels: sentinels.map((sentinel) => address(sentinel.port)),
    get primary() {
      return address(primary.port);
    },
    get replicas() {
      return replicas.map((replica) => address(replica.port));
    },
    async failover() {
      if (replicas.length === 0) throw new Error("failover: no replica left to promote");
      const killed = primary;
      await killed.kill();
      let promoted: RedisProcess | undefined;
      await waitUntil(`the sentinels promoting a replica (primary on port ${killed.port} killed)`, async () => {
        const named = new Set<number>();
        for (const sentinel of sentinels.filter((process) => !process.exited)) {
          const reply = await ask(sentinel.port, sentinelPassword, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", name);
          named.add(Number(Array.isArray(reply) ? reply[1] : NaN));
        }
        const [port] = named;
        promoted = replicas.find((replica) => replica.port === port);
        if (named.size !== 1 || !promoted) return `sentinels name ports ${[...named].join(", ")}`;
        const role = await ask(promoted.port, password, "ROLE");
        return (
          (Array.isArray(role) && role[0] === "master") || `port ${port} named but still a ${Array.isArray(role) ? String(role[0]) : "?"}`
        );
      });
      primary = promoted!;
      replicas = replicas.filter((replica) => replica !== promoted);
      return address(primary.port);
    },
    stop: () => stopAll(processes),
  };
}
