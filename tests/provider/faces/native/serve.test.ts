/**
 * The served native plugin takes every setting of a `Configure` request, the same ones the dynamic
 * face takes: here `adplatform:journalDir`, which decides where a create is journaled
 * (provider/resources/journal). Driven over gRPC as the engine drives it, with the
 * environment's `ADPLATFORM_JOURNAL_DIR` pointing elsewhere, so only the configured directory can
 * hold the entry.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { CreateJournal } from "../../../../provider/resources/journal/store";
import { startSimulator, type RunningSimulator } from "../../../../simulator";
import { cleanEnv, startFakeEngine, type FakeEngine } from "../../../helpers/dynamicProviderHarness";
import { secretValue } from "../../../helpers/lifecycleEnv";
import { nativeUrn, startNativePlugin, type NativePlugin } from "../../../helpers/nativePluginHarness";

jest.setTimeout(60_000);

let sim: RunningSimulator;
let engine: FakeEngine;
let root: string;
const plugins: NativePlugin[] = [];

beforeAll(async () => {
  sim = await startSimulator({ accounts: [{ account: "demo", token: "demo-token", companyId: "7001" }] });
  engine = await startFakeEngine();
});

beforeEach(() => {
  root = fs.mkdtempSync(path.join(process.env.ADPLATFORM_JOURNAL_DIR!, "serve-"));
});

afterAll(async () => {
  for (const plugin of plugins) await plugin.close();
  await engine?.close();
  await sim?.close();
});

const declared = { name: "Journaled", color: "#22aa44", items: ["5101"] };

/** A plugin whose environment names `fromEnv` as the journal directory. */
async function pluginWithEnvJournal(fromEnv: string): Promise<NativePlugin> {
  const plugin = await startNativePlugin(engine.address, cleanEnv({ ADPLATFORM_JOURNAL_DIR: fromEnv }));
  plugins.push(plugin);
  return plugin;
}

async function create(plugin: NativePlugin, urn: string) {
  const { inputs, failures } = await plugin.check(urn, {}, declared);
  expect(failures).toEqual([]);
  return plugin.create(urn, inputs);
}

it("journals in the stack config's adplatform:journalDir, ahead of ADPLATFORM_JOURNAL_DIR", async () => {
  const fromEnv = path.join(root, "from-env");
  const fromConfig = path.join(root, "from-config");
  const plugin = await pluginWithEnvJournal(fromEnv);
  await plugin.configure({}, { "adplatform:baseUrl": sim.url, "adplatform:token": "demo-token", "adplatform:journalDir": fromConfig });
  const urn = nativeUrn("CampaignGroup", "by-config");
  const created = await create(plugin, urn);
  expect(new CreateJournal(fromConfig).get(urn)).toMatchObject({ state: "answered", id: created.id });
  expect(fs.existsSync(fromEnv) ? new CreateJournal(fromEnv).entries() : []).toEqual([]);
});

it("journals in an explicit provider's journalDir argument", async () => {
  const fromEnv = path.join(root, "from-env");
  const fromArgs = path.join(root, "from-args");
  const plugin = await pluginWithEnvJournal(fromEnv);
  await plugin.configure({ baseUrl: sim.url, token: secretValue("demo-token"), journalDir: fromArgs });
  const urn = nativeUrn("CampaignGroup", "by-argument");
  const created = await create(plugin, urn);
  expect(new CreateJournal(fromArgs).get(urn)).toMatchObject({ state: "answered", id: created.id });
  expect(fs.existsSync(fromEnv) ? new CreateJournal(fromEnv).entries() : []).toEqual([]);
});
