/**
 * One benchmark process: sets up one client, says `ready`, runs every request at once on `go`,
 * reports `done` with its failures and peak memory, and exits. A child of `run.ts`, as the Pulumi
 * program process and the provider plugin process are children of the engine.
 */
import { prepareBottleneck } from "./clients/bottleneck";
import { prepareNaive } from "./clients/naive";
import { prepareOurs } from "./clients/ours";
import type { PreparedClient, WorkerConfig } from "./clients/types";

/** Messages between the harness and a worker. */
export type WorkerMessage =
  | { readonly type: "ready" }
  | { readonly type: "go" }
  | { readonly type: "done"; readonly failures: number; readonly maxRssKb: number; readonly error?: string };

function prepare(config: WorkerConfig): PreparedClient {
  switch (config.client) {
    case "ours":
      return prepareOurs(config);
    case "naive":
      return prepareNaive(config);
    case "bottleneck":
      return prepareBottleneck(config);
  }
}

function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve) => process.send!(message, () => resolve()));
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? "{}") as WorkerConfig;
  const client = prepare(config);
  process.once("message", (message: WorkerMessage) => {
    if (message.type !== "go") return;
    client
      .run()
      .then(
        ({ failures }) => send({ type: "done", failures, maxRssKb: process.resourceUsage().maxRSS }),
        (error: unknown) =>
          send({ type: "done", failures: config.requests.length, maxRssKb: process.resourceUsage().maxRSS, error: String(error) }),
      )
      .finally(() => process.exit(0));
  });
  await send({ type: "ready" });
}

void main();
