/**
 * A real `redis-server` for a test file: on a free loopback port, in a throwaway directory,
 * persisting nothing, optionally with a password. No mock of Redis anywhere in the suites. The
 * binary is the one on PATH, or the copy `scripts/ensure-redis` (run before every suite) unpacked
 * into `.redis-server/` for a user who could not install one. The processes of a Cluster or a
 * Sentinel set-up (redisTopologies.ts) start here too.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { Redis } from "ioredis";
import { closeRedisConnections } from "../../provider/infrastructure/redis";

export interface RedisServer {
  readonly port: number;
  /** `redis://[:password@]127.0.0.1:<port>` */
  readonly url: string;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

/** A port nobody listens on right now (the OS hands it out, then it is closed). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts connections on `port`. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The server binary the suites start: `ADPLATFORM_REDIS_SERVER` when set (another build, or Valkey's
 * `valkey-server`, which takes the same arguments), else `redis-server` from PATH, else the one
 * `scripts/ensure-redis` unpacked into the checkout.
 */
export function redisServerCommand(): string {
  return process.env.ADPLATFORM_REDIS_SERVER || redisTool("redis-server");
}

/** `redis-cli` (forms a cluster), found where `redis-server` is: PATH, else the checkout's unpacked copy. */
export function redisCliCommand(): string {
  return redisTool("redis-cli");
}

/** `valkey-server` from PATH, else the one `scripts/ensure-redis --valkey` unpacked; undefined without either. */
export function valkeyServerCommand(): string | undefined {
  return onPath("valkey-server") ?? unpacked(join("valkey", "bin", "valkey-server"));
}

function redisTool(name: string): string {
  return onPath(name) ?? unpacked(join("bin", name)) ?? name;
}

function onPath(name: string): string | undefined {
  return (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => dir !== "")
    .map((dir) => join(dir, name))
    .find(executable);
}

/**
 * `path` inside the checkout's `.redis-server/`, if executable. The checkout holding this file is
 * found by walking up: the bench runs it compiled into `build/`.
 */
function unpacked(path: string): string | undefined {
  for (let dir = __dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    const launcher = join(dir, ".redis-server", path);
    if (existsSync(join(dir, "scripts", "ensure-redis"))) return executable(launcher) ? launcher : undefined;
  }
  return undefined;
}

/** One `redis-server` process of a test's own, in a throwaway directory. */
export interface RedisProcess {
  readonly port: number;
  /** Its working directory (cluster state, a sentinel's rewritten configuration). */
  readonly dir: string;
  /** Whether the process has ended. */
  readonly exited: boolean;
  /** Kills it without a chance to hand anything over, as a crash would; resolves once it is gone. */
  kill(): Promise<void>;
  /** Stops it (if it still runs) and removes its directory. */
  stop(): Promise<void>;
}

/**
 * Starts `redis-server` on a free loopback port with `args` after the common ones (persisting nothing);
 * `config`, when given, is written into its directory and passed first, as a sentinel requires a
 * configuration file it can rewrite; `port`, to start one again where one stopped. Resolves once it
 * accepts connections.
 */
export async function startRedisProcess(
  options: { args?: readonly string[]; config?: (port: number) => string; command?: string; port?: number } = {},
): Promise<RedisProcess> {
  const dir = mkdtempSync(join(tmpdir(), "adplatform-redis-"));
  const port = options.port ?? (await freePort());
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no", ...(options.args ?? [])];
  if (options.config) {
    const file = join(dir, "redis.conf");
    writeFileSync(file, options.config(port), { mode: 0o600, flag: "wx" });
    args.unshift(file);
  }
  const child: ChildProcess = spawn(options.command ?? redisServerCommand(), args, { stdio: ["ignore", "ignore", "pipe"] });
  let exited = false;
  let failure = "";
  child.stderr?.on("data", (chunk: Buffer) => (failure += chunk.toString()));
  const exit = new Promise<void>((resolve) =>
    child.once("exit", () => {
      exited = true;
      resolve();
    }),
  );
  child.once("error", (error) => (failure += String(error)));
  while (!(await accepts(port))) {
    if (exited || failure.includes("ENOENT")) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`redis-server did not start (run scripts/ensure-redis, which says what to install): ${failure}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const end = async (signal: NodeJS.Signals) => {
    if (!exited) {
      child.kill(signal);
      await exit;
    }
  };
  return {
    port,
    dir,
    get exited() {
      return exited;
    },
    kill: () => end("SIGKILL"),
    async stop() {
      await end("SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts `redis-server` (on `port` when given); resolves once it accepts connections. */
export async function startRedisServer(options: { password?: string; command?: string; port?: number } = {}): Promise<RedisServer> {
  const args = options.password !== undefined ? ["--requirepass", options.password] : [];
  const server = await startRedisProcess({ args, command: options.command, port: options.port });
  const auth = options.password !== undefined ? `:${encodeURIComponent(options.password)}@` : "";
  return { port: server.port, url: `redis://${auth}127.0.0.1:${server.port}`, stop: () => server.stop() };
}

/** A Redis server for the tests of a file or a describe block, and a connection of the test's own. */
export interface RedisFixture {
  readonly server: RedisServer;
  /** A connection apart from the code under test, to plant and inspect keys. */
  readonly raw: Redis;
}

/**
 * Starts a server before the block's tests and stops it after them, closing the connections the
 * code under test opened to it first; read `server` and `raw` inside tests only.
 */
export function useRedisServer(): RedisFixture {
  let server: RedisServer | undefined;
  let raw: Redis | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
    raw = new Redis(server.url);
  });
  afterAll(async () => {
    closeRedisConnections();
    raw?.disconnect();
    await server?.stop();
  });
  return {
    get server() {
      if (!server) throw new Error("useRedisServer: the server starts in beforeAll; read it inside a test");
      return server;
    },
    get raw() {
      if (!raw) throw new Error("useRedisServer: the connection opens in beforeAll; read it inside a test");
      return raw;
    },
  };
}
