/**
 * A share of the rate limits, through the real CLI at the platform's windows: a neighbour on the
 * same account (the company's own integration) reads once a second, 60 per minute, while
 * `pulumi up` creates 150 strategies.
 *
 * - With `adplatform:rateLimitShare` 0.5 the deploy spends at most 5 of 10 per second and 75 of 150
 *   per minute: the neighbour, within the other half, gets no 429, nor does the deploy, and the
 *   deploy's span is within 5% of the bound at its share (150 at 75 per minute: 74 s). The CLI
 *   shows the waiting resources' status and the update's expected cost.
 * - Without a share the deploy takes what the account has and the neighbour is refused: the case
 *   that proves the setting is what keeps it whole.
 * - The native face, its share given to an explicit provider: the same statuses, with no 429.
 *
 * Real windows: each case takes one to two minutes of waiting, plus the CLI's start.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { boundMs, shareOf } from "../../bench/bound";
import {
  linkRepositoryPackage,
  openCliSession,
  writeTypeScriptProgram,
  type CliResult,
  type CliSession,
} from "../../scripts/driver/cliSession";
import { startSimulator, type LoggedCall, type RunningSimulator } from "../../simulator";
import { NATIVE_PLUGIN_MAIN, REPO_ROOT, TOKEN, pulumiIn, CLASS_C_AT_REAL_WINDOWS, useStrategiesProject } from "./harness";

const STRATEGIES = 150;
const SHARE = 0.5;
/** What the neighbour reads, once a second: no resource of the deploy reads it. */
const NEIGHBOUR_PATH = "/v2/platform/countries";
const NEIGHBOUR_EVERY_MS = 1_000;

/** Class C at the share: 5 per second, 75 per minute. */
const AT_SHARE = shareOf(CLASS_C_AT_REAL_WINDOWS, SHARE);

/** Two minutes of windows, the CLI's start on a loaded machine, and the stack's set-up. */
jest.setTimeout(420_000);

const project = useStrategiesProject("adplatform-share", "A share of the account's limits", STRATEGIES);
const cleanups = project.cleanups;

/** A simulator at real scale with the catalog's limits, a machine (Pulumi home, backend, limits directory) and a stack on it. */
async function deployment(stack: string, config: Record<string, string>): Promise<{ sim: RunningSimulator; cli: CliSession }> {
  const sim = await startSimulator({ port: 0 });
  cleanups.push(() => sim.close());
  const limitsDir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-limits-"));
  const cli = openCliSession(project.dir, { extraEnv: { ADPLATFORM_LIMITS_DIR: limitsDir } });
  cleanups.push(() => {
    cli.close();
    fs.rmSync(limitsDir, { recursive: true, force: true });
  });
  await pulumiIn(cli, ["stack", "init", stack]);
  await pulumiIn(cli, ["config", "set", "--stack", stack, "adplatform:baseUrl", sim.url]);
  await pulumiIn(cli, ["config", "set", "--stack", stack, "--secret", "adplatform:token", TOKEN]);
  for (const [key, value] of Object.entries(config)) await pulumiIn(cli, ["config", "set", "--stack", stack, key, value]);
  return { sim, cli };
}

/**
 * The neighbour: a GET once a second on the account while `during` runs, never retried. Resolves
 * with `during`'s result and the neighbour's statuses.
 */
async function withNeighbour<T>(sim: RunningSimulator, during: () => Promise<T>): Promise<{ result: T; statuses: number[] }> {
  const statuses: number[] = [];
  const sent: Promise<void>[] = [];
  const timer = setInterval(() => {
    sent.push(
      fetch(`${sim.url}${NEIGHBOUR_PATH}`, { headers: { authorization: `Bearer ${TOKEN}` } }).then(async (response) => {
        await response.arrayBuffer();
        statuses.push(response.status);
      }),
    );
  }, NEIGHBOUR_EVERY_MS);
  try {
    return { result: await during(), statuses };
  } finally {
    clearInterval(timer);
    await Promise.all(sent);
  }
}

/** The deploy's calls (everything but the neighbour's), in arrival order. */
function deployCalls(sim: RunningSimulator): LoggedCall[] {
  return Object.values(sim.requests().operations)
    .flatMap((op) => op.calls)
    .filter((call) => call.path !== NEIGHBOUR_PATH)
    .sort((a, b) => a.seq - b.seq);
}

function expectCreated(result: CliResult, sim: RunningSimulator, stack: string): void {
  if (result.code !== 0) throw new Error(`pulumi up exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  expect(result.stdout).toMatch(new RegExp(`\\+ ${STRATEGIES + 1} created`));
  expect(sim.state().bidStrategies.filter((s) => String(s.name).startsWith(`${stack} bids `))).toHaveLength(STRATEGIES);
}

const count = (statuses: readonly number[], status: number) => statuses.filter((s) => s === status).length;

test("with rateLimitShare 0.5, a neighbour at 60 per minute gets no 429, nor does the deploy, which keeps within 5% of its share's bound", async () => {
  const stack = "half";
  const { sim, cli } = await deployment(stack, { "adplatform:rateLimitShare": String(SHARE) });

  const { result, statuses } = await withNeighbour(sim, () => cli.pulumi(["up", "--yes", "--skip-preview", "--stack", stack]));

  expectCreated(result, sim, stack);
  expect(statuses.length).toBeGreaterThan(60);
  expect(count(statuses, 429)).toBe(0);
  expect(count(statuses, 200)).toBe(statuses.length);
  const calls = deployCalls(sim);
  expect(calls.filter((call) => call.status === 429)).toHaveLength(0);
  const cost = calls.reduce((sum, call) => sum + call.cost, 0);
  const bound = boundMs(cost, AT_SHARE);
  const span = calls[calls.length - 1]!.at - calls[0]!.at;
  process.stdout.write(
    `rateLimitShare 0.5: deploy cost ${cost} in ${(span / 1000).toFixed(1)} s, bound ${(bound / 1000).toFixed(1)} s ` +
      `(ratio ${(span / bound).toFixed(3)}); neighbour ${statuses.length} requests, ${count(statuses, 429)} 429s\n`,
  );
  expect(span).toBeGreaterThanOrEqual(bound - AT_SHARE.burstWindowMs);
  expect(span).toBeLessThanOrEqual(1.05 * bound);
  // The CLI said why resources waited, and what the update would cost.
  expect(result.stdout).toMatch(/waiting \d+ s for the account's rate limit, 75 of 150 per minute \(rateLimitShare 0\.5\)/);
  expect(result.stdout).toMatch(
    /the account's rate limit paces this update: \d+ requests so far at 75 of 150 per minute \(rateLimitShare 0\.5\): about (\d+ m)?( ?\d+ s)?/,
  );
});

test("without a share, the same deploy leaves the neighbour 429s", async () => {
  const stack = "whole";
  const { sim, cli } = await deployment(stack, {});

  const { result, statuses } = await withNeighbour(sim, () => cli.pulumi(["up", "--yes", "--skip-preview", "--stack", stack]));

  expectCreated(result, sim, stack);
  process.stdout.write(`no share: neighbour ${statuses.length} requests, ${count(statuses, 429)} 429s\n`);
  expect(count(statuses, 429)).toBeGreaterThan(0);
});

/** The native face: 80 strategies through an explicit provider at share 0.5, so the last 5 wait for the next minute. */
const NATIVE_STRATEGIES = 80;
const NATIVE_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as adplatform from "pulumi-adplatform-native";

const config = new pulumi.Config();
const account = new adplatform.Provider("shared-account", {
  baseUrl: config.require("accountBaseUrl"),
  token: config.requireSecret("accountToken"),
  rateLimitShare: "${SHARE}",
});
for (let i = 0; i < ${NATIVE_STRATEGIES}; i++) {
  new adplatform.BidStrategy(\`bids-\${i}\`, { name: \`native bids \${i}\`, strategy: "percent_add", value: 10 + i, maxValue: 3 }, { provider: account });
}
`;

test("the native face, its share given to an explicit provider, says the same while it waits, with no 429", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-share-native-"));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  writeTypeScriptProgram(dir, { name: "adplatform-share-native", description: "A share on the native face", index: NATIVE_PROGRAM });
  linkRepositoryPackage(dir);
  fs.symlinkSync(path.join(REPO_ROOT, "sdks", "nodejs", "bin"), path.join(dir, "node_modules", "pulumi-adplatform-native"), "dir");
  fs.mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
  fs.symlinkSync(NATIVE_PLUGIN_MAIN, path.join(dir, "node_modules", ".bin", "pulumi-resource-adplatform"));
  fs.appendFileSync(path.join(dir, "Pulumi.yaml"), "plugins:\n  providers:\n    - name: adplatform\n      path: ./node_modules/.bin\n");
  const sim = await startSimulator({ port: 0 });
  cleanups.push(() => sim.close());
  const limitsDir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-limits-"));
  const cli = openCliSession(dir, { extraEnv: { ADPLATFORM_LIMITS_DIR: limitsDir } });
  cleanups.push(() => {
    cli.close();
    fs.rmSync(limitsDir, { recursive: true, force: true });
  });
  await pulumiIn(cli, ["stack", "init", "native"]);
  await pulumiIn(cli, ["config", "set", "accountBaseUrl", sim.url]);
  await pulumiIn(cli, ["config", "set", "--secret", "accountToken", TOKEN]);

  const result = await cli.pulumi(["up", "--yes", "--skip-preview", "--stack", "native"]);

  if (result.code !== 0) throw new Error(`pulumi up exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  expect(sim.state().bidStrategies.filter((s) => String(s.name).startsWith("native bids "))).toHaveLength(NATIVE_STRATEGIES);
  expect(sim.requests().byStatus["429"] ?? 0).toBe(0);
  expect(result.stdout).toMatch(
    /bids-\d+ +creating \([\d.]+s\) +waiting \d+ s for the account's rate limit, 75 of 150 per minute \(rateLimitShare 0\.5\)/,
  );
});
