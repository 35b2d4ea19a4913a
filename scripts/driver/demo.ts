/**
 * `npm run demo` (scripts/demo): the root Pulumi.yaml quickstart against a local simulator, with
 * the real Pulumi CLI and a throwaway local backend.
 *
 *   preview -> up -> outputs -> change config -> preview --diff (1 update, 1 replace) -> up
 *   -> refresh -> preview (no changes) -> destroy (with the API's "cannot delete" warnings)
 *
 * Every step checks what it should have done; the process exits 1 at the first step that did not.
 */
import type { OutputMap } from "@pulumi/pulumi/automation";
import { REPO_ROOT } from "./paths";
import { startSimulatorProcess, type SimulatorProcess } from "./simulatorProcess";
import { openStack, type StackSession } from "./stackSession";

/** The simulator's seeded token of the `demo` account (simulator/fixtures/README.md). */
const DEMO_TOKEN = "demo-token";

/** Resources of the quickstart, plus the stack resource Pulumi counts in every summary. */
const RESOURCES = 4 + 1;

/** The configuration change the demo makes, and what Pulumi must make of it. */
const CHANGE = {
  // BidModifier value: PATCH op 1 can update it, so an in-place update of that property.
  modifierValue: "1.65",
  // BidStrategy value: the API has no update for strategies, so a replacement.
  strategyValue: "15",
};

const bold = (text: string): string => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[0m` : text);
const stream = (line: string): void => void process.stdout.write(line);

function step(title: string): void {
  process.stdout.write(`\n${bold(`==> ${title}`)}\n`);
}

function expect(condition: boolean, what: string): void {
  if (!condition) throw new Error(`demo step failed: ${what}`);
  process.stdout.write(`    ok: ${what}\n`);
}

/** `{create: 5}` style summary, missing keys as 0. */
function count(summary: Record<string, number> | undefined, op: string): number {
  return summary?.[op] ?? 0;
}

function show(summary: Record<string, number> | undefined): string {
  return JSON.stringify(summary ?? {});
}

function printOutputs(outputs: OutputMap): void {
  for (const [key, { value, secret }] of Object.entries(outputs)) {
    process.stdout.write(`    ${key} = ${secret ? "[secret]" : JSON.stringify(value)}\n`);
  }
}

async function run(sim: SimulatorProcess): Promise<void> {
  const stackName = `demo-${process.pid}`;
  step(`stack ${stackName} of the root Pulumi.yaml (examples/quickstart) on a throwaway local backend`);
  const session: StackSession = await openStack({ projectDir: REPO_ROOT, stackName, baseUrl: sim.url, token: DEMO_TOKEN });
  process.stdout.write(`    backend file://${session.backendDir}\n    adplatform:baseUrl ${sim.url}, adplatform:token [secret]\n`);
  const { stack } = session;
  try {
    step("pulumi preview");
    const preview = await stack.preview({ onOutput: stream });
    expect(count(preview.changeSummary, "create") === RESOURCES, `preview plans ${RESOURCES} creates ${show(preview.changeSummary)}`);

    step("pulumi up");
    const up = await stack.up({ onOutput: stream });
    expect(up.summary.result === "succeeded", "up succeeded");
    expect(count(up.summary.resourceChanges, "create") === RESOURCES, `up created ${RESOURCES} ${show(up.summary.resourceChanges)}`);

    step("stack outputs");
    const outputs = await stack.outputs();
    printOutputs(outputs);
    expect(/^\d+$/.test(String(outputs.strategyId?.value)), "a new bid strategy id");
    expect(/^\d+$/.test(String(outputs.groupId?.value)), "a new campaign group id");
    expect(typeof (outputs.zone?.value as { name?: unknown } | undefined)?.name === "string", "a zone read through getZoneOutput");
    expect(typeof (outputs.firstSegment?.value as { name?: unknown } | undefined)?.name === "string", "a segment read through getSegments");

    step(`change config: modifierValue ${CHANGE.modifierValue} (in-place), strategyValue ${CHANGE.strategyValue} (replace)`);
    await session.setProjectConfig(CHANGE);

    step("pulumi preview --diff");
    const diff = await stack.preview({ diff: true, onOutput: stream });
    expect(count(diff.changeSummary, "update") === 1, `one in-place update ${show(diff.changeSummary)}`);
    expect(count(diff.changeSummary, "replace") === 1, "one replacement");
    expect(count(diff.changeSummary, "create") === 0 && count(diff.changeSummary, "delete") === 0, "nothing else created or deleted");

    step("pulumi up");
    const apply = await stack.up({ onOutput: stream });
    expect(count(apply.summary.resourceChanges, "update") === 1, `up updated one ${show(apply.summary.resourceChanges)}`);
    expect(count(apply.summary.resourceChanges, "replace") === 1, "up replaced one");
    const after = await stack.outputs();
    expect(after.strategyId?.value !== outputs.strategyId?.value, `the strategy is a new one (${String(after.strategyId?.value)})`);

    step("pulumi refresh");
    const refresh = await stack.refresh({ onOutput: stream });
    expect(refresh.summary.result === "succeeded", `refresh succeeded ${show(refresh.summary.resourceChanges)}`);
    expect(count(refresh.summary.resourceChanges, "delete") === 0, "nothing disappeared");

    step("pulumi preview --expect-no-changes");
    const steady = await stack.preview({ expectNoChanges: true, onOutput: stream });
    expect(count(steady.changeSummary, "same") === RESOURCES, `no changes ${show(steady.changeSummary)}`);

    step("pulumi destroy");
    let destroyOutput = "";
    const destroy = await stack.destroy({
      onOutput: (line) => {
        destroyOutput += line;
        stream(line);
      },
    });
    expect(
      count(destroy.summary.resourceChanges, "delete") === RESOURCES,
      `destroy removed ${RESOURCES} ${show(destroy.summary.resourceChanges)}`,
    );
    expect(/cannot delete bid strategies/.test(destroyOutput), "warning: the strategy stays on the platform");
    expect(/cannot delete campaign groups/.test(destroyOutput), "warning: the group stays on the platform");
    expect(/cannot delete bid modifiers/.test(destroyOutput), "warning: the modifier keeps its last values");
  } finally {
    await stack.workspace.removeStack(stackName, { force: true }).catch(() => undefined);
    await session.close();
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  step("starting the simulator (node bin/simulator/cli.js --port 0)");
  const sim = await startSimulatorProcess();
  process.stdout.write(`    listening on ${sim.url}\n`);
  try {
    await run(sim);
  } finally {
    step("stopping the simulator");
    await sim.stop();
  }
  process.stdout.write(`\n${bold(`demo finished: every step did what it should (${Math.round((Date.now() - started) / 1000)} s)`)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`\n${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
