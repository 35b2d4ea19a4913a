/**
 * The plugin process ends by itself when the engine that started it is gone
 * (`provider/faces/dynamic/engineWatch.ts`): through the real plugin, started as the child of a
 * parent process that stands for the CLI, which the test ends as a `kill -9` of the CLI would.
 * Creates in flight are answered and journaled first; creates still waiting in the rate limiter
 * are never sent.
 */
import { CreateJournal } from "../../../../provider/resources/journal/store";
import { RECOGNISABLE_TOKEN, secretValue, startLifecycleEnv, type LifecycleEnv } from "../../../helpers/lifecycleEnv";
import { processAlive } from "../../../../provider/infrastructure/processAlive";

jest.setTimeout(120_000);

const OP_CREATE_STRATEGY = 3;
const journal = new CreateJournal(process.env.ADPLATFORM_JOURNAL_DIR!);
let env: LifecycleEnv;

beforeAll(async () => {
  env = await startLifecycleEnv();
});
afterAll(async () => {
  await env.close();
});

/**
 * Polls until `ready` holds. No duration is asserted: the limit only ends a test that went wrong
 * instead of leaving the loop running after jest's timeout.
 */
async function until(ready: () => boolean, what = "the condition"): Promise<void> {
  const giveUpAt = Date.now() + 100_000;
  while (!ready()) {
    if (Date.now() > giveUpAt) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Requests the simulator holds at its gate (`hold`). */
const held = () => (env.sim.setFaults({}) as { waiting?: number }).waiting ?? 0;

it("answers and journals its creates in flight, sends none of the waiting ones, then exits", async () => {
  const plugin = await env.startPlugin(undefined, { throughParent: true });
  await plugin.configure({ "adplatform:baseUrl": env.sim.url, "adplatform:token": secretValue(RECOGNISABLE_TOKEN) });
  env.sim.setFaults({ hold: true });
  // Five creates: the client's in-flight cap (4 at first) sends four; the fifth waits in the limiter.
  const urns = [1, 2, 3, 4, 5].map((n) => `urn:pulumi:dev::watch::pulumi-nodejs:dynamic/adplatform:BidStrategy::s${n}`);
  const creates = urns.map(async (urn, n) => {
    const news = env.inputs("BidStrategy", { name: `S${n}`, strategy: "exact", value: 1, maxValue: 2, __adplatformUrn: urn });
    const { inputs } = await plugin.check(urn, {}, news);
    return plugin.create(urn, inputs).catch((error: unknown) => error);
  });
  await until(() => journal.entries().filter(([, e]) => e.state === "sent").length === 4 && held() === 4, "four POSTs held");
  const pluginPid = journal.entries()[0][1].pid;

  // The "CLI" dies; the plugin's requests are still held by the platform.
  await plugin.close();
  await until(() => plugin.stderr().includes("the engine is gone"));
  expect(processAlive(pluginPid)).toBe(true);
  env.sim.setFaults({ hold: false });
  await until(() => !processAlive(pluginPid));

  const entries = journal.entries().map(([, e]) => e);
  expect(entries).toHaveLength(4);
  expect(entries.every((e) => e.state === "answered" && /^\d+$/.test(e.id ?? ""))).toBe(true);
  expect(env.calls(OP_CREATE_STRATEGY)).toHaveLength(4);
  const created = env.sim.state().bidStrategies.filter((s) => /^S\d$/.test(String(s.name)));
  expect(new Set(entries.map((e) => e.id))).toEqual(new Set(created.map((s) => String(s.id))));
  await Promise.all(creates);
});
