/**
 * The serialized `__provider` is a thin shim (sdk/resources/providerShim.ts): serialized by `@pulumi/pulumi` itself, it holds no token, no absolute path and no
 * captured client, stays small, is byte-identical from two different checkouts, and the plugin
 * resolves the package it requires by name from the program's directory.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  KINDS,
  REPO_ROOT,
  cleanEnv,
  copyBuiltPackage,
  dynamicUrn,
  makeProgramDir,
  serializeProviders,
  startDynamicProviderPlugin,
  startFakeEngine,
  type FakeEngine,
  type Kind,
  type SerializedKind,
} from "../../helpers/dynamicProviderHarness";
import { RECOGNISABLE_TOKEN } from "../../helpers/lifecycleEnv";

// Child processes (serializer, plugin) start slowly on a loaded machine: generous, never asserted.
jest.setTimeout(60_000);

/** A budget per resource: 100 resources stay well under 400 KB of provider text in the state. */
const MAX_PROVIDER_BYTES = 4 * 1024;

let fromRepo: Record<Kind, SerializedKind>;
let engine: FakeEngine;

beforeAll(async () => {
  // Credentials present in the serializing process must not be captured.
  fromRepo = await serializeProviders(
    REPO_ROOT,
    cleanEnv({ ADPLATFORM_TOKEN: RECOGNISABLE_TOKEN, ADPLATFORM_BASE_URL: "http://127.0.0.1:1" }),
  );
  engine = await startFakeEngine();
});
afterAll(async () => {
  await engine.close();
});

it("gives every resource the adplatform module in its type, so URNs read pulumi-nodejs:dynamic/adplatform:<Kind>", () => {
  for (const kind of KINDS) expect(fromRepo[kind].type).toBe(`pulumi-nodejs:dynamic/adplatform:${kind}`);
});

it.each(KINDS)("serializes %s as a small shim that requires the package by name and captures only its kind", (kind) => {
  const text = fromRepo[kind].provider;
  expect(Buffer.byteLength(text)).toBeLessThan(MAX_PROVIDER_BYTES);
  expect(text).toContain('require("pulumi-adplatform/provider").resourceProvider(kind)');
  expect(text).toContain(`kind: "${kind}"`);
  expect(text).not.toContain(RECOGNISABLE_TOKEN);
  expect(text).not.toContain("127.0.0.1");
  // No absolute path: not the checkout, not the temp or home directory, no path-like string literal.
  for (const dir of [REPO_ROOT, os.tmpdir(), os.homedir()]) expect(text).not.toContain(dir);
  expect(text).not.toMatch(/["'`]\/[A-Za-z]/);
  expect(text).not.toMatch(/node_modules|file:\/\//);
  // Nothing of the client, the catalog or zod is captured.
  expect(text).not.toMatch(/undici|zod|getApiClient|Bearer/);
});

it("serializes byte-identical providers from two different checkouts", async () => {
  const first = copyBuiltPackage();
  const second = copyBuiltPackage();
  try {
    const [a, b] = await Promise.all([serializeProviders(first.root), serializeProviders(second.root)]);
    for (const kind of KINDS) {
      expect(a[kind].provider).toBe(b[kind].provider);
      expect(a[kind].provider).toBe(fromRepo[kind].provider);
    }
  } finally {
    first.remove();
    second.remove();
  }
});

it("resolves pulumi-adplatform/provider from the program directory, and fails clearly without it", async () => {
  const urn = dynamicUrn("CampaignGroup", "g");
  const news = { name: "G", color: "#000000", items: ["1"], __provider: fromRepo.CampaignGroup.provider };

  const linked = makeProgramDir(REPO_ROOT);
  const withPackage = await startDynamicProviderPlugin({ cwd: linked.dir, engineAddress: engine.address });
  // A program directory that does not have the package installed.
  const bare = fs.mkdtempSync(path.join(os.tmpdir(), "adp-bare-program-"));
  const withoutPackage = await startDynamicProviderPlugin({ cwd: bare, engineAddress: engine.address });
  try {
    await Promise.all([withPackage.configure({}), withoutPackage.configure({})]);
    expect((await withPackage.check(urn, {}, news)).failures).toEqual([]);
    await expect(withoutPackage.check(urn, {}, news)).rejects.toThrow(/Cannot find module 'pulumi-adplatform\/provider'/);
  } finally {
    await Promise.all([withPackage.close(), withoutPackage.close()]);
    linked.remove();
    fs.rmSync(bare, { recursive: true, force: true });
  }
});
