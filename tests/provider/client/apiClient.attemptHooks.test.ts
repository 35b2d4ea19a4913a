/**
 * `CallRequest.beforeSend` and `afterAttempt` (`provider/client/apiClient.ts`), the hooks the create
 * journal relies on: `beforeSend` runs once per attempt, after the limiter admitted it and before
 * anything is sent (a hook that throws sends nothing and gives the admitted slot back);
 * `afterAttempt` once the attempt is over, before any wait to retry.
 */
import { closeApiClients, getApiClient } from "../../../provider/client";
import { type ScriptedServer, json, startScriptedServer } from "../../helpers/scriptedServer";

const STRATEGY = { name: "s", pricing_model: "cpc", strategy: "exact", value: 1, max_value: 2 };

let server: ScriptedServer | undefined;
afterEach(async () => {
  await closeApiClients();
  await server?.close();
  server = undefined;
});

it("runs before each attempt, with the attempt's number, after nothing of it reached the server", async () => {
  const seenByServer: number[] = [];
  server = await startScriptedServer((_req, res, index) =>
    index === 0 ? json(res, 429, { message: "slow down" }, { "retry-after": "0" }) : json(res, 201, { id: 7 }),
  );
  const client = getApiClient({ baseUrl: server.url, token: "demo-token", retryOptions: { baseDelayMs: 1, maxDelayMs: 5 } });
  const calls: string[] = [];
  const answer = await client.call("createBidStrategy", {
    body: STRATEGY,
    beforeSend: (attempt) => {
      calls.push(`before ${attempt}`);
      seenByServer.push(server!.requests.length);
    },
    afterAttempt: (attempt) => calls.push(`after ${attempt}`),
  });
  expect(answer.body).toEqual({ id: "7" });
  expect(calls).toEqual(["before 1", "after 1", "before 2", "after 2"]);
  // Each time the hook ran, the server had seen only the attempts before it.
  expect(seenByServer).toEqual([0, 1]);
});

it("sends nothing when the hook throws, rejects with its error, and frees the admitted slot", async () => {
  server = await startScriptedServer((_req, res) => json(res, 201, { id: 7 }));
  const client = getApiClient({ baseUrl: server.url, token: "demo-token" });
  const refusal = new Error("cannot write the journal");
  await expect(
    client.call("createBidStrategy", {
      body: STRATEGY,
      beforeSend: () => {
        throw refusal;
      },
    }),
  ).rejects.toBe(refusal);
  expect(server.requests).toHaveLength(0);
  expect(client.limiter.snapshot().inFlight).toBe(0);
  // The next call of the account goes out normally.
  await expect(client.call("createBidStrategy", { body: STRATEGY })).resolves.toMatchObject({ status: 201 });
});
