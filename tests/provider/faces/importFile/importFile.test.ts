/**
 * The import file from rows (provider/faces/importFile/): the CSV read as an account export writes
 * it, each row checked by the kind's definition and refused naming its line and field, groups read
 * from the simulator over loopback HTTP (their state as an import by id records it, `items` from
 * the row), and nothing written unless every row passes.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { resolveSettings } from "../../../../provider/configuration/settings";
import { buildImportFile, lifecycleReader, rowsOfIds, writeImportFile } from "../../../../provider/faces/importFile/build";
import { parseImportFileArgs } from "../../../../provider/faces/importFile/cli";
import { parseCsv } from "../../../../provider/faces/importFile/csv";
import { entryName } from "../../../../provider/faces/importFile/entries";
import { startSimulator, type RunningSimulator } from "../../../../simulator";

let sim: RunningSimulator;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-file-"));
});

afterAll(async () => {
  await sim?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const reader = () =>
  lifecycleReader(
    resolveSettings([], {
      ADPLATFORM_BASE_URL: sim.url,
      ADPLATFORM_TOKEN: "demo-token",
      ADPLATFORM_JOURNAL_DIR: path.join(dir, "journal"),
    }),
    () => undefined,
  );

/** The writes the simulator received (POST and PATCH of ops 1-4). */
const writes = () => [1, 2, 3, 4].reduce((sum, op) => sum + (sim.requests().operations[String(op)]?.count ?? 0), 0);

describe("the CSV", () => {
  it("reads quoted cells with commas, doubled quotes and line breaks, CRLF, a BOM, and blank lines", () => {
    const table = parseCsv('\uFEFFid,name,settings\r\n601,"Exact, ""CPC""",x\r\n\r\n602,"two\nlines",\n');
    expect(table.columns).toEqual(["id", "name", "settings"]);
    expect(table.rows).toEqual([
      { line: 2, cells: { id: "601", name: 'Exact, "CPC"', settings: "x" } },
      { line: 4, cells: { id: "602", name: "two\nlines", settings: "" } },
    ]);
  });

  it("refuses an unclosed quote, a repeated column and a line longer than the header, naming the line", () => {
    expect(() => parseCsv('id,name\n1,"open\n')).toThrow("line 2: a quoted field is not closed");
    expect(() => parseCsv("id,id\n1,2\n")).toThrow('line 1: column "id" appears twice');
    expect(() => parseCsv("id\n1,2\n")).toThrow("line 2: 2 cells, but the header names 1 columns");
  });
});

describe("rows to entries", () => {
  it("takes a strategy, a modifier and a variation from their rows, with the state their inputs, sending nothing", async () => {
    const before = sim.requests().total;
    const sources = [
      {
        kind: "BidStrategy" as const,
        origin: "s.csv",
        rows: parseCsv("id,name,strategy,value,max_value\n601,Exact CPC,exact,0.4,0.9\n").rows,
      },
      {
        kind: "BidModifier" as const,
        origin: "m.csv",
        rows: parseCsv('id,value,targeting\n501,1.25,"{""countries"":{""items"":[""DE""],""op"":""in""}}"\n').rows,
      },
      { kind: "AbTestVariation" as const, origin: "v.csv", rows: parseCsv("abTestId,variationId,name\n301,2,Hero B\n").rows },
    ];
    const { file, problems } = await buildImportFile(sources, reader());
    expect(problems).toEqual([]);
    expect(file.resources).toEqual([
      {
        type: "adplatform:index:BidStrategy",
        name: "strategy-601",
        id: "601",
        inputs: { name: "Exact CPC", pricingModel: "cpc", strategy: "exact", value: 0.4, maxValue: 0.9 },
        outputs: { name: "Exact CPC", pricingModel: "cpc", strategy: "exact", value: 0.4, maxValue: 0.9 },
      },
      {
        type: "adplatform:index:BidModifier",
        name: "modifier-501",
        id: "501",
        inputs: { bidModifierId: "501", value: "1.25", targeting: { countries: { items: ["DE"], op: "in" } } },
        outputs: { bidModifierId: "501", value: "1.25", targeting: { countries: { items: ["DE"], op: "in" } } },
      },
      {
        type: "adplatform:index:AbTestVariation",
        name: "variation-301-2",
        id: "301/2",
        inputs: { abTestId: "301", variationId: "2", name: "Hero B" },
        outputs: { abTestId: "301", variationId: "2", name: "Hero B" },
      },
    ]);
    expect(sim.requests().total).toBe(before);
  });

  it("reads a group by id through the API and takes items from its row; by id alone it has no items", async () => {
    const gets = () => sim.requests().operations["19"]?.count ?? 0;
    const before = { gets: gets(), writes: writes() };
    const sources = [
      {
        kind: "CampaignGroup" as const,
        origin: "g.csv",
        rows: parseCsv('id,name,items\n701,Summer sale,"[""5001"",""5002"",""5003""]"\n').rows,
      },
      { kind: "CampaignGroup" as const, origin: "--ids", rows: rowsOfIds(["702"]) },
    ];
    const { file, problems } = await buildImportFile(sources, reader());
    expect(problems).toEqual([]);
    expect(file.resources[0]).toEqual({
      type: "adplatform:index:CampaignGroup",
      name: "group-701",
      id: "701",
      inputs: { name: "Summer sale", color: "#ff8800", items: ["5001", "5002", "5003"] },
      outputs: expect.objectContaining({
        name: "Summer sale",
        color: "#ff8800",
        size: 3,
        companyId: "7001",
        items: ["5001", "5002", "5003"],
      }),
    });
    expect(file.resources[1]?.inputs).toEqual({ name: "Retargeting", color: "#3366cc" });
    expect(file.resources[1]?.outputs).not.toHaveProperty("items");
    expect(gets()).toBe(before.gets + 2);
    expect(writes()).toBe(before.writes);
  });

  it("refuses every row the schema refuses, naming its line and field, a contradicted group and a repeated object", async () => {
    const sources = [
      {
        kind: "BidStrategy" as const,
        origin: "s.csv",
        rows: parseCsv("id,name,strategy,value,max_value\n601,A,exact,abc,1\n,B,exact,1,1\n").rows,
      },
      { kind: "BidModifier" as const, origin: "m.csv", rows: parseCsv("id,name\n501,\n").rows },
      { kind: "AbTestVariation" as const, origin: "v.csv", rows: parseCsv('ab_test_id,id,settings\n301,2,"[1]"\n').rows },
      { kind: "CampaignGroup" as const, origin: "g.csv", rows: parseCsv("id,color,items\n701,#000000,\n999999,,\n702,,\n702,,\n").rows },
    ];
    const { file, problems } = await buildImportFile(sources, reader());
    expect(problems).toEqual([
      's.csv: row 2 (BidStrategy 601): value: must be a decimal string such as "1.50"',
      "s.csv: row 3 (BidStrategy): id: is required",
      "m.csv: row 2 (BidModifier 501): (row): at least one field must be sent: set at least one of name, value, maxValue, targeting, containers, tags",
      "v.csv: row 2 (AbTestVariation 301/2): settings: must be an object, got an array",
      'g.csv: row 2 (CampaignGroup 701): color: is "#ff8800" on the platform but "#000000" in the row',
      "g.csv: row 3 (CampaignGroup 999999): the platform has no campaign group with this id",
      "g.csv: row 5 (CampaignGroup 702): the same object as g.csv row 4",
    ]);
    expect(file.resources.map((entry) => entry.id)).toEqual(["702"]);
  });
});

describe("the command's arguments and file", () => {
  it("gives each --csv and --ids the kind before it, and refuses what it cannot use before reading any row", () => {
    const files: Record<string, string> = {
      "s.csv": "id,name,strategy,value,max_value\n601,A,exact,1,1\n",
      "bad.csv": "id,company_id\n601,7001\n",
    };
    const read = (file: string) => files[file]!;
    const { sources, out } = parseImportFileArgs(
      ["--kind", "BidStrategy", "--csv", "s.csv", "--kind", "CampaignGroup", "--ids", "701, 702", "--out", "f.json"],
      read,
    );
    expect(out).toBe("f.json");
    expect(sources.map((s) => [s.kind, s.origin, s.rows.length])).toEqual([
      ["BidStrategy", "s.csv", 1],
      ["CampaignGroup", "--ids", 2],
    ]);
    expect(() => parseImportFileArgs(["--kind", "BidStrategy", "--csv", "bad.csv", "--out", "f"], read)).toThrow(
      'bad.csv: no field of BidStrategy is named "company_id"',
    );
    expect(() => parseImportFileArgs(["--kind", "BidStrategy", "--ids", "601", "--out", "f"], read)).toThrow(
      "the API cannot read a BidStrategy, so an id alone says nothing of its fields: give them in a --csv",
    );
    expect(() => parseImportFileArgs(["--csv", "s.csv", "--out", "f"], read)).toThrow("give --kind first");
    expect(() => parseImportFileArgs(["--kind", "Nope", "--out", "f"], read)).toThrow('--kind "Nope": one of');
    expect(() => parseImportFileArgs(["--kind", "BidStrategy", "--csv", "s.csv"], read)).toThrow("--out <file> is required");
  });

  it("writes a new private file and never replaces one", () => {
    const file = path.join(dir, "import.json");
    writeImportFile(file, { resources: [] });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual({ resources: [] });
    expect(() => writeImportFile(file, { resources: [] })).toThrow(/EEXIST/);
  });

  it("names entries by kind and id", () => {
    expect(entryName("AbTestVariation", "301/2")).toBe("variation-301-2");
    expect(entryName("CampaignGroup", "701")).toBe("group-701");
  });
});
