/**
 * The simulator as a separate process (`node bin/simulator/cli.js --port 0`), as a user would start
 * it: the demo talks to it only over HTTP, like the Pulumi CLI's plugin does.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import { REPO_ROOT } from "./paths";

/** A simulator child process that is listening. */
export interface SimulatorProcess {
  /** Base URL from its `listening on <url>` line. */
  readonly url: string;
  /** Stops it (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts the built simulator CLI on a free port and waits for its `listening on` line. */
export function startSimulatorProcess(): Promise<SimulatorProcess> {
  const cli = path.join(REPO_ROOT, "bin", "simulator", "cli.js");
  const child: ChildProcess = spawn(process.execPath, [cli, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    let buffered = "";
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString("utf8");
      const match = /^listening on (\S+)$/m.exec(buffered);
      if (match === null) return;
      child.stdout?.off("data", onData);
      child.stdout?.resume(); // keep draining: a full pipe would block the child
      resolve({
        url: match[1],
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
          await exited;
        },
      });
    };
    child.stdout?.on("data", onData);
    child.once("error", reject);
    child.once("exit", (code, signal) => reject(new Error(`simulator exited before listening (code ${code}, signal ${signal})`)));
  });
}
