/**
 * Upgrades as users make them: each recorded stack (tests/upgrade/recorded/<program>/<release>/,
 * written by `npm run upgrade:record` with that release) is imported into a fresh backend and
 * previewed, refreshed and updated with the current build through the real CLI, against a simulator
 * that holds the objects the release left (simulator.json). Every step must leave the stack as it
 * was: no change, no replacement, no error; then a one-field change must be exactly that update.
 *
 * The recorded TypeScript stacks hold the serialized provider (`__provider`) their release wrote; the
 * dynamic-provider plugin evaluates that text for the refresh's reads, so a refresh that reads the
 * recorded campaign groups proves an old shim still loads the new package.
 *
 * The recording ran against a simulator on another port, so before the first command the recorded
 * base URL is replaced with this run's, in the state's secrets too (`stack export --show-secrets`,
 * then `stack import`), as if the stack had always used it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { UPGRADE_PROGRAMS, UPGRADE_DIR, UPGRADE_TOKENS, recordingDir, type UpgradeProgram } from "../../scripts/upgrade/programs";
import {
  RECORDING_FILES,
  openProgram,
  replaySimulatorOptions,
  tokensInClear,
  type ProgramRun,
  type RecordedSimulator,
  type RecordingInfo,
} from "../../scripts/upgrade/recordedStack";
import { requireLanguageHost } from "../../scripts/driver/cliSession";
import { E2E_TIMEOUT_MS } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

/** Every recorded release of a program. */
function releasesOf(program: UpgradeProgram): string[] {
  const dir = path.join(UPGRADE_DIR, "recorded", program.name);
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

const cases = UPGRADE_PROGRAMS.flatMap((program) => releasesOf(program).map((release) => ({ program, release })));

/** A step of `pulumi preview --json`. */
interface PreviewStep {
  op: string;
  urn: string;
  oldState?: { inputs?: Record<string, unknown> };
  newState?: { inputs?: Record<string, unknown> };
}

/**
 * The inputs a preview step changes. The serialized provider (`__provider`) is left out: it is no
 * field of the object, and that an old one still loads is what the refresh shows.
 */
function changedInputs(step: PreviewStep): string[] {
  const before = step.oldState?.inputs ?? {};
  const after = step.newState?.inputs ?? {};
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((key) => key !== "__provider" && JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .sort();
}

/** The writes (anything but GET) the simulator answered in `accounts`, after `seq`. */
function writesSince(sim: RunningSimulator, accounts: readonly string[], seq: number) {
  return accounts.flatMap((account) =>
    Object.values(sim.requests(account).operations)
      .flatMap((op) => op.calls)
      .filter((call) => call.method !== "GET" && call.seq > seq),
  );
}

/** The highest request sequence number so far. */
function lastSeq(sim: RunningSimulator, accounts: readonly string[]): number {
  const seqs = accounts.flatMap((account) => Object.values(sim.requests(account).operations).flatMap((op) => op.calls.map((c) => c.seq)));
  return Math.max(0, ...seqs);
}

beforeAll(() => requireLanguageHost());

test("every upgrade program has a recording", () => {
  for (const program of UPGRADE_PROGRAMS) expect(releasesOf(program)).not.toHaveLength(0);
});

describe.each(cases)("$program.name recorded with $release", ({ program, release }) => {
  const dir = recordingDir(program, release);
  const recorded = JSON.parse(fs.readFileSync(path.join(dir, RECORDING_FILES.simulator), "utf8")) as RecordedSimulator;
  const info = JSON.parse(fs.readFileSync(path.join(dir, RECORDING_FILES.recording), "utf8")) as RecordingInfo;
  let sim: RunningSimulator;
  let run: ProgramRun;
  let scratch: string;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, ...replaySimulatorOptions(recorded) });
    run = await openProgram(program, sim.url);
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-upgrade-state-"));
    const file = path.join(scratch, "state.json");
    fs.writeFileSync(file, fs.readFileSync(path.join(dir, RECORDING_FILES.stack)));
    await run.pulumi(["stack", "import", "--file", file]);
    // The decrypted state holds only the simulator's seeded tokens (simulator/fixtures), in a private
    // file of a private directory, removed once imported.
    const plain = (await run.pulumi(["stack", "export", "--show-secrets"])).stdout;
    fs.writeFileSync(file, plain.split(info.baseUrl).join(sim.url), { mode: 0o600 });
    await run.pulumi(["stack", "import", "--file", file]);
    fs.rmSync(file);
  });

  afterAll(async () => {
    run?.close();
    if (scratch !== undefined) fs.rmSync(scratch, { recursive: true, force: true });
    await sim?.close();
  });

  test("preview with the current build shows no change", async () => {
    const before = lastSeq(sim, program.accounts);
    const preview = await run.pulumi(["preview", "--diff", "--expect-no-changes"]);
    expect(preview.stdout).not.toMatch(/replace/i);
    expect(writesSince(sim, program.accounts, before)).toEqual([]);
  });

  test("refresh reads the recorded objects and changes nothing", async () => {
    const groupReads = () => program.accounts.reduce((n, account) => n + (sim.requests(account).operations["19"]?.count ?? 0), 0);
    const reads = groupReads();
    const before = lastSeq(sim, program.accounts);
    await run.pulumi(["refresh", "--yes", "--expect-no-changes"]);
    // Campaign groups are the kind with a read (op 19): on the dynamic face through the recorded shim.
    expect(groupReads()).toBeGreaterThan(reads);
    expect(writesSince(sim, program.accounts, before)).toEqual([]);
  });

  test("up with the current build changes nothing and sends no write", async () => {
    const before = lastSeq(sim, program.accounts);
    await run.pulumi(["up", "--yes", "--expect-no-changes"]);
    expect(writesSince(sim, program.accounts, before)).toEqual([]);
  });

  test(`a one-field change (${program.change.resource}.${program.change.property}) is exactly that update`, async () => {
    const { key, value, resource, property } = program.change;
    await run.pulumi(["config", "set", key, value]);
    const preview = JSON.parse((await run.pulumi(["preview", "--json"])).stdout) as { steps: PreviewStep[] };
    const changed = preview.steps.filter((step) => step.op !== "same" && step.op !== "read");
    expect(changed.map((step) => ({ op: step.op, resource: step.urn.split("::").pop(), inputs: changedInputs(step) }))).toEqual([
      { op: "update", resource, inputs: [property] },
    ]);
    const before = lastSeq(sim, program.accounts);
    await run.pulumi(["up", "--yes", "--skip-preview"]);
    const writes = writesSince(sim, program.accounts, before);
    expect(writes.map((call) => ({ method: call.method, fields: Object.keys(call.body as object) }))).toEqual([
      { method: "PATCH", fields: [property] },
    ]);
    await run.pulumi(["preview", "--expect-no-changes"]);
  });

  test("the upgraded state holds no token in clear", async () => {
    const exported = (await run.pulumi(["stack", "export"])).stdout;
    expect(tokensInClear(exported)).toEqual([]);
    expect(UPGRADE_TOKENS.length).toBeGreaterThan(0);
  });
});
