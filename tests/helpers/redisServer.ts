/**
 * A real `redis-server` for a test file (Debian's `redis-server` package; `.ci/run` installs it
 * when missing): on a free loopback port, in a throwaway directory, persisting nothing, optionally
 * with a password. No mock of Redis anywhere in the suites.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

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

/** Starts `redis-server`; resolves once it accepts connections. */
export async function startRedisServer(options: { password?: string } = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), "adplatform-redis-"));
  const port = await freePort();
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"];
  if (options.password !== undefined) args.push("--requirepass", options.password);
  const child: ChildProcess = spawn("redis-server", args, { stdio: ["ignore", "ignore", "pipe"] });
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
      throw new Error(`redis-server did not start (install Debian's redis-server package): ${failure}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const auth = options.password !== undefined ? `:${encodeURIComponent(options.password)}@` : "";
  return {
    port,
    url: `redis://${auth}127.0.0.1:${port}`,
    async stop() {
      if (!exited) {
        child.kill("SIGTERM");
        await exit;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
