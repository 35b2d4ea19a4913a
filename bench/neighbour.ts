/**
 * A neighbour on a workload's account that is no client under test: the company's own integration
 * reading at a steady pace, in the harness's process, for as long as the clients run. Its requests
 * count in the account's windows (and its 429s in the account's), and are never retried.
 */
import { SEED_IDS } from "../simulator/fixtures/seedIds";

/** Starts reading a zone every `everyMs` (scaled) on the account of `token`; `stop` waits for the last answer. */
export function startNeighbour(baseUrl: string, token: string, everyMs: number): { stop(): Promise<void> } {
  const zone = Object.values(SEED_IDS.zones)[0]!;
  const sent: Promise<unknown>[] = [];
  const read = () =>
    sent.push(
      fetch(`${baseUrl}/v2/adex/zones/${zone}`, { headers: { authorization: `Bearer ${token}` } })
        .then((response) => response.arrayBuffer())
        .catch(() => undefined),
    );
  const timer = setInterval(read, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(sent);
    },
  };
}
