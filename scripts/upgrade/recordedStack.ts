/**
 * What the recording script and the upgrade suite share: a recorded program made runnable in a fresh
 * directory with its fixed stack and config, and the simulator's records of a recording.
 *
 * The simulator keeps its data in memory, so a recorded state alone would name objects a fresh
 * simulator does not hold. A recording therefore keeps, beside the exported state, the collections
 * the program changed in each account, exactly as the release's `up` left them (`simulator.json`),
 * and the replay starts a simulator seeded with them (`replaySimulatorOptions`). Replaying the
 * program's creates with the current build instead would record the current build's behaviour, not
 * the release's.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { linkRepositoryPackage, openCliSession, writeTypeScriptProgram, type CliResult, type CliSession } from "../driver/cliSession";
import { REPO_ROOT, pulumiBinDir } from "../driver/paths";
import { FIRST_CREATED_ID, SEED_ACCOUNTS, type RunningSimulator, type SimState, type SimulatorOptions } from "../../simulator";
import { seedState } from "../../simulator/fixtures";
import { SIMULATOR_URL, UPGRADE_DIR, UPGRADE_PASSPHRASE, UPGRADE_STACK, UPGRADE_TOKENS, type UpgradeProgram } from "./programs";

/** The files of one recording, in tests/upgrade/recorded/<program>/<version>/. */
export const RECORDING_FILES = {
  /** `pulumi stack export` after `up`. */
  stack: "stack.json",
  /** The simulator's collections the program changed, per account, and the next id it would hand out. */
  simulator: "simulator.json",
  /** The release, the CLI and the base URL the recording was made with. */
  recording: "recording.json",
} as const;

/** `simulator.json`. */
export interface RecordedSimulator {
  readonly nextId: number;
  readonly accounts: Readonly<Record<string, SimState>>;
}

/** `recording.json`. */
export interface RecordingInfo {
  readonly release: string;
  readonly pulumi: string;
  readonly baseUrl: string;
}

/** A recorded program in a directory of its own, with its stack created and configured. */
export interface ProgramRun {
  readonly cli: CliSession;
  /** Runs `pulumi <args>`; a non-zero exit throws with the command's output. */
  pulumi(args: readonly string[], options?: { env?: Readonly<Record<string, string>> }): Promise<CliResult>;
  /** Removes the directory, the Pulumi home and the backend. */
  close(): void;
}

/** The native plugin of the built package, as package.json's `bin` names it. */
function nativePluginMain(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { bin: Record<string, string> };
  return path.join(REPO_ROOT, manifest.bin["pulumi-resource-adplatform"]!);
}

/** Lays out `program` in a fresh directory (the project as a user has it) and returns the directory. */
function layOut(program: UpgradeProgram): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `adplatform-upgrade-${program.name}-`));
  const source = path.join(UPGRADE_DIR, "programs", program.name);
  if (program.runtime === "nodejs") {
    writeTypeScriptProgram(dir, {
      name: `upgrade-${program.name}`,
      description: "A recorded upgrade program",
      index: fs.readFileSync(path.join(source, "index.ts"), "utf8"),
    });
    // The package by name, as `npm install` links it: the serialized shims of a recorded state
    // require `pulumi-adplatform/provider` from here, so they load the build under test.
    linkRepositoryPackage(dir);
  } else {
    if (!fs.existsSync(path.join(pulumiBinDir(), "pulumi-language-yaml"))) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error("no pulumi-language-yaml next to the CLI: scripts/ensure-pulumi builds it from tools/pulumi-yaml (needs Go)");
    }
    const pluginDir = path.join(dir, "plugin-bin");
    fs.mkdirSync(pluginDir);
    fs.symlinkSync(nativePluginMain(), path.join(pluginDir, "pulumi-resource-adplatform"));
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `${fs.readFileSync(path.join(source, "Pulumi.yaml"), "utf8")}\nplugins:\n  providers:\n    - name: adplatform\n      path: ./plugin-bin\n`,
    );
  }
  return dir;
}

/** Opens `program` in a fresh directory and backend, with stack `recorded` configured for the simulator at `baseUrl`. */
export async function openProgram(program: UpgradeProgram, baseUrl: string): Promise<ProgramRun> {
  const dir = layOut(program);
  const cli = openCliSession(dir, { secrets: UPGRADE_TOKENS, extraEnv: { PULUMI_CONFIG_PASSPHRASE: UPGRADE_PASSPHRASE } });
  const pulumi = async (args: readonly string[], options: { env?: Readonly<Record<string, string>> } = {}): Promise<CliResult> => {
    const result = await cli.pulumi(args, options);
    if (result.code !== 0)
      throw new Error(`pulumi ${args.join(" ")} in ${program.name} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
    return result;
  };
  const run: ProgramRun = {
    cli,
    pulumi,
    close() {
      cli.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await pulumi(["stack", "init", UPGRADE_STACK]);
    for (const entry of program.config) {
      await pulumi([
        "config",
        "set",
        ...(entry.secret ? ["--secret"] : []),
        entry.key,
        entry.value === SIMULATOR_URL ? baseUrl : entry.value,
      ]);
    }
  } catch (error) {
    run.close();
    throw error;
  }
  return run;
}

/** The collections of `accounts` that differ from the seed, and the next id the simulator would hand out. */
export function simulatorRecords(sim: RunningSimulator, accounts: readonly string[]): RecordedSimulator {
  const recorded: Record<string, SimState> = {};
  let highest = FIRST_CREATED_ID - 1;
  for (const account of accounts) {
    const seeded = seedState(seedContext(account));
    const now = sim.state(account);
    const changed: SimState = {};
    for (const [collection, records] of Object.entries(now)) {
      if (JSON.stringify(records) === JSON.stringify(seeded[collection] ?? [])) continue;
      changed[collection] = records;
      for (const record of records) highest = Math.max(highest, Number(record.id) || 0);
    }
    recorded[account] = changed;
  }
  return { nextId: highest + 1, accounts: recorded };
}

/** Simulator options that hold, over the seed, the records a recording's release left. */
export function replaySimulatorOptions(recorded: RecordedSimulator): Partial<SimulatorOptions> {
  return {
    fixtures: (ctx) => ({ ...seedState(ctx), ...structuredClone(recorded.accounts[ctx.account] ?? {}) }),
    firstCreatedId: recorded.nextId,
  };
}

function seedContext(account: string): { account: string; companyId: string } {
  const seeded = SEED_ACCOUNTS.find((a) => a.account === account);
  if (seeded === undefined) throw new RangeError(`no seeded account "${account}"`);
  return { account, companyId: seeded.companyId };
}

/** The tokens of `UPGRADE_TOKENS` that `text` holds in clear. */
export function tokensInClear(text: string): string[] {
  return UPGRADE_TOKENS.filter((token) => text.includes(token));
}
