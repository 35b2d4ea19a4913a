/**
 * The compile-time guard that each hand-written result type equals what its zod schema yields
 * (`sdk/dataSources/shapeCheck.ts`). Compiles small probe files in memory with the project's
 * compiler options and checks the diagnostics: an exact match compiles, and every kind of drift
 * fails with a message naming the path.
 */
import * as path from "node:path";
import * as ts from "typescript";

const ROOT = path.resolve(__dirname, "../../..");
const PROBE_DIR = path.join(ROOT, "tests/sdk/dataSources");

function compilerOptions(): ts.CompilerOptions {
  const configPath = path.join(ROOT, "tsconfig.test.json");
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  return { ...parsed.options, noEmit: true };
}

/** Type-checks one in-memory probe placed beside this file; returns its error messages. */
function check(body: string): string[] {
  const file = path.join(PROBE_DIR, "__probe__.ts");
  const source = `
import { z } from "zod";
import { WireId, wireObject, wireRecord } from "../../../provider/catalog";
import type { AssertTrue, SameShape, SdkShape } from "../../../sdk/dataSources/shapeCheck";
const Schema = wireRecord({
  company_id: WireId,
  targeting: wireObject({ countries: wireObject({ items: z.array(z.string()), op: z.string() }) }),
  qps: z.record(z.string(), z.number()),
  end_time: z.string().nullable(),
});
${body}
`;
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, onError, create) =>
    path.resolve(name) === file ? ts.createSourceFile(name, source, version) : getSourceFile(name, version, onError, create);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => path.resolve(name) === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

const exact = `{
  id: string;
  companyId?: string;
  targeting?: { countries?: { items?: string[]; op?: string } };
  qps?: Record<string, number>;
  endTime?: string | null;
}`;

describe("SameShape: written result types cannot drift from the schemas", () => {
  jest.setTimeout(60_000);

  it("accepts a written type that matches exactly, and catches every kind of drift by path", () => {
    const variants: Record<string, string> = {
      exact,
      missing: exact.replace("  companyId?: string;\n", ""),
      extra: exact.replace("  id: string;", "  id: string;\n  colour?: string;"),
      optional: exact.replace("companyId?: string", "companyId: string"),
      nullable: exact.replace("endTime?: string | null", "endTime?: string"),
      nested: exact.replace("items?: string[]", "items?: number[]"),
      record: exact.replace("Record<string, number>", "Record<string, string>"),
      array: exact.replace("items?: string[]", "items?: string"),
    };
    const body = Object.entries(variants)
      .map(([name, type]) => `type _${name} = AssertTrue<SameShape<${type}, SdkShape<typeof Schema>>>;`)
      .join("\n");
    const diagnostics = check(body);
    const errors = diagnostics.join("\n");
    expect(errors).not.toMatch(/_exact/);
    for (const expected of [
      '"companyId: missing from the written type"',
      '"colour: not in the schema"',
      '"companyId: optional on one side only"',
      '"endTime: nullable on one side only"',
      `"targeting.countries.items[]: the written type and the schema's differ"`,
      `"qps[key]: the written type and the schema's differ"`,
      '"targeting.countries.items: an array in the schema only"',
    ]) {
      expect(errors).toContain(expected);
    }
    // One error per drifting variant, none for the exact one.
    expect(diagnostics).toHaveLength(Object.keys(variants).length - 1);
  });
});
