/**
 * The list of objects left on the platform (provider/resources/journal/store/leftBehindList.ts) and the command that
 * reads it (provider/faces/leftBehindList/), against a real journal directory and a real
 * `redis-server`: what the provider writes on its fallback ladder, what the command lists for an
 * account and a stack (text and JSON), marking an object cleaned up in every place, and bad input
 * (an unknown stack, an unreadable place, no token) answered with one line that changes nothing.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { accountKey } from "../../../../provider/client";
import {
  journalAccount,
  leftBehindPlaces,
  leftBehindWriter,
  readLeftBehind,
  type LeftBehindObject,
} from "../../../../provider/resources/journal/store";
import { leftBehindCommand } from "../../../../provider/faces/leftBehindList/cli";
import { parseListArgs } from "../../../../provider/faces/leftBehindList/listing";
import { writeFileAtomically } from "../../../../provider/infrastructure";
import { setFallbackWarningSink } from "../../../../provider/infrastructure/warnings";
import { closedPort } from "../../../helpers/closedPort";
import { useRedisServer } from "../../../helpers/redisServer";

jest.setTimeout(60_000);

const redis = useRedisServer();
const BASE_URL = "http://127.0.0.1:9";
const TOKEN = "tok-left-behind-7c1d";
const ACCOUNT = journalAccount(accountKey(BASE_URL, TOKEN));

// A Redis given up warns once per process (the deployment's warning, tested with the client).
let previousSink: ReturnType<typeof setFallbackWarningSink>;
beforeAll(() => (previousSink = setFallbackWarningSink(() => undefined)));
afterAll(() => setFallbackWarningSink(previousSink));

let journalDir: string;
beforeEach(async () => {
  journalDir = fs.mkdtempSync(path.join(os.tmpdir(), "adp-left-"));
  await redis.raw.flushall();
});
afterEach(() => fs.rmSync(journalDir, { recursive: true, force: true }));

const object = (over: Partial<LeftBehindObject> = {}): LeftBehindObject => ({
  format: 1,
  account: ACCOUNT,
  kind: "BidStrategy",
  id: "601",
  name: "Nightly",
  project: "ads",
  stack: "dev",
  urn: "urn:pulumi:dev::ads::adplatform:index:BidStrategy::nightly",
  leftAt: Date.parse("2026-11-28T10:00:00Z"),
  change: "replaced",
  replacedBy: "602",
  ...over,
});

/** Runs the command with the test's places and account; returns its exit code and output. */
async function command(args: string[], env: Record<string, string | undefined> = {}) {
  let out = "";
  let err = "";
  const code = await leftBehindCommand(
    args,
    { ADPLATFORM_BASE_URL: BASE_URL, ADPLATFORM_TOKEN: TOKEN, ADPLATFORM_JOURNAL_DIR: journalDir, ...env },
    (text) => (out += text),
    (text) => (err += text),
    Date.parse("2026-11-29T08:00:00Z"),
  );
  return { code, out, err };
}

/** Every file under the journal directory with its text, to show a command changed nothing. */
const snapshot = () =>
  fs.existsSync(path.join(journalDir, "left-behind"))
    ? fs
        .readdirSync(path.join(journalDir, "left-behind"))
        .sort()
        .map((name) => [name, fs.readFileSync(path.join(journalDir, "left-behind", name), "utf8")])
    : [];

describe("the list's places", () => {
  it("keeps objects and stacks in private files of the journal directory, never naming the token", async () => {
    const writer = leftBehindWriter({ journalDir });
    await writer.put(object());
    await writer.noteStack({ account: ACCOUNT, project: "ads", stack: "dev" });
    const dir = path.join(journalDir, "left-behind");
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    for (const name of fs.readdirSync(dir)) {
      expect(fs.statSync(path.join(dir, name)).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(path.join(dir, name), "utf8")).not.toContain(TOKEN);
    }
    expect(await readLeftBehind(leftBehindPlaces({ journalDir }))).toEqual({
      objects: [object()],
      stacks: [{ account: ACCOUNT, project: "ads", stack: "dev" }],
    });
  });

  it("writes to Redis when a limits URL names one, with no expiry, and to the directory while it is away", async () => {
    const url = redis.server.url;
    await leftBehindWriter({ journalDir, limitsUrl: url }).put(object());
    expect(await redis.raw.hlen("adplatform:left-behind:objects")).toBe(1);
    expect(await redis.raw.ttl("adplatform:left-behind:objects")).toBe(-1);
    expect(snapshot()).toEqual([]);

    const away = `redis://127.0.0.1:${await closedPort()}`;
    await leftBehindWriter({ journalDir, limitsUrl: away }).put(object({ id: "603", replacedBy: "604" }));
    expect(snapshot().map(([name]) => name)).toEqual([expect.stringMatching(/^object-[0-9a-f]{40}\.json$/)]);
  });

  it("is read on another machine through the same Redis (another journal directory)", async () => {
    const url = redis.server.url;
    const writer = leftBehindWriter({ journalDir, limitsUrl: url });
    await writer.noteStack({ account: ACCOUNT, project: "ads", stack: "dev" });
    await writer.put(object());
    const otherMachine = fs.mkdtempSync(path.join(os.tmpdir(), "adp-left-other-"));
    try {
      const listed = await command(["--stack", "dev", "--json"], { ADPLATFORM_LIMITS_URL: url, ADPLATFORM_JOURNAL_DIR: otherMachine });
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.out)).toEqual([expect.objectContaining({ kind: "BidStrategy", id: "601", stack: "dev" })]);
    } finally {
      fs.rmSync(otherMachine, { recursive: true, force: true });
    }
  });

  it("reads both places: of one object kept in both, the later leaving, and of one leaving the copy marked cleaned up", async () => {
    const places = leftBehindPlaces({ journalDir, limitsUrl: redis.server.url });
    const [shared, machine] = places;
    await shared!.put(object());
    await machine!.put(object({ cleanedUpAt: 1 }));
    await machine!.put(object({ id: "700", leftAt: 5 }));
    await shared!.put(object({ id: "700", leftAt: 9 }));
    const reading = await readLeftBehind(places);
    expect("objects" in reading && reading.objects).toEqual([object({ id: "700", leftAt: 9 }), object({ cleanedUpAt: 1 })]);
  });
});

describe("the list's places against input we did not choose", () => {
  it("reads, of any writes to the two places, each object's latest leaving, and of one leaving the copy marked cleaned up", async () => {
    const write = fc.record({
      place: fc.constantFrom(0, 1),
      id: fc.constantFrom("601", "602", "603"),
      leftAt: fc.integer({ min: 1, max: 5 }),
      cleaned: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(write, { maxLength: 12 }), async (writes) => {
        fs.rmSync(path.join(journalDir, "left-behind"), { recursive: true, force: true });
        await redis.raw.flushall();
        const places = leftBehindPlaces({ journalDir, limitsUrl: redis.server.url });
        for (const w of writes)
          await places[w.place]!.put(object({ id: w.id, leftAt: w.leftAt, ...(w.cleaned ? { cleanedUpAt: 1 } : {}) }));
        const reading = await readLeftBehind(places);
        if (!("objects" in reading)) throw new Error("unreadable");
        // Per place the last write of a key wins (a place keeps one record per key).
        const kept = new Map<string, { leftAt: number; cleaned: boolean }>();
        for (const w of writes) kept.set(`${w.place} ${w.id}`, { leftAt: w.leftAt, cleaned: w.cleaned });
        for (const id of ["601", "602", "603"]) {
          const copies = [0, 1].flatMap((place) => kept.get(`${place} ${id}`) ?? []);
          const read = reading.objects.find((o) => o.id === id);
          if (copies.length === 0) {
            expect(read).toBeUndefined();
            continue;
          }
          const latest = Math.max(...copies.map((c) => c.leftAt));
          expect(read?.leftAt).toBe(latest);
          expect(read?.cleanedUpAt !== undefined).toBe(copies.some((c) => c.leftAt === latest && c.cleaned));
        }
      }),
      { numRuns: 40 },
    );
  });

  it("skips files of another shape, and refuses a link planted at a record's name instead of following it", async () => {
    const writer = leftBehindWriter({ journalDir });
    await writer.put(object());
    const dir = path.join(journalDir, "left-behind");
    fs.writeFileSync(path.join(dir, "object-junk.json"), "{ not json", { mode: 0o600 });
    fs.writeFileSync(path.join(dir, "object-other.json"), JSON.stringify({ format: 9, kind: "BidStrategy" }), { mode: 0o600 });
    expect(await command(["--json"])).toMatchObject({ code: 0 });
    expect(JSON.parse((await command(["--json"])).out)).toHaveLength(1);
    const secret = path.join(os.tmpdir(), `adp-not-ours-${process.pid}.json`);
    fs.writeFileSync(secret, JSON.stringify(object({ id: "999" })));
    try {
      fs.symlinkSync(secret, path.join(dir, "object-planted.json"));
      const refused = await command(["--json"]);
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/^adplatform-left-behind: cannot read the list at .*left-behind: .*\n$/);
      // A write over the link replaces the link, never the file it points at.
      writeFileAtomically(dir, "object-planted.json", "{}");
      expect(fs.lstatSync(path.join(dir, "object-planted.json")).isSymbolicLink()).toBe(false);
      expect(JSON.parse(fs.readFileSync(secret, "utf8"))).toMatchObject({ id: "999" });
    } finally {
      fs.rmSync(secret, { force: true });
    }
  });
});

describe("adplatform-left-behind", () => {
  const seed = async () => {
    const writer = leftBehindWriter({ journalDir });
    await writer.noteStack({ account: ACCOUNT, project: "ads", stack: "dev" });
    await writer.noteStack({ account: ACCOUNT, project: "ads", stack: "prod" });
    await writer.put(object());
    await writer.put(
      object({
        kind: "CampaignGroup",
        id: "701",
        name: "Launch",
        change: "deleted",
        replacedBy: undefined,
        leftAt: Date.parse("2026-11-28T11:00:00Z"),
      }),
    );
    await writer.put(object({ id: "900", stack: "prod", urn: "urn:pulumi:prod::ads::adplatform:index:BidStrategy::nightly" }));
    // Another account's object, in the same directory: never listed for this one.
    await writer.put(object({ account: journalAccount(accountKey(BASE_URL, "another")), id: "601" }));
  };

  it("lists the account's objects for a stack, as text and as JSON", async () => {
    await seed();
    const text = await command(["--stack", "dev"]);
    expect(text).toMatchObject({ code: 0, err: "" });
    expect(text.out).toContain("2 object(s) stack dev left on the platform");
    expect(text.out).toMatch(/ads\/dev\s+BidStrategy\s+601\s+"Nightly"\s+replaced by 602\s+2026-11-28T10:00:00Z/);
    expect(text.out).toMatch(/ads\/dev\s+CampaignGroup\s+701\s+"Launch"\s+deleted from the stack/);
    expect(text.out).not.toContain("900");

    const json = await command(["--json"]);
    expect(json.code).toBe(0);
    const listed = JSON.parse(json.out) as Array<Record<string, unknown>>;
    expect(listed.map((o) => [o.stack, o.kind, o.id])).toEqual([
      ["dev", "BidStrategy", "601"],
      ["prod", "BidStrategy", "900"],
      ["dev", "CampaignGroup", "701"],
    ]);
    expect(listed[0]).not.toHaveProperty("account");
    expect((await command(["--stack", "org/ads/prod", "--json"])).out).toContain('"900"');
  });

  it("lists a known stack that left nothing as empty, and refuses an unknown one in one line", async () => {
    await leftBehindWriter({ journalDir }).noteStack({ account: ACCOUNT, project: "ads", stack: "staging" });
    expect(await command(["--stack", "staging", "--json"])).toMatchObject({ code: 0, out: "[]\n" });
    const before = snapshot();
    const unknown = await command(["--stack", "qa"]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe(
      `adplatform-left-behind: no stack "qa" of this account ran with the list at ${path.join(journalDir, "left-behind")} (known: ads/staging); nothing changed\n`,
    );
    expect(await command(["--stack", "qa", "--cleaned", "601"])).toMatchObject({ code: 1 });
    expect(snapshot()).toEqual(before);
  });

  it("marks an object cleaned up in every place, keeps it, and lists it again only with --all", async () => {
    await seed();
    const env = { ADPLATFORM_LIMITS_URL: redis.server.url };
    const marked = await command(["--cleaned", "701"], env);
    expect(marked).toMatchObject({ code: 0, out: 'marked CampaignGroup 701 "Launch" of stack ads/dev cleaned up\n' });
    expect(await redis.raw.hlen("adplatform:left-behind:objects")).toBe(1);
    expect((await command(["--stack", "dev"], env)).out).not.toContain("701");
    expect((await command(["--stack", "dev", "--all"], env)).out).toMatch(/701 .*cleaned up 2026-11-29T08:00:00Z by \S+/);
    // The directory alone (Redis not named) says so too.
    expect((await command(["--stack", "dev", "--all"])).out).toMatch(/701 .*cleaned up/);
    expect(await command(["--cleaned", "701"], env)).toMatchObject({ code: 0, out: expect.stringContaining("already") });
  });

  it("answers a wrong id, an id two kinds share, and a bad argument with one line, changing nothing", async () => {
    await seed();
    await leftBehindWriter({ journalDir }).put(
      object({ kind: "CampaignGroup", id: "601", name: "Other", change: "deleted", replacedBy: undefined }),
    );
    const before = snapshot();
    const missing = await command(["--cleaned", "404"]);
    expect(missing).toMatchObject({
      code: 1,
      err: `adplatform-left-behind: no object "404" is listed for this account's stacks; nothing changed\n`,
    });
    const shared = await command(["--cleaned", "601", "--stack", "dev"]);
    expect(shared.code).toBe(1);
    expect(shared.err).toMatch(
      /^adplatform-left-behind: 601 names 2 objects \(BidStrategy of ads\/dev, CampaignGroup of ads\/dev\): give --kind/,
    );
    expect(shared.err.trim().split("\n")).toHaveLength(1);
    expect(await command(["--stack"])).toMatchObject({
      code: 1,
      err: "adplatform-left-behind: --stack needs a value (--help shows the usage)\n",
    });
    expect(await command(["--kind", "BidStrategy"])).toMatchObject({ code: 1 });
    expect(snapshot()).toEqual(before);
    expect(await command(["--cleaned", "601", "--kind", "CampaignGroup"])).toMatchObject({ code: 0 });
  });

  it("refuses an unreadable place and a missing token in one line", async () => {
    const away = await command([], { ADPLATFORM_LIMITS_URL: `redis://:pw-secret@127.0.0.1:${await closedPort()}` });
    expect(away.code).toBe(1);
    expect(away.err).toMatch(/^adplatform-left-behind: cannot read the list at redis:\/\/127\.0\.0\.1:\d+.*\n$/);
    expect(away.err).not.toContain("pw-secret");

    fs.mkdirSync(path.join(journalDir, "left-behind"), { mode: 0o777 });
    fs.chmodSync(path.join(journalDir, "left-behind"), 0o777);
    const open = await command([]);
    expect(open.code).toBe(1);
    expect(open.err).toMatch(/^adplatform-left-behind: cannot read the list at .*left-behind: .*writable by group or others.*\n$/);

    expect(await command([], { ADPLATFORM_TOKEN: undefined })).toMatchObject({
      code: 1,
      err: "adplatform-left-behind: set ADPLATFORM_TOKEN (and ADPLATFORM_BASE_URL) to the account's: the list is kept per account\n",
    });
  });

  it("parses any arguments into a request or a usage line, never throwing", () => {
    const word = fc.oneof(fc.constantFrom("--stack", "--json", "--all", "--cleaned", "--kind", "BidStrategy", "dev", ""), fc.string());
    fc.assert(
      fc.property(fc.array(word, { maxLength: 6 }), (args) => {
        const parsed = parseListArgs(args);
        if ("usage" in parsed) expect(parsed.usage).not.toContain("\n");
        else expect(typeof parsed.json).toBe("boolean");
      }),
    );
  });
});
