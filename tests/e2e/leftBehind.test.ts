/**
 * Objects a change leaves on the platform (provider/resources/lifecycle/leftBehind.ts), through the
 * commands a user types, on both faces: a strategy's value changed twice and a group's colour once.
 * Counted on the platform (the simulator's stored objects and request log), not in log lines alone:
 * - the preview names each object before it is left, and sends nothing;
 * - with `adplatform:leftBehind refuse` the preview and `up` fail with zero requests sent;
 * - the resources that approve leaving their current object (`approveLeavingId`) go through, and an
 *   approval of an older object does not carry over to the next replacement;
 * - a destroy's preview calls no code of ours (the engine previews deletes without the provider);
 * - `adplatform-left-behind`, run from the installed package with the stack's environment, lists
 *   exactly the objects the simulator still stores that the stack no longer manages, before and after
 *   the destroy, and a person can mark one cleaned up.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { requireLanguageHost, type CliResult } from "../../scripts/driver/cliSession";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { E2E_TIMEOUT_MS, TOKEN, openTypeScriptStack, type TypeScriptStack } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS * 2);

const program = (module: string) => `import * as pulumi from "@pulumi/pulumi";
import * as adp from "${module}";

const config = new pulumi.Config();
new adp.BidStrategy("nightly", {
  name: "Nightly", strategy: "exact", value: config.requireNumber("value"), maxValue: 1,
  approveLeavingId: config.get("approveStrategy"),
});
new adp.CampaignGroup("launch", { name: "Launch", color: config.require("color"), items: ["5101"], approveLeavingId: config.get("approveGroup") });
`;
const PROGRAMS = { dynamic: program("pulumi-adplatform"), native: program("pulumi-adplatform-native") } as const;

beforeAll(() => requireLanguageHost());

describe.each(["dynamic", "native"] as const)("the %s face", (face) => {
  let sim: RunningSimulator;
  let stack: TypeScriptStack;

  const output = (result: CliResult) => `${result.stdout}\n${result.stderr}`;
  /** `pulumi <args>`, which must succeed (its output shown when it does not). */
  const run = async (args: string[]) => {
    const result = await stack.cli.pulumi(args);
    if (result.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed:\n${output(result)}`);
    return result;
  };
  const requests = () => sim.requests().total;
  const ids = () => ({
    strategies: sim
      .state("demo")
      .bidStrategies.filter((s) => s.name === "Nightly")
      .map((s) => String(s.id)),
    groups: sim
      .state("demo")
      .campaignGroups.filter((g) => g.name === "Launch")
      .map((g) => String(g.id)),
  });
  /** `adplatform-left-behind <args>` as a user runs it beside the stack (the account and places from the environment). */
  const listCommand = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const cli = path.join(stack.dir, "node_modules", "pulumi-adplatform", "bin", "provider", "faces", "leftBehindList", "cli.js");
      const env = { ...process.env, ...stack.cli.env, ADPLATFORM_BASE_URL: sim.url, ADPLATFORM_TOKEN: TOKEN };
      execFile(process.execPath, [cli, ...args], { cwd: stack.dir, env }, (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
      );
    });
  /** The list's objects of this stack, as `kind id` (the command's JSON). */
  const listed = async (all = false) => {
    const result = await listCommand(["--stack", `adplatform-left-${face}/dev`, "--json", ...(all ? ["--all"] : [])]);
    if (result.code !== 0) throw new Error(`adplatform-left-behind failed:\n${result.stderr}`);
    return (JSON.parse(result.stdout) as Array<{ kind: string; id: string; change: string }>)
      .map((o) => `${o.kind} ${o.id} ${o.change}`)
      .sort();
  };
  /** What the simulator stores and the stack's state does not hold, as `kind id`. */
  const unmanaged = async () => {
    const state = JSON.parse((await run(["stack", "export"])).stdout) as { deployment: { resources?: { id?: string; type: string }[] } };
    const held = new Set((state.deployment.resources ?? []).map((r) => r.id));
    const { strategies, groups } = ids();
    return [
      ...strategies.filter((id) => !held.has(id)).map((id) => `BidStrategy ${id}`),
      ...groups.filter((id) => !held.has(id)).map((id) => `CampaignGroup ${id}`),
    ].sort();
  };
  const set = async (key: string, value: string) => expect((await stack.cli.pulumi(["config", "set", key, value])).code).toBe(0);

  beforeAll(async () => {
    sim = await startSimulator();
    stack = await openTypeScriptStack(
      sim.url,
      { name: `adplatform-left-${face}`, description: "Objects left behind", index: PROGRAMS[face] },
      { face },
    );
  });
  afterAll(async () => {
    stack?.close();
    await sim?.close();
  });

  it("names each object at preview, refuses unapproved ones with nothing sent, and lets approved ones through", async () => {
    await set("value", "0.4");
    await set("color", "#2255aa");
    await run(["up", "--yes", "--skip-preview"]);
    const [strategy1] = ids().strategies;
    const [group1] = ids().groups;

    // The default (warn): the preview names both objects that will stay, with no request.
    await set("value", "0.5");
    await set("color", "#ffffff");
    let before = requests();
    const preview = await run(["preview", "--diff"]);
    expect(output(preview)).toContain(`BidStrategy ${strategy1} "Nightly" stays on the platform`);
    expect(output(preview)).toContain(`CampaignGroup ${group1} "Launch" stays on the platform`);
    expect(requests()).toBe(before);

    // refuse: preview and up fail before any request, naming the object.
    await set("adplatform:leftBehind", "refuse");
    before = requests();
    const refused = await stack.cli.pulumi(["preview"]);
    expect(refused.code).not.toBe(0);
    expect(output(refused)).toMatch(
      new RegExp(`(BidStrategy ${strategy1} "Nightly"|CampaignGroup ${group1} "Launch") stays on the platform`),
    );
    expect(output(refused)).toMatch(/adplatform:leftBehind is "refuse"/);
    expect((await stack.cli.pulumi(["up", "--yes"])).code).not.toBe(0);
    expect(requests()).toBe(before);
    expect(ids()).toEqual({ strategies: [strategy1], groups: [group1] });

    // Both approved, each by the id the preview named: the up goes through.
    await set("approveStrategy", strategy1);
    await set("approveGroup", group1);
    const approved = await run(["up", "--yes"]);
    expect(output(approved)).toMatch(/Approved by approveLeavingId/);
    expect(ids().strategies).toHaveLength(2);
    expect(ids().groups).toHaveLength(2);
    const strategy2 = ids().strategies.find((id) => id !== strategy1)!;

    // The strategy's second change: the old approval names the object already left, not this one.
    await set("value", "0.6");
    before = requests();
    const stale = await stack.cli.pulumi(["preview"]);
    expect(stale.code).not.toBe(0);
    expect(output(stale)).toContain(`approveLeavingId names ${strategy1}, not ${strategy2}`);
    expect(requests()).toBe(before);
    await set("approveStrategy", strategy2);
    await run(["up", "--yes"]);
    expect(ids().strategies).toHaveLength(3);

    // The list: each object the replacements left, with the change that left it, and nothing else.
    const strategy3 = ids().strategies.find((id) => id !== strategy1 && id !== strategy2)!;
    const group2 = ids().groups.find((id) => id !== group1)!;
    expect(await listed()).toEqual(
      [`BidStrategy ${strategy1} replaced`, `BidStrategy ${strategy2} replaced`, `CampaignGroup ${group1} replaced`].sort(),
    );
    expect((await listed()).map((line) => line.split(" ").slice(0, 2).join(" "))).toEqual(await unmanaged());
    const text = await listCommand(["--stack", "dev"]);
    expect(text.stdout).toMatch(new RegExp(`BidStrategy\\s+${strategy1}\\s+"Nightly"\\s+replaced by ${strategy2}`));
    expect(text.stdout).toMatch(new RegExp(`CampaignGroup\\s+${group1}\\s+"Launch"\\s+replaced by ${group2}`));
    expect(await listCommand(["--stack", "nosuch"])).toMatchObject({ code: 1, stdout: "" });

    // A destroy's preview: the engine previews deletes without calling the provider, so nothing of
    // ours runs (docs/guarantees.md says what the user gets instead); the destroy itself warns.
    before = requests();
    const destroyPreview = await run(["destroy", "--preview-only"]);
    expect(output(destroyPreview)).not.toMatch(/stays on the platform/);
    expect(requests()).toBe(before);
    const destroyed = await run(["destroy", "--yes", "--skip-preview"]);
    expect(output(destroyed)).toMatch(/cannot delete bid strategies, so strategy \d+ stays on the platform/);
    expect(ids().strategies).toHaveLength(3);
    expect(ids().groups).toHaveLength(2);
    expect(output(destroyed)).toContain("Listed by `adplatform-left-behind`");

    // After the destroy the stack manages nothing: the list holds every object the simulator stores.
    expect(await listed()).toEqual(
      [
        `BidStrategy ${strategy1} replaced`,
        `BidStrategy ${strategy2} replaced`,
        `BidStrategy ${strategy3} deleted`,
        `CampaignGroup ${group1} replaced`,
        `CampaignGroup ${group2} deleted`,
      ].sort(),
    );
    expect((await listed()).map((line) => line.split(" ").slice(0, 2).join(" "))).toEqual(await unmanaged());
    // A person deals with one on the platform and marks it: it leaves the list, and --all keeps it.
    expect(await listCommand(["--cleaned", group1, "--kind", "CampaignGroup"])).toMatchObject({ code: 0 });
    expect(await listed()).not.toContain(`CampaignGroup ${group1} replaced`);
    expect(await listed(true)).toContain(`CampaignGroup ${group1} replaced`);
  });
});
