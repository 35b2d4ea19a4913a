/**
 * The limits directory against another local user (`tests/helpers/otherUser.ts` plays them): one
 * who makes the directory first and plants links at the names the state is written through, and
 * one whose private directory is in the way. A deploy writes through no link, sends its calls,
 * and says once what happened. Against the simulator and real processes of a second uid.
 */
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { accountKey, closeApiClients, getApiClient } from "../../../provider/client";
import { sharedStateDirectory, sharedStateName } from "../../../provider/limiter/limiterStores";
import { setFallbackWarningSink } from "../../../provider/infrastructure/warnings";
import { ensurePrivateDirectory } from "../../../provider/infrastructure";
import { SEED_IDS, startSimulator, type RunningSimulator } from "../../../simulator";
import { itAsOtherUser, runAsOtherUser } from "../../helpers/otherUser";

const CLIENT_JS = resolve(__dirname, "../../../bin/provider/client/index.js");

// Processes of a second user start slowly on a loaded machine; never asserted.
jest.setTimeout(60_000);

let sim: RunningSimulator;
let place: string;
let warnings: string[];
let previousSink: (message: string) => void;
const ownLimitsDir = process.env.ADPLATFORM_LIMITS_DIR;

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

beforeEach(() => {
  // Like /dev/shm: anyone may make a directory in it, nobody may remove another's.
  place = mkdtempSync(join(tmpdir(), "adplatform-limits-place-"));
  chmodSync(place, 0o1777);
  warnings = [];
  previousSink = setFallbackWarningSink((message) => warnings.push(message));
});

afterEach(async () => {
  setFallbackWarningSink(previousSink);
  process.env.ADPLATFORM_LIMITS_DIR = ownLimitsDir;
  await closeApiClients();
  rmSync(place, { recursive: true, force: true });
});

/** The simulator's seeded account. */
const TOKEN = "demo-token";

/** Three reads, as a deploy's refresh makes them; their statuses. */
async function deployLikeCalls(token: string): Promise<number[]> {
  const client = getApiClient({ baseUrl: sim.url, token });
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    statuses.push((await client.call("getCampaignGroup", { pathParams: { id: SEED_IDS.campaignGroups.summer } })).status);
  }
  return statuses;
}

describe("the default limits directory", () => {
  it("is one per user, so no other user's directory is in the way", () => {
    const uid = process.getuid?.();
    const name = uid === undefined ? "pulumi-adplatform-limits" : `pulumi-adplatform-limits-${uid}`;
    expect(sharedStateDirectory({})).toMatch(new RegExp(`/${name}$`));
  });
});

describe("a directory this user does not alone control", () => {
  it("is refused when it is a link, even to a private directory of this user", () => {
    const target = join(place, "real");
    mkdirSync(target, { mode: 0o700 });
    symlinkSync(target, join(place, "link"));
    expect(() => ensurePrivateDirectory(join(place, "link"))).toThrow(/is a symbolic link/);
  });

  it("is refused when group or others may write into it", () => {
    const shared = join(place, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o775);
    expect(() => ensurePrivateDirectory(shared)).toThrow(expect.objectContaining({ code: "ADP_ERR_UNSAFE_DIRECTORY" }));
    expect(() => ensurePrivateDirectory(shared)).toThrow(/writable by group or others \(mode 0775\)/);
  });

  it("is made with mode 0700 when missing", () => {
    const made = join(place, "made", "limits");
    ensurePrivateDirectory(made);
    expect(lstatSync(made).mode & 0o777).toBe(0o700);
  });
});

describe("another user's limits directory", () => {
  itAsOtherUser(
    "made first with links planted at the state's names: the deploy writes through none, sends its calls and warns once",
    async () => {
      const victimDir = mkdtempSync(join(tmpdir(), "adplatform-victim-"));
      try {
        const victim = join(victimDir, "precious.conf");
        writeFileSync(victim, "precious\n", { mode: 0o644 });
        const limits = join(place, "limits");
        const token = TOKEN;
        const name = sharedStateName(accountKey(sim.url, token));
        // The attacker makes the directory open to all and plants links where this process writes.
        const planted = await runAsOtherUser(
          `const fs = require("node:fs");
         const [dir, name, pid, victim] = process.argv.slice(1);
         fs.mkdirSync(dir); fs.chmodSync(dir, 0o777);
         for (const at of [name + ".v3.json." + pid + ".tmp", name + ".v3.json", name + ".v3.json.lock"]) fs.symlinkSync(victim, dir + "/" + at);`,
          [limits, name, String(process.pid), victim],
        );
        expect(planted).toMatchObject({ code: 0, stderr: "" });

        process.env.ADPLATFORM_LIMITS_DIR = limits;
        expect(await deployLikeCalls(token)).toEqual([200, 200, 200]);

        expect(readFileSync(victim, "utf8")).toBe("precious\n");
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toContain(limits);
        expect(warnings[0]).toMatch(/owned by uid 65534/);
        expect(warnings[0]).toMatch(/this process only/);
      } finally {
        rmSync(victimDir, { recursive: true, force: true });
      }
    },
  );

  itAsOtherUser("private to its owner: a deploy of this user sends its calls with one warning instead of failing every call", async () => {
    // Here this test's user (root) owns the directory and the second user deploys.
    chmodSync(place, 0o755);
    const limits = join(place, "limits");
    mkdirSync(limits, { mode: 0o700 });
    const run = await runAsOtherUser(
      `const { getApiClient, closeApiClients } = require(process.argv[1]);
       const [, baseUrl, token, id] = process.argv.slice(1);
       (async () => {
         const client = getApiClient({ baseUrl, token });
         const statuses = [];
         for (let i = 0; i < 3; i++) {
           try { statuses.push((await client.call("getCampaignGroup", { pathParams: { id } })).status); }
           catch (error) { statuses.push(String(error.message)); }
         }
         await closeApiClients();
         process.stdout.write(JSON.stringify(statuses));
       })();`,
      [CLIENT_JS, sim.url, TOKEN, SEED_IDS.campaignGroups.summer],
      { ADPLATFORM_LIMITS_DIR: limits },
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([200, 200, 200]);
    const warned = run.stderr.split("\n").filter((line) => line.startsWith("warning: adplatform:"));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain(limits);
    expect(warned[0]).toMatch(/owned by uid 0/);
  });
});
