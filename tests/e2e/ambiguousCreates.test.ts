/**
 * An ambiguous create is sent once, whoever retries (provider/resources/journal/ambiguousRecords.ts),
 * through the commands a user types, on both faces. The program gives every resource an `onError`
 * hook that always asks the engine to retry (the retry policy teams write), and the platform applies
 * the strategy's create but the answer is lost on the way back (`dropAfter`), while the group's
 * connection drops before the platform applies it (`dropBefore`: nothing is made, but no client can
 * know). Every run goes through one Redis, each from a journal directory of its own, as CI runners on
 * different machines would. Counted on the platform (the simulator's stored objects and POSTs), not
 * in log lines:
 * - `up` with the hook: one strategy is made, one POST each, and `up` fails with the record's message;
 * - the job run again (another machine): no POST;
 * - preview names each record and how it is resolved; `adoptId` for the strategy (nothing sent) and
 *   `adplatform:createAgain` for the group (exactly one POST); then a preview with no changes.
 * A Python program on the native face, whose `ErrorHook` always retries, gets the same.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { requireLanguageHost, type CliResult, type CliSession } from "../../scripts/driver/cliSession";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { RedisCreateJournal, ambiguousRecordId } from "../../provider/resources/journal/store";
import { closeRedisConnections } from "../../provider/infrastructure/redis";
import { type RedisServer, startRedisServer } from "../helpers/redisServer";
import { E2E_TIMEOUT_MS, callsOf, initDemoStack, openNativePythonProgram, openTypeScriptStack, type TypeScriptStack } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS * 2);

const OP_CREATE_GROUP = 2;
const OP_CREATE_STRATEGY = 3;

/** Each face's program; `adopt` (config) names the strategy to adopt. */
const PROGRAMS = {
  dynamic: `import * as pulumi from "@pulumi/pulumi";
import * as adp from "pulumi-adplatform";

const config = new pulumi.Config();
const retryAlways = new pulumi.ErrorHook("retry-always", async () => true);
const hooks = { hooks: { onError: [retryAlways] } };
new adp.BidStrategy("nightly", { name: "Nightly", strategy: "exact", value: 0.4, maxValue: 1, adoptId: config.get("adopt") }, hooks);
new adp.CampaignGroup("launch", { name: "Launch", color: "#2255aa", items: ["5101"] }, hooks);
new adp.BidModifier("steady", { bidModifierId: "501", value: "1.30" });
`,
  native: `import * as pulumi from "@pulumi/pulumi";
import * as adplatform from "pulumi-adplatform-native";

const config = new pulumi.Config();
const retryAlways = new pulumi.ErrorHook("retry-always", async () => true);
const hooks = { hooks: { onError: [retryAlways] } };
new adplatform.BidStrategy("nightly", { name: "Nightly", strategy: "exact", value: 0.4, maxValue: 1, adoptId: config.get("adopt") }, hooks);
new adplatform.CampaignGroup("launch", { name: "Launch", color: "#2255aa", items: ["5101"] }, hooks);
new adplatform.BidModifier("steady", { bidModifierId: "501", value: "1.30" });
`,
} as const;

let redis: RedisServer;
beforeAll(async () => {
  requireLanguageHost();
  redis = await startRedisServer({ password: "pw-ambiguous" });
});
afterAll(async () => {
  closeRedisConnections();
  await redis.stop();
});

describe.each(["dynamic", "native"] as const)("the %s face", (face) => {
  let sim: RunningSimulator;
  let stack: TypeScriptStack;
  const machines: string[] = [];

  /** `pulumi <args>` on machine `n` (0 or 1): its own journal directory, the one shared Redis. */
  const onMachine = (n: number, args: string[]): Promise<CliResult> =>
    stack.cli.pulumi(args, { env: { ADPLATFORM_JOURNAL_DIR: machines[n], ADPLATFORM_LIMITS_URL: redis.url } });
  const named = (name: string) => ({
    strategies: sim.state("demo").bidStrategies.filter((s) => s.name === name).length,
    groups: sim.state("demo").campaignGroups.filter((g) => g.name === name).length,
  });
  const posts = () => ({ groups: callsOf(sim, OP_CREATE_GROUP).length, strategies: callsOf(sim, OP_CREATE_STRATEGY).length });
  const output = (result: CliResult) => `${result.stdout}\n${result.stderr}`;
  const recordIds = (text: string) => [...new Set(text.match(/amb-[0-9a-f]{12}/g) ?? [])];

  beforeAll(async () => {
    sim = await startSimulator();
    for (let n = 0; n < 2; n++) machines.push(fs.mkdtempSync(path.join(os.tmpdir(), `adp-ambiguous-${face}-${n}-`)));
    stack = await openTypeScriptStack(
      sim.url,
      { name: `adplatform-ambiguous-${face}`, description: "Ambiguous creates under retry hooks", index: PROGRAMS[face] },
      { face, secrets: ["pw-ambiguous"] },
    );
  });
  afterAll(async () => {
    stack?.close();
    await sim?.close();
    for (const dir of machines) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("sends each ambiguous create once, whatever retries it, and lets one deliberate act per resource resolve it", async () => {
    sim.setFaults({
      rules: [
        { kind: "dropAfter", op: OP_CREATE_STRATEGY, count: 1 },
        { kind: "dropBefore", op: OP_CREATE_GROUP, count: 1 },
      ],
    });
    // The hook retries every failure; --continue-on-error lets the unaffected group through.
    const first = await onMachine(0, ["up", "--yes", "--skip-preview", "--continue-on-error"]);
    expect(first.code).not.toBe(0);
    // The engine ends a hook's retries with its own error and drops ours: the record's message
    // reaches the user as a warning of the resource, once.
    expect(output(first)).toMatch(/retrying create due to on-error hook/);
    expect(output(first)).toMatch(/maximum number of error hook retries reached/);
    expect(output(first)).toMatch(/Nightly.*not sent: an earlier create of this resource.*ambiguous record amb-/s);
    expect(output(first).match(/Look on the platform for a bid strategy named "Nightly"/g)).toHaveLength(1);
    expect(posts()).toEqual({ groups: 1, strategies: 1 }); // each sent once, whatever the hook asked
    expect(named("Nightly").strategies).toBe(1);
    expect(named("Launch").groups).toBe(0);
    // --continue-on-error: the resource the faults did not touch went on.
    expect(sim.state("demo").bidModifiers.find((m) => String(m.id) === "501")?.value).toBe("1.30");
    // Both records are in the shared journal, where every machine finds them.
    const records = await new RedisCreateJournal(redis.url).ambiguous();
    const recordOf = (name: string) => ambiguousRecordId(records.find((entry) => entry.urn.endsWith(`::${name}`))!);
    expect(records.map((entry) => entry.name).sort()).toEqual(["Launch", "Nightly"]);
    const [strategyRecord, groupRecord] = [recordOf("nightly"), recordOf("launch")];
    expect(strategyRecord).not.toBe(groupRecord);
    expect(recordIds(output(first)).sort()).toEqual([groupRecord, strategyRecord].sort());

    // The CI job run again, on the other machine: refused, nothing sent.
    const rerun = await onMachine(1, ["up", "--yes", "--skip-preview"]);
    expect(rerun.code).not.toBe(0);
    expect(output(rerun)).toMatch(/not sent: an earlier create of this resource/);
    expect(posts()).toEqual({ groups: 1, strategies: 1 });

    // The person looked: the strategy exists (adopt it), the group does not (create it again).
    const strategyId = String(sim.state("demo").bidStrategies.find((s) => s.name === "Nightly")!.id);
    await stack.cli.pulumi(["config", "set", "adopt", strategyId]);
    const previewBefore = await onMachine(1, ["preview"]);
    expect(output(previewBefore)).toMatch(/Nightly.*resolved by adoptId/s);
    expect(output(previewBefore)).toMatch(new RegExp(`Launch.*${groupRecord}`, "s"));
    await stack.cli.pulumi(["config", "set", "adplatform:createAgain", groupRecord]);
    const preview = await onMachine(1, ["preview"]);
    expect(preview.code).toBe(0);
    expect(output(preview)).toMatch(/resolved by adplatform:createAgain/);
    expect(posts()).toEqual({ groups: 1, strategies: 1 });

    const resolved = await onMachine(0, ["up", "--yes", "--skip-preview"]);
    expect(resolved.code).toBe(0);
    expect(posts()).toEqual({ groups: 2, strategies: 1 }); // exactly one POST, for the group
    expect(named("Nightly").strategies).toBe(1);
    expect(named("Launch").groups).toBe(1);
    expect(await new RedisCreateJournal(redis.url).ambiguous()).toEqual([]);

    const clean = await onMachine(1, ["preview", "--expect-no-changes"]);
    expect(clean.code).toBe(0);
    expect(output(clean)).not.toMatch(/ambiguous record/);
  });
});

describe("a Python program on the native face", () => {
  const PROGRAM = `import pulumi
import pulumi_adplatform as adplatform

retry_always = pulumi.ErrorHook("retry-always", lambda args: True)
adplatform.BidStrategy(
    "nightly",
    name="Nightly",
    strategy="exact",
    value=0.4,
    max_value=1,
    adopt_id=pulumi.Config().get("adopt"),
    opts=pulumi.ResourceOptions(hooks=pulumi.ResourceHookBinding(on_error=[retry_always])),
)
`;
  let sim: RunningSimulator;
  let dir: string;
  let cli: CliSession;

  beforeAll(async () => {
    sim = await startSimulator();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-ambiguous-py-"));
    ({ cli } = openNativePythonProgram(dir, {
      name: "adplatform-ambiguous-py",
      description: "Ambiguous creates from Python",
      main: PROGRAM,
    }));
    await initDemoStack(cli, sim.url);
  });
  afterAll(async () => {
    cli?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    await sim?.close();
  });

  it("sends the create once under an ErrorHook that always retries, and adopts the object once adoptId names it", async () => {
    const posts = () => callsOf(sim, OP_CREATE_STRATEGY).length;
    const nightly = () => sim.state("demo").bidStrategies.filter((s) => s.name === "Nightly");
    sim.setFaults({ rules: [{ kind: "dropAfter", op: OP_CREATE_STRATEGY, count: 1 }] });
    const first = await cli.pulumi(["up", "--yes", "--skip-preview"]);
    expect(first.code).not.toBe(0);
    expect(`${first.stdout}${first.stderr}`).toMatch(/Nightly.*not sent: an earlier create of this resource.*ambiguous record amb-/s);
    const rerun = await cli.pulumi(["up", "--yes", "--skip-preview"]);
    expect(rerun.code).not.toBe(0);
    expect([posts(), nightly().length]).toEqual([1, 1]);
    await cli.pulumi(["config", "set", "adopt", String(nightly()[0].id)]);
    expect((await cli.pulumi(["up", "--yes", "--skip-preview"])).code).toBe(0);
    expect((await cli.pulumi(["preview", "--expect-no-changes"])).code).toBe(0);
    expect([posts(), nightly().length]).toEqual([1, 1]);
  });
});
