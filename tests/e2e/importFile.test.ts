/**
 * Bulk adoption from one file through the real CLI against the simulator, with the platform's
 * writes counted: `adplatform-import-file` writes the import file from CSVs of the seeded objects
 * (it reads only the groups); `pulumi import --file` takes all four kinds into a native stack
 * without a read where the entry carries outputs, and group 702, given without outputs, by its read
 * with `items` from the file; the code Pulumi writes compiles and previews with no changes; and a
 * dynamic program declares the same objects with `adoptImportFile`. No import sends a POST or PATCH.
 *
 * Entries with `inputs` and `outputs` need Pulumi CLI 3.254 or later: run this file in the newest
 * combination (scripts/matrix/run newest, which makes the suites' CLI the newest one), or point
 * `ADPLATFORM_IMPORT_FILE_PULUMI_BIN` at a newest CLI's bin dir. With an older CLI the native import
 * is asserted to fail as documented (the read refused, naming the file's inputs and outputs), never skipped.
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import * as fs from "node:fs";
import * as path from "node:path";
import { requireLanguageHost } from "../../scripts/driver/cliSession";
import { REPO_ROOT } from "../../scripts/driver/paths";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { E2E_TIMEOUT_MS, TOKEN, openTypeScriptStack, pulumiIn, type TypeScriptStack } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

/** The CLI this file runs: the newest one named by the environment, else the suites' own. */
const CLI_OVERRIDE = process.env.ADPLATFORM_IMPORT_FILE_PULUMI_BIN;
const savedPulumiBin = process.env.PULUMI_BIN;
if (CLI_OVERRIDE !== undefined && CLI_OVERRIDE !== "") process.env.PULUMI_BIN = CLI_OVERRIDE;

const COMMAND = path.join(REPO_ROOT, "bin", "provider", "faces", "importFile", "cli.js");

/** The seeded objects as an account export lists them (simulator/fixtures/adex.ts). */
const CSV: Record<string, string> = {
  "strategies.csv":
    "id,name,pricing_model,strategy,value,max_value\n601,Exact CPC,cpc,exact,0.4,0.9\n602,Ten percent up,cpc,percent_add,10,1.5\n",
  "modifiers.csv":
    'id,name,value,max_value,targeting,containers,tags\n501,DACH uplift,1.25,2.5000,"{""countries"":{""items"":[""DE"",""AT"",""CH""],""op"":""in""}}","[""100""]",[]\n',
  "variations.csv": "ab_test_id,id,name\n302,1,Checkout control\n",
  "groups.csv": 'id,items\n701,"[""5001"",""5002"",""5003""]"\n702,"[""5010""]"\n',
};

let sim: RunningSimulator;
let native: TypeScriptStack;
let work: string;

/** POSTs and PATCHes of ops 1-4 the simulator received (account `demo`). */
const writes = () => [1, 2, 3, 4].reduce((sum, op) => sum + (sim.requests().operations[String(op)]?.count ?? 0), 0);
const groupReads = () => sim.requests().operations["19"]?.count ?? 0;
const patches = () => [1, 4].reduce((sum, op) => sum + (sim.requests().operations[String(op)]?.count ?? 0), 0);

/** `pulumi version` of the CLI the sessions run, as [major, minor]. */
function cliVersion(stack: TypeScriptStack): Promise<[number, number]> {
  return pulumiIn(stack.cli, ["version"]).then(({ stdout }) => {
    const match = /v?(\d+)\.(\d+)\./.exec(stdout);
    if (match === null) throw new Error(`cannot read the CLI's version from ${JSON.stringify(stdout)}`);
    return [Number(match[1]), Number(match[2])];
  });
}

beforeAll(async () => {
  requireLanguageHost();
  sim = await startSimulator({ port: 0 });
  native = await openTypeScriptStack(
    sim.url,
    {
      name: "adplatform-import-file",
      description: "Bulk import from one file",
      index: 'import * as adplatform from "pulumi-adplatform-native";\n',
    },
    { face: "native" },
  );
  work = path.join(native.dir, "export");
  fs.mkdirSync(work);
  for (const [name, text] of Object.entries(CSV)) fs.writeFileSync(path.join(work, name), text);
});

afterAll(async () => {
  native?.close();
  await sim?.close();
  if (savedPulumiBin === undefined) delete process.env.PULUMI_BIN;
  else process.env.PULUMI_BIN = savedPulumiBin;
});

/** Runs the command (asynchronously: the simulator answers from this process). */
const runCommand = promisify(execFile);

it("writes the import file from CSVs of the seeded objects, reading only the groups", async () => {
  const before = { writes: writes(), reads: groupReads() };
  const args = ["--kind", "BidStrategy", "--csv", "strategies.csv", "--kind", "BidModifier", "--csv", "modifiers.csv"];
  args.push(
    "--kind",
    "AbTestVariation",
    "--csv",
    "variations.csv",
    "--kind",
    "CampaignGroup",
    "--csv",
    "groups.csv",
    "--out",
    "import.json",
  );
  const env = { ...process.env, ADPLATFORM_BASE_URL: sim.url, ADPLATFORM_TOKEN: TOKEN, ADPLATFORM_JOURNAL_DIR: path.join(work, "journal") };
  const printed = (await runCommand(process.execPath, [COMMAND, ...args], { cwd: work, env, encoding: "utf8" })).stdout;
  expect(printed).toContain("wrote import.json: 6 resource(s)");
  const file = JSON.parse(fs.readFileSync(path.join(work, "import.json"), "utf8"));
  expect(file.resources.map((r: { name: string }) => r.name)).toEqual([
    "strategy-601",
    "strategy-602",
    "modifier-501",
    "variation-302-1",
    "group-701",
    "group-702",
  ]);
  expect(groupReads()).toBe(before.reads + 2);
  expect(writes()).toBe(before.writes);
  // A row the schema refuses is named by line and field, and nothing is written.
  fs.writeFileSync(path.join(work, "bad.csv"), "id,name,strategy,value,max_value\n603,Bad,exact,abc,1\n");
  let refused = "";
  try {
    await runCommand(process.execPath, [COMMAND, "--kind", "BidStrategy", "--csv", "bad.csv", "--out", "bad.json"], {
      cwd: work,
      env,
      encoding: "utf8",
    });
  } catch (error) {
    refused = String((error as { stderr: string }).stderr);
  }
  expect(refused).toContain('bad.csv: row 2 (BidStrategy 603): value: must be a decimal string such as "1.50"');
  expect(fs.existsSync(path.join(work, "bad.json"))).toBe(false);
});

it("imports all four kinds with pulumi import --file, sending no write, and the code it writes previews with no changes", async () => {
  const file = JSON.parse(fs.readFileSync(path.join(work, "import.json"), "utf8"));
  // Group 702 given without outputs, as a hand-written entry may be: read by id, items from the file.
  const g702 = file.resources.find((r: { id: string }) => r.id === "702");
  delete g702.outputs;
  g702.inputs = { items: ["5010"] };
  fs.writeFileSync(path.join(native.dir, "import.json"), JSON.stringify(file));
  const before = { writes: writes(), reads: groupReads() };
  const [major, minor] = await cliVersion(native);
  const out = path.join(native.dir, "imported.ts");
  const imported = await pulumiIn(native.cli, ["import", "--file", "import.json", "--yes", "--out", out], { mayFail: true });
  if (major === 3 && minor < 254) {
    // An older CLI ignores the entries' inputs and outputs and asks for a read the API cannot answer.
    expect(imported.code).not.toBe(0);
    expect(imported.stdout + imported.stderr).toContain('Give them in an import file entry with "inputs" and "outputs"');
    expect(writes()).toBe(before.writes);
    return;
  }
  expect(imported.code).toBe(0);
  // Only 702 is read (by the import's preview and its update); the entries with outputs are not.
  const reads = (sim.requests().operations["19"]?.calls ?? []).slice(before.reads).map((call) => call.path);
  expect(reads.length).toBeGreaterThan(0);
  expect(new Set(reads)).toEqual(new Set(["/v2/adex/groups/702"]));
  expect(writes()).toBe(before.writes);
  const state = JSON.parse((await pulumiIn(native.cli, ["stack", "export"])).stdout).deployment.resources as {
    id?: string;
    outputs?: Record<string, unknown>;
  }[];
  expect(state.filter((r) => r.id !== undefined && ["601", "602", "501", "302/1", "701", "702"].includes(r.id)).length).toBe(6);
  expect(state.find((r) => r.id === "702")?.outputs).toMatchObject({ name: "Retargeting", size: 1 });

  const generated = fs.readFileSync(out, "utf8");
  expect(generated).toMatch(/new adplatform\.BidStrategy\("strategy-601", \{[^}]*name: "Exact CPC"/s);
  expect(generated).toMatch(/new adplatform\.CampaignGroup\("group-702", \{[^;]*items: \["5010"\]/s);
  fs.appendFileSync(path.join(native.dir, "index.ts"), `\n${generated.replace(/^import .*\n/gm, "")}`);
  execFileSync(process.execPath, [path.join(native.dir, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", native.dir], {
    stdio: "pipe",
  });
  await pulumiIn(native.cli, ["preview", "--expect-no-changes"]);
  expect(writes()).toBe(before.writes);
});

it("declares the same objects in a dynamic program with adoptImportFile: nothing created, one PATCH per modifier and variation", async () => {
  const dynamic = await openTypeScriptStack(sim.url, {
    name: "adplatform-adopt-file",
    description: "Bulk adoption with the dynamic resources",
    index:
      'import { adoptImportFile } from "pulumi-adplatform";\n\nexport const ids = Object.fromEntries(Object.entries(adoptImportFile("import.json")).map(([name, r]) => [name, r.id]));\n',
  });
  try {
    fs.copyFileSync(path.join(work, "import.json"), path.join(dynamic.dir, "import.json"));
    const before = { writes: writes(), patches: patches() };
    await pulumiIn(dynamic.cli, ["up", "--yes", "--skip-preview"]);
    const outputs = JSON.parse((await pulumiIn(dynamic.cli, ["stack", "output", "--json"])).stdout);
    expect(outputs.ids).toEqual({
      "strategy-601": "601",
      "strategy-602": "602",
      "modifier-501": "501",
      "variation-302-1": "302/1",
      "group-701": "701",
      "group-702": "702",
    });
    // The dynamic resources adopt a modifier or a variation by sending its declared fields (the platform's own values).
    expect(patches()).toBe(before.patches + 2);
    expect(writes()).toBe(before.writes + 2);
    await pulumiIn(dynamic.cli, ["preview", "--expect-no-changes"]);
    expect(writes()).toBe(before.writes + 2);
  } finally {
    dynamic.close();
  }
});
