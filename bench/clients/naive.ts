/** Peer (i): fires every request at once; retries 429s after `Retry-After`. */
import { scaleOf } from "../scale";
import { runPeer } from "./peerCall";
import type { PreparedClient, WorkerConfig } from "./types";

/** No pacing at all: every attempt goes out as soon as it is made. */
export function prepareNaive(config: WorkerConfig): PreparedClient {
  const scale = scaleOf(config.scaleFactor);
  return { run: () => runPeer(config.baseUrl, config.token, config.requests, scale, (_cost, attempt) => attempt()) };
}
