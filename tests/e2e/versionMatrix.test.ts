/**
 * The run is on the combination of the version matrix it names (`ADPLATFORM_MATRIX`, set by
 * scripts/matrix/run; unset is the oldest), not on whatever happens to be installed: the CLI reports
 * the combination's release, and a TypeScript program run by `pulumi up` through the Node.js language
 * host, reports the combination's Node.js and `@pulumi/pulumi` from the program's own process, and
 * its dynamic resource is created on the simulator by the dynamic-provider plugin, whose launcher
 * runs the `node` first on PATH: the combination's, which runs this file too.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { requireLanguageHost } from "../../scripts/driver/cliSession";
import { pulumiBinDir } from "../../scripts/driver/paths";
import { currentCombination } from "../../scripts/matrix/combination";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { E2E_TIMEOUT_MS, openTypeScriptStack, pulumiIn, type TypeScriptStack } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

const combination = currentCombination();
const name = combination.name;

/** The program: its outputs say what it runs on. */
const PROGRAM = `/// <reference types="node" />
import * as adp from "pulumi-adplatform";

export const sdk: string = require("@pulumi/pulumi/package.json").version;
export const node = process.version;
const strategy = new adp.BidStrategy("matrix", { name: "Matrix", strategy: "percent_add", value: 10, maxValue: 3 });
export const strategyId = strategy.id;
`;

let sim: RunningSimulator;
let stack: TypeScriptStack;

beforeAll(async () => {
  requireLanguageHost();
  sim = await startSimulator({ port: 0 });
  stack = await openTypeScriptStack(sim.url, { name: "adplatform-matrix", description: "Which versions run", index: PROGRAM });
});

afterAll(async () => {
  stack?.close();
  await sim?.close();
});

test(`the ${name} combination's CLI, Node.js and @pulumi/pulumi run the program`, async () => {
  expect(process.version).toBe(`v${combination.node}`);
  expect((await pulumiIn(stack.cli, ["version"])).stdout.trim()).toBe(combination.pulumiCli);
  expect(fs.realpathSync(path.join(pulumiBinDir(), "pulumi"))).toContain(name === "newest" ? ".pulumi-cli-newest" : ".pulumi-cli");

  await pulumiIn(stack.cli, ["up", "--yes", "--skip-preview"]);
  const outputs = JSON.parse((await pulumiIn(stack.cli, ["stack", "output", "--json"])).stdout) as Record<string, string>;
  expect(outputs).toMatchObject({ node: `v${combination.node}`, sdk: combination.pulumiNodejs });
  const created = sim.state().bidStrategies!.find((s) => String(s.id) === outputs.strategyId);
  expect(created).toMatchObject({ name: "Matrix" });
});
