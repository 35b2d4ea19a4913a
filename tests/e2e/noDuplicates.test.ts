/**
 * Two routine operations that must never duplicate an object (the API has no delete), through the
 * commands a user types, on both faces: rotating the token of an unnamed explicit account (an
 * `Account` on the dynamic face, a `Provider` on the native one) in a stack whose state is as the
 * previous release wrote it previews no replacement and creates nothing; and `up` then `refresh` at
 * once against a platform that shows a new record to reads only 5 s after its create keeps every
 * object, so the following `up` creates nothing. The platform's objects are counted through the
 * simulator's `/_sim/state` before and after each step.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { requireLanguageHost, type CliSession } from "../../scripts/driver/cliSession";
import { SEED_ACCOUNTS, startSimulator, type RunningSimulator } from "../../simulator";
import { E2E_TIMEOUT_MS, SECRET_SIGNATURE, TOKEN, openTypeScriptStack, pulumiIn, type TypeScriptStack } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

/** A second token of the `demo` account: the same account after a rotation. */
const ROTATED_TOKEN = "demo-token-rotated";

/** Each face's program: a group and a strategy in an unnamed explicit account; one more group when `fresh` is set. */
const PROGRAMS = {
  dynamic: `import * as pulumi from "@pulumi/pulumi";
import * as adp from "pulumi-adplatform";

const config = new pulumi.Config();
const account = new adp.Account({ baseUrl: config.require("accountBaseUrl"), token: config.requireSecret("accountToken") });
new adp.CampaignGroup("launch", { name: "Launch", color: "#2255aa", items: ["5101"], account });
new adp.BidStrategy("nightly", { name: "Nightly", strategy: "exact", value: 0.4, maxValue: 1, account });
if (config.getBoolean("fresh")) new adp.CampaignGroup("fresh", { name: "Fresh", color: "#aa2255", items: ["5102"], account });
`,
  native: `import * as pulumi from "@pulumi/pulumi";
import * as adplatform from "pulumi-adplatform-native";

const config = new pulumi.Config();
const provider = new adplatform.Provider("account", { baseUrl: config.require("accountBaseUrl"), token: config.requireSecret("accountToken") });
new adplatform.CampaignGroup("launch", { name: "Launch", color: "#2255aa", items: ["5101"] }, { provider });
new adplatform.BidStrategy("nightly", { name: "Nightly", strategy: "exact", value: 0.4, maxValue: 1 }, { provider });
if (config.getBoolean("fresh")) new adplatform.CampaignGroup("fresh", { name: "Fresh", color: "#aa2255", items: ["5102"] }, { provider });
`,
} as const;

interface ExportedResource {
  type: string;
  urn: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

beforeAll(() => {
  requireLanguageHost();
});

describe.each(["dynamic", "native"] as const)("the %s face", (face) => {
  let sim: RunningSimulator;
  let stack: TypeScriptStack;
  let cli: CliSession;
  const pulumi = (args: string[]) => pulumiIn(cli, args);

  /** The `demo` account's groups and strategies on the platform. */
  const objects = () => {
    const state = sim.state("demo");
    return { groups: state.campaignGroups?.length ?? 0, strategies: state.bidStrategies?.length ?? 0 };
  };

  /** Our resources in `pulumi stack export`, which must hold neither token in clear. */
  async function exported(): Promise<ExportedResource[]> {
    const text = (await pulumi(["stack", "export"])).stdout;
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(ROTATED_TOKEN);
    return (JSON.parse(text) as { deployment: { resources: ExportedResource[] } }).deployment.resources;
  }

  beforeAll(async () => {
    sim = await startSimulator({ accounts: [...SEED_ACCOUNTS, { account: "demo", token: ROTATED_TOKEN, companyId: "7001" }] });
    stack = await openTypeScriptStack(
      sim.url,
      { name: `adplatform-no-duplicates-${face}`, description: "Routine operations", index: PROGRAMS[face] },
      { face, secrets: [ROTATED_TOKEN] },
    );
    cli = stack.cli;
    await pulumi(["config", "set", "accountBaseUrl", sim.url]);
    await pulumi(["config", "set", "--secret", "accountToken", TOKEN]);
  }, E2E_TIMEOUT_MS);

  afterAll(async () => {
    stack?.close();
    await sim?.close();
  });

  test("rotating the account's token previews no replacement and creates nothing; the state records the new token, encrypted", async () => {
    const before = objects();
    await pulumi(["up", "--yes"]);
    const made = objects();
    expect(made).toEqual({ groups: before.groups + 1, strategies: before.strategies + 1 });

    // The state as the previous release wrote it: without the creation time this release records.
    const exportFile = path.join(stack.dir, "state.json");
    const state = JSON.parse((await pulumi(["stack", "export"])).stdout) as { deployment: { resources: ExportedResource[] } };
    for (const resource of state.deployment.resources) delete resource.outputs?.__adplatformCreatedAt;
    fs.writeFileSync(exportFile, JSON.stringify(state));
    await pulumi(["stack", "import", "--file", exportFile]);

    await pulumi(["config", "set", "--secret", "accountToken", ROTATED_TOKEN]);
    const preview = await pulumi(["preview", "--diff"]);
    expect(preview.stdout).not.toMatch(/to replace|to create|\+-/);
    if (face === "dynamic") {
      // The info messages of a preview with --diff go to stderr.
      expect(preview.stdout + preview.stderr).toMatch(/resource 'launch': only its account's token changed/);
      expect(preview.stdout + preview.stderr).toMatch(/resource 'nightly': only its account's token changed/);
    } else {
      // The provider is updated in place; its resources are not touched.
      expect(preview.stdout).toMatch(/~\s*pulumi:providers:adplatform: \(update\)/);
    }

    await pulumi(["up", "--yes"]);
    expect(objects()).toEqual(made);
    await pulumi(["preview", "--expect-no-changes"]);
    const resources = await exported();
    const recorded = (await pulumi(["stack", "export", "--show-secrets"])).stdout;
    expect(recorded).toContain(ROTATED_TOKEN);
    if (face === "dynamic") {
      const launch = resources.find((r) => r.urn.endsWith("::launch"))!;
      expect((launch.inputs?.account as Record<string, Record<string, unknown>>).token[SECRET_SIGNATURE]).toBeDefined();
      expect((launch.outputs?.account as Record<string, unknown>)[SECRET_SIGNATURE]).toBeDefined();
    } else {
      const provider = resources.find((r) => r.urn.endsWith("::account"))!;
      expect((provider.inputs?.token as Record<string, unknown>)[SECRET_SIGNATURE]).toBeDefined();
    }
    // Reads go with the new token to the same account: a refresh keeps both objects.
    await pulumi(["refresh", "--yes"]);
    expect(objects()).toEqual(made);
    await pulumi(["preview", "--expect-no-changes"]);
  });

  test("up then refresh at once, on a platform that shows new records 5 s late, keeps every object; the next up creates nothing", async () => {
    sim.setFaults({ hideCreatedForMs: 5000 });
    await pulumi(["config", "set", "fresh", "true"]);
    const before = objects();
    await pulumi(["up", "--yes"]);
    const made = objects();
    expect(made).toEqual({ groups: before.groups + 1, strategies: before.strategies });

    const refresh = await pulumi(["refresh", "--yes"]);
    expect(refresh.stdout).not.toMatch(/no longer exists|deleted/);
    expect(refresh.stdout).not.toMatch(/does not show this campaign group yet/);
    // The refresh (its preview, then the refresh itself) read the new group again until it showed:
    // 404s first, then only its view.
    const fresh = (await exported()).find((r) => r.urn.endsWith("::fresh")) as ExportedResource & { id: string };
    expect(fresh.outputs?.size).toBe(1);
    const views = (sim.requests("demo").operations["19"]?.calls ?? []).filter((call) => call.path.endsWith(`/${fresh.id}`));
    const statuses = views.map((call) => call.status);
    expect(statuses[0]).toBe(404);
    expect(statuses.slice(statuses.indexOf(200))).toEqual(statuses.slice(statuses.indexOf(200)).map(() => 200));

    const up = await pulumi(["up", "--yes"]);
    expect(up.stdout).not.toMatch(/\d+ created/);
    expect(objects()).toEqual(made);
    await pulumi(["preview", "--expect-no-changes"]);
    sim.setFaults({ hideCreatedForMs: 0 });
  });
});
