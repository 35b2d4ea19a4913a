/**
 * Several accounts in one program, through the commands a user types (the real CLI and the Node.js
 * language host, as in userPath.test.ts): resources without `account` go to the stack config's
 * account (`demo-token`), resources and data sources naming an `Account` to theirs
 * (`second-token`). Checked against each account's objects in the simulator's
 * `/_sim/state?account=...`, against `pulumi stack export` (neither token in clear, the account
 * only as secret ciphertext, after up and after refresh), a move to another account of the same
 * base URL (an update the preview explains, made a replace on purpose with `--replace`), and an
 * unusable account refused at preview with nothing sent.
 */
import { requireLanguageHost, type CliSession } from "../../scripts/driver/cliSession";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { E2E_TIMEOUT_MS, SECOND_TOKEN, SECRET_SIGNATURE, TOKEN, openTypeScriptStack, pulumiIn, type TypeScriptStack } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

/** The program: brand A in the stack config's account, brand B in an `Account` of its own. */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as adp from "pulumi-adplatform";

const config = new pulumi.Config();
const brandB = new adp.Account({
  baseUrl: config.get("brandBBaseUrl") ?? new pulumi.Config("adplatform").require("baseUrl"),
  token: config.requireSecret("brandBToken"),
});

new adp.CampaignGroup("brand-a-launch", { name: "Brand A launch", color: "#2255aa", items: ["5101"] });
new adp.CampaignGroup("brand-b-launch", { name: "Brand B launch", color: "#aa2255", items: ["5101"], account: brandB });
const nightly = new adp.BidStrategy("nightly", {
  name: "Nightly",
  strategy: "exact",
  value: 0.4,
  maxValue: 1,
  account: config.get("nightlyAccount") === "brandB" ? brandB : undefined,
});
const zoneA = adp.getZoneOutput({ id: "1001" });
const zoneB = adp.getZoneOutput({ id: "1001", account: brandB });

export const nightlyId = nightly.id;
export const zoneNames = [zoneA.name, zoneB.name];
`;

let sim: RunningSimulator;
let stack: TypeScriptStack;
let cli: CliSession;

/** Runs `pulumi <args>`; a non-zero exit fails the test with the command's output. */
const pulumi = (args: string[], options: { mayFail?: boolean } = {}) => pulumiIn(cli, args, options);

/** One account's objects, as the simulator's inspection endpoint gives them. */
async function stateOf(
  account: string,
): Promise<{ campaignGroups: { id: string; name?: string }[]; bidStrategies: { id: string; name?: string }[] }> {
  const response = await fetch(`${sim.url}/_sim/state?account=${account}`);
  expect(response.status).toBe(200);
  return (await response.json()) as never;
}

const named = (records: { name?: string }[], name: string) => records.filter((r) => r.name === name);
const writes = (account: string) =>
  Object.values(sim.requests(account).operations)
    .flatMap((op) => op.calls)
    .filter((call) => call.method !== "GET");

interface ExportedResource {
  type: string;
  urn: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** `pulumi stack export`, checked for both tokens, and our resources in it. */
async function exported(): Promise<ExportedResource[]> {
  const result = await pulumi(["stack", "export"]);
  expect(result.stdout).not.toContain(TOKEN);
  expect(result.stdout).not.toContain(SECOND_TOKEN);
  const deployment = JSON.parse(result.stdout) as { deployment: { resources?: ExportedResource[] } };
  return (deployment.deployment.resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/adplatform:"));
}

/** True when `value` is a secret as the exported state writes it: the signature and ciphertext only. */
function isCiphertext(value: unknown): boolean {
  const record = value as Record<string, unknown> | undefined;
  return (
    record !== undefined && record[SECRET_SIGNATURE] !== undefined && typeof record.ciphertext === "string" && !("plaintext" in record)
  );
}

/**
 * True when an exported `account` keeps its token as ciphertext: the inputs hold the account with
 * its token secret (as the program made it), the outputs the whole account (an additional secret
 * output).
 */
function tokenIsCiphertext(account: unknown): boolean {
  return isCiphertext(account) || isCiphertext((account as Record<string, unknown> | undefined)?.token);
}

beforeAll(() => {
  requireLanguageHost();
});

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  stack = await openTypeScriptStack(
    sim.url,
    { name: "adplatform-accounts", description: "Two accounts in one program", index: PROGRAM },
    { secrets: [SECOND_TOKEN] },
  );
  cli = stack.cli;
  await pulumi(["config", "set", "--secret", "brandBToken", SECOND_TOKEN]);
}, E2E_TIMEOUT_MS);

afterAll(async () => {
  stack?.close();
  await sim?.close();
});

test("up writes each brand's objects to its own account, and reads each account's zone", async () => {
  await pulumi(["up", "--yes"]);
  const demo = await stateOf("demo");
  const second = await stateOf("second");
  expect(named(demo.campaignGroups, "Brand A launch")).toHaveLength(1);
  expect(named(demo.campaignGroups, "Brand B launch")).toHaveLength(0);
  expect(named(second.campaignGroups, "Brand B launch")).toHaveLength(1);
  expect(named(second.campaignGroups, "Brand A launch")).toHaveLength(0);
  expect(named(demo.bidStrategies, "Nightly")).toHaveLength(1);
  // The same zone id in both accounts: read in each (the CLI runs the program for the preview too).
  const zoneReads = (account: string) => sim.requests(account).operations["13"]?.count ?? 0;
  expect(zoneReads("second")).toBeGreaterThan(0);
  expect(zoneReads("second")).toBe(zoneReads("demo"));
  expect(sim.requests("demo").byStatus["429"] ?? 0).toBe(0);
  expect(sim.requests("second").byStatus["429"] ?? 0).toBe(0);
});

test("the exported state holds neither token, and the account only as secret ciphertext in inputs and outputs", async () => {
  const resources = await exported();
  const brandB = resources.find((r) => r.urn.endsWith("::brand-b-launch"))!;
  expect(isCiphertext((brandB.inputs?.account as Record<string, unknown>).token)).toBe(true);
  expect(isCiphertext(brandB.outputs?.account)).toBe(true);
  // Resources without an account have no account property at all.
  const brandA = resources.find((r) => r.urn.endsWith("::brand-a-launch"))!;
  expect(brandA.inputs).not.toHaveProperty("account");
  expect(brandA.outputs).not.toHaveProperty("account");
  const outputs = await pulumi(["stack", "output", "--json"]);
  expect(outputs.stdout + outputs.stderr).not.toContain(SECOND_TOKEN);
});

test("preview sees no change, and refresh reads brand B's group from its account and keeps it secret", async () => {
  await pulumi(["preview", "--expect-no-changes"]);
  const before = sim.requests("second").operations["19"]?.count ?? 0;
  await pulumi(["refresh", "--yes"]);
  expect(sim.requests("second").operations["19"]?.count ?? 0).toBeGreaterThan(before);
  expect(sim.requests("demo").byStatus["401"] ?? 0).toBe(0);
  const brandB = (await exported()).find((r) => r.urn.endsWith("::brand-b-launch"))!;
  expect(tokenIsCiphertext(brandB.inputs?.account)).toBe(true);
  expect(tokenIsCiphertext(brandB.outputs?.account)).toBe(true);
  await pulumi(["preview", "--expect-no-changes"]);
});

test("another account on the same base URL reads as a rotated token; up --replace moves the resource there on purpose", async () => {
  await pulumi(["config", "set", "nightlyAccount", "brandB"]);
  const preview = await pulumi(["preview", "--diff"]);
  // The API cannot say which account a token belongs to: same base URL, no names, so the same account.
  expect(preview.stdout).toMatch(/~\s*pulumi-nodejs:dynamic\/adplatform:BidStrategy: \(update\)/);
  expect(preview.stdout + preview.stderr).toMatch(/resource 'nightly': only its account's token changed/);
  expect(preview.stdout).not.toMatch(/to replace/);
  const nightly = (await exported()).find((r) => r.urn.endsWith("::nightly"))!;
  await pulumi(["up", "--yes", "--replace", nightly.urn]);
  expect(named((await stateOf("second")).bidStrategies, "Nightly")).toHaveLength(1);
  const outputs = JSON.parse((await pulumi(["stack", "output", "--json"])).stdout) as { nightlyId: string };
  expect((await stateOf("second")).bidStrategies.map((s) => String(s.id))).toContain(outputs.nightlyId);
  await exported();
});

test("an account whose base URL is plain http:// to a remote host fails at preview, naming the resource and property, sending nothing", async () => {
  await pulumi(["config", "set", "brandBBaseUrl", "http://api.example.com"]);
  const before = writes("demo").length + writes("second").length;
  const preview = await pulumi(["preview"], { mayFail: true });
  expect(preview.code).not.toBe(0);
  const text = preview.stdout + preview.stderr;
  // The engine reports the first resource whose check failed, and the program the data source's failure.
  expect(text).toMatch(
    /resource '(nightly|brand-b-launch)': property account\.baseUrl .*has a problem: refusing to send the API token over plain http/,
  );
  expect(text).toMatch(/getZone: invalid account: account\.baseUrl refusing/);
  expect(text).not.toContain(SECOND_TOKEN);
  expect(writes("demo").length + writes("second").length).toBe(before);
  await pulumi(["config", "rm", "brandBBaseUrl"]);
});

test("destroy removes everything from the stack", async () => {
  await pulumi(["destroy", "--yes"]);
  expect(await exported()).toEqual([]);
});
