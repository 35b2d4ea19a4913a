/**
 * A failing data source in a program reads as one clear error, through the real CLI and the Node.js
 * language host (the Automation API's inline programs print errors their own way, so this path is
 * tested as users run it): `pulumi preview` of a TypeScript program whose read fails because of a
 * wrong token, a base URL that is not https:// (refused, nothing sent) or a port nothing listens on
 * exits non-zero with at most 5 lines under "Diagnostics:", naming what to fix, without stack
 * lines, inspected promises or Node warnings; `ADPLATFORM_DEBUG=1` gives back the stack. Each case
 * runs the promise form (`await getZone(...)`) and the Output form (`getZoneOutput(...)` feeding a
 * resource and a stack output).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  requireLanguageHost,
  linkRepositoryPackage,
  openCliSession,
  writeTypeScriptProgram,
  type CliResult,
  type CliSession,
} from "../../scripts/driver/cliSession";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { closedPort } from "../helpers/closedPort";
import { E2E_TIMEOUT_MS, TOKEN } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

/** The program: config `form` picks the promise form or the Output form. */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as adp from "pulumi-adplatform";

const form = new pulumi.Config().require("form");

// The Output form, at the top of the program: feeds a resource and a stack output.
const zone = form === "output" ? adp.getZoneOutput({ id: "1001" }) : undefined;
if (zone) {
  new adp.CampaignGroup("zone-group", { name: zone.apply((z) => \`Zone \${z.name}\`), color: "#22aa44", items: ["5101"] });
}

// The promise form, awaited in the program's entry point.
export = async () => {
  if (zone) return { zoneName: zone.name };
  const read = await adp.getZone({ id: "1001" });
  return { zoneName: read.name };
};
`;

/** A token the simulator does not know; it must appear nowhere in the output. */
const WRONG_TOKEN = "wrong-token-c41e9b";

/**
 * The lines of the "Diagnostics:" section, up to the next section ("Resources:"), trailing blank
 * lines dropped: blank lines between messages count, since each would mean one more message.
 */
function diagnostics(stdout: string): string[] {
  const lines = stdout.split("\n").map((line) => line.replace(/\r$/, ""));
  const start = lines.indexOf("Diagnostics:");
  if (start < 0) return [];
  const section: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line !== "" && !line.startsWith(" ")) break;
    section.push(line);
  }
  while (section.length > 0 && section[section.length - 1] === "") section.pop();
  return section;
}

let sim: RunningSimulator;
let workDir: string;
let cli: CliSession;
let port: number;

beforeAll(async () => {
  requireLanguageHost();
  sim = await startSimulator({ port: 0 });
  port = await closedPort();
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-dserrors-"));
  writeTypeScriptProgram(workDir, { name: "adplatform-dserrors", description: "A program whose data source fails", index: PROGRAM });
  // npm run test:e2e builds the package first; the links reach it without an install.
  linkRepositoryPackage(workDir);
  cli = openCliSession(workDir);
  const init = await cli.pulumi(["stack", "init", "dev"]);
  if (init.code !== 0) throw new Error(`pulumi stack init exited ${init.code}:\n${init.stdout}\n${init.stderr}`);
}, E2E_TIMEOUT_MS);

afterAll(async () => {
  cli?.close();
  await sim?.close();
  if (workDir !== undefined) fs.rmSync(workDir, { recursive: true, force: true });
});

/** Sets the stack config of one case; a failed `config set` fails the test. */
async function configure(settings: Record<string, { value: string; secret?: boolean }>): Promise<void> {
  for (const [key, { value, secret }] of Object.entries(settings)) {
    const result = await cli.pulumi(["config", "set", ...(secret ? ["--secret"] : []), key, value]);
    if (result.code !== 0) throw new Error(`pulumi config set ${key} exited ${result.code}:\n${result.stderr}`);
  }
}

/** Runs `pulumi preview` of `form` with these API settings. */
async function preview(
  form: "promise" | "output",
  api: { baseUrl: string; token: string },
  env: Record<string, string> = {},
): Promise<CliResult> {
  await configure({
    form: { value: form },
    "adplatform:baseUrl": { value: api.baseUrl },
    "adplatform:token": { value: api.token, secret: true },
  });
  return cli.pulumi(["preview"], { env });
}

/** What every failing read's output must show, and must not. */
function expectOneClearError(result: CliResult, token: string, says: RegExp, names: readonly string[]): void {
  const output = `${result.stdout}\n${result.stderr}`;
  expect(result.code).not.toBe(0);
  const lines = diagnostics(result.stdout);
  // The resource line, the error's message, its remedy line: at most 5 lines in all.
  expect(lines.length).toBeGreaterThanOrEqual(2);
  expect(lines.length).toBeLessThanOrEqual(5);
  expect(lines[0]).toMatch(/^ {2}pulumi:pulumi:Stack \(adplatform-dserrors-dev\):$/);
  expect(lines[1]).toMatch(/^ {4}error: /);
  const text = lines.join("\n");
  expect(text).toMatch(says);
  for (const name of names) expect(text).toContain(name);
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toContain("[Circular");
  expect(output).not.toContain("PromiseRejectionHandledWarning");
  expect(output).not.toContain("unhandled exception");
  expect(output).not.toContain(token);
}

describe.each(["promise", "output"] as const)("the %s form", (form) => {
  test("a wrong token: the platform's 401, and the token setting to fix", async () => {
    const result = await preview(form, { baseUrl: sim.url, token: WRONG_TOKEN });
    expectOneClearError(result, WRONG_TOKEN, /getZone: GET \/v2\/adex\/zones\/1001 failed: 401 Unauthorized/, [
      "adplatform:token",
      "ADPLATFORM_TOKEN",
      "pulumi config set --secret adplatform:token",
    ]);
  });

  test("a base URL that is not https:// nor loopback: refused before sending, and the base URL to fix", async () => {
    const result = await preview(form, { baseUrl: "http://example.com", token: TOKEN });
    expectOneClearError(
      result,
      TOKEN,
      /getZone: GET \/v2\/adex\/zones\/1001 failed: refusing to send the API token over plain http:\/\/ to example\.com/,
      ["adplatform:baseUrl", "ADPLATFORM_BASE_URL"],
    );
  });

  test("a port nothing listens on: the host and port, and the base URL to fix", async () => {
    const result = await preview(form, { baseUrl: `http://127.0.0.1:${port}`, token: TOKEN });
    expectOneClearError(result, TOKEN, new RegExp(`connection refused \\(ECONNREFUSED\\) at 127\\.0\\.0\\.1:${port}\\b`), [
      "adplatform:baseUrl",
      "ADPLATFORM_BASE_URL",
    ]);
  });
});

test("ADPLATFORM_DEBUG=1 shows the stack, and still not the token", async () => {
  const result = await preview("promise", { baseUrl: sim.url, token: WRONG_TOKEN }, { ADPLATFORM_DEBUG: "1" });
  const output = `${result.stdout}\n${result.stderr}`;
  expect(result.code).not.toBe(0);
  expect(output).toMatch(/getZone: GET \/v2\/adex\/zones\/1001 failed: 401 Unauthorized/);
  expect(output).toContain("adplatform:token");
  expect(output).toMatch(/^\s+at /m);
  expect(output).not.toContain(WRONG_TOKEN);
});
