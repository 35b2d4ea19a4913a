/**
 * The `account` argument of the data sources against one simulator with two accounts: a read goes
 * to the account it names, reads are shared per account (the same zone id in two accounts is two
 * reads), the `Output` form waits for the account and its secret token does not make the result
 * secret, and an unusable account fails naming the function and the property, sending nothing.
 */
import * as pulumi from "@pulumi/pulumi";
import { DataSourceCredentialsError, clearReadCache } from "../../../provider/dataSources";
import { Account } from "../../../sdk";
import { getCountries, getZone, getZoneOutput } from "../../../sdk/dataSources";
import { SEED_IDS } from "../../../simulator";
import { callsOf, isSecret, recordingMocks, settle, useDataSourceHarness, SECOND_TOKEN } from "../../helpers/dataSourceHarness";

const OP_ZONE = 13;
const OP_COUNTRIES = 17;
const h = useDataSourceHarness();
beforeAll(async () => {
  await pulumi.runtime.setMocks(recordingMocks(), "project", "stack", false);
});
beforeEach(() => {
  h.sim.reset();
  clearReadCache();
});

const second = () => new Account({ baseUrl: h.sim.url, token: SECOND_TOKEN });

it("reads from the account it names instead of the configured one", async () => {
  const zone = await getZone({ id: SEED_IDS.zones.display, account: second() });
  expect(zone.id).toBe(SEED_IDS.zones.display);
  expect(callsOf(h.sim, OP_ZONE, "second")).toBe(1);
  expect(callsOf(h.sim, OP_ZONE, "demo")).toBe(0);
});

it("shares reads per account: one zone id in two accounts is two reads, twice in one account is one", async () => {
  const id = SEED_IDS.zones.display;
  await Promise.all([getZone({ id }), getZone({ id, account: second() }), getZone({ id, account: second() })]);
  await getCountries({ account: second() });
  await getCountries({ account: second() });
  expect(callsOf(h.sim, OP_ZONE, "demo")).toBe(1);
  expect(callsOf(h.sim, OP_ZONE, "second")).toBe(1);
  expect(callsOf(h.sim, OP_COUNTRIES, "second")).toBe(1);
});

it("getZoneOutput reads from the account once it is known, and the token does not make the result secret", async () => {
  const zone = getZoneOutput({ id: SEED_IDS.zones.rtb, account: second() });
  expect((await settle(zone)).id).toBe(SEED_IDS.zones.rtb);
  expect(await isSecret(zone)).toBe(false);
  expect(callsOf(h.sim, OP_ZONE, "second")).toBe(1);
  // Another secret argument still makes it secret.
  expect(await isSecret(getZoneOutput({ id: pulumi.secret(SEED_IDS.zones.rtb), account: second() }))).toBe(true);
});

it("refuses an account without a token or with a plain-http remote base URL, naming the function and property", async () => {
  const noToken = new Account({ baseUrl: h.sim.url, token: undefined as unknown as string });
  await expect(getZone({ id: SEED_IDS.zones.display, account: noToken })).rejects.toThrow(
    expect.objectContaining({
      name: "DataSourceCredentialsError",
      message: expect.stringMatching(/^getZone: .*account\.token is required/),
    }),
  );
  const remote = new Account({ baseUrl: "http://api.example.com", token: SECOND_TOKEN });
  const error = await settle(getZoneOutput({ id: SEED_IDS.zones.display, account: remote })).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DataSourceCredentialsError);
  expect((error as Error).message).toMatch(/^getZone: .*account\.baseUrl refusing to send the API token over plain http/);
  expect((error as Error).message).not.toContain(SECOND_TOKEN);
  expect(h.sim.requests("demo").total + h.sim.requests("second").total).toBe(0);
});

it("says to check the Account's token when the platform refuses it", async () => {
  const wrong = new Account({ baseUrl: h.sim.url, token: "not-a-known-token" });
  await expect(getZone({ id: SEED_IDS.zones.display, account: wrong })).rejects.toThrow(/account\.token/);
});

describe("a preview", () => {
  beforeAll(async () => {
    await pulumi.runtime.setMocks(recordingMocks(), "project", "stack", true);
  });
  afterAll(async () => {
    await pulumi.runtime.setMocks(recordingMocks(), "project", "stack", false);
  });
  const unknownUrl = () => pulumi.output(pulumi.unknown as unknown as string);
  const isKnown = (output: pulumi.Output<unknown>) => (output as unknown as { isKnown: Promise<boolean> }).isKnown;

  it("getZoneOutput with an account not known yet gives an unknown result and sends nothing", async () => {
    const zone = getZoneOutput({ id: SEED_IDS.zones.display, account: new Account({ baseUrl: unknownUrl(), token: SECOND_TOKEN }) });
    await expect(isKnown(zone)).resolves.toBe(false);
    expect(h.sim.requests("second").total).toBe(0);
  });

  it("getZone with an account not known yet fails naming the field and the Output form, sending nothing", async () => {
    await expect(
      getZone({ id: SEED_IDS.zones.display, account: new Account({ baseUrl: unknownUrl(), token: SECOND_TOKEN }) }),
    ).rejects.toThrow(/^getZone: account\.baseUrl is not known yet .*use the Output form/);
    expect(h.sim.requests("second").total).toBe(0);
  });
});
