/**
 * `npm run demo` with the Node.js language host (scripts/demo picks this when scripts/ensure-pulumi
 * has one): the root Pulumi.yaml quickstart through the real `pulumi` commands, typed as a user
 * types them and echoed as `$ pulumi ...`, against a simulator on a free port and a throwaway
 * local backend:
 *
 *   stack init -> config set (token --secret) -> preview --diff -> up -> preview --expect-no-changes
 *   -> config set (one in-place change, one replacement) -> preview --diff -> up -> refresh -> destroy
 *
 * Every step checks what it should have done; the process exits 1 at the first step that did not.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { openCliSession, type CliResult } from "./cliSession";
import { REPO_ROOT } from "./paths";
import { linkPackage, readProject } from "./project";
import { startSimulatorProcess } from "./simulatorProcess";

/** The simulator's seeded token of the `demo` account (simulator/fixtures/README.md). */
const DEMO_TOKEN = "demo-token";

const bold = (text: string): string => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[0m` : text);

function expect(condition: boolean, what: string): void {
  if (!condition) throw new Error(`demo step failed: ${what}`);
  process.stdout.write(`    ok: ${what}\n`);
}

/** Fails the demo unless the command exited 0. */
function succeeded(result: CliResult, what: string): CliResult {
  expect(result.code === 0, `${what} (exit code ${result.code})`);
  return result;
}

async function main(): Promise<void> {
  const started = Date.now();
  const project = readProject(REPO_ROOT);
  linkPackage(project.programDir);
  process.stdout.write(`${bold("==> starting the simulator (node bin/simulator/cli.js --port 0)")}\n`);
  const sim = await startSimulatorProcess();
  process.stdout.write(`    listening on ${sim.url}\n`);
  const cli = openCliSession(REPO_ROOT, { secrets: [DEMO_TOKEN] });
  const stack = `demo-${process.pid}`;
  const run = (args: string[]) => cli.pulumi(args, { echo: true });
  try {
    succeeded(await run(["stack", "init", stack]), "stack created on a local backend");
    succeeded(await run(["config", "set", "adplatform:baseUrl", sim.url]), "base URL set");
    succeeded(await run(["config", "set", "--secret", "adplatform:token", DEMO_TOKEN]), "token set as a secret");

    const preview = succeeded(await run(["preview", "--diff"]), "preview");
    expect(/\+ 5 to create/.test(preview.stdout), "preview plans 5 creates (4 resources and the stack)");

    succeeded(await run(["up", "--yes"]), "up");
    const outputs = JSON.parse(succeeded(await cli.pulumi(["stack", "output", "--json"]), "stack output").stdout) as Record<
      string,
      unknown
    >;
    expect(/^\d+$/.test(String(outputs.strategyId)), `a new bid strategy (id ${String(outputs.strategyId)})`);
    expect(/^\d+$/.test(String(outputs.groupId)), `a new campaign group (id ${String(outputs.groupId)})`);

    succeeded(await run(["preview", "--expect-no-changes"]), "no changes after up");

    succeeded(await run(["config", "set", "modifierValue", "1.65"]), "modifier value changed (PATCH: an in-place update)");
    succeeded(await run(["config", "set", "strategyValue", "15"]), "strategy value changed (no update in the API: a replacement)");
    const diff = succeeded(await run(["preview", "--diff"]), "preview of the change");
    expect(/~ 1 to update/.test(diff.stdout) && /\+-1 to replace/.test(diff.stdout), "one in-place update and one replacement");
    expect(/value\s*:\s*"1\.40" => "1\.65"/.test(diff.stdout), 'the diff shows value: "1.40" => "1.65"');

    succeeded(await run(["up", "--yes"]), "up applies the change");
    succeeded(await run(["refresh", "--yes"]), "refresh");
    succeeded(await run(["preview", "--expect-no-changes"]), "no changes after refresh");

    const destroy = succeeded(await run(["destroy", "--yes"]), "destroy");
    const said = destroy.stdout + destroy.stderr;
    expect(/cannot delete bid strategies/.test(said), "warning: the strategy stays on the platform");
    expect(/cannot delete campaign groups/.test(said), "warning: the group stays on the platform");
  } finally {
    await cli.pulumi(["stack", "rm", "--yes", "--force", stack]);
    fs.rmSync(path.join(REPO_ROOT, `Pulumi.${stack}.yaml`), { force: true });
    cli.close();
    await sim.stop();
  }
  process.stdout.write(`\n${bold(`demo finished: every step did what it should (${Math.round((Date.now() - started) / 1000)} s)`)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`\n${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
