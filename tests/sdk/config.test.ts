/**
 * Where the data sources find their credentials: explicit settings, then the stack config
 * `adplatform:baseUrl` / `adplatform:token`, then `ADPLATFORM_BASE_URL` / `ADPLATFORM_TOKEN`, each
 * setting on its own, and the resolution says where each came from.
 */
import * as pulumi from "@pulumi/pulumi";
import { configureDataSources, resolveDataSourceConnection, warnPlainCredentials } from "../../sdk/config";
import { getCountries } from "../../sdk/dataSources";
import { clearConnectionSettings, DEMO_TOKEN, callsOf, useDataSourceHarness } from "../helpers/dataSourceHarness";

const saved = { ...process.env };
const h = useDataSourceHarness();
beforeEach(() => {
  clearConnectionSettings();
});
afterEach(() => {
  process.env = { ...saved };
  pulumi.runtime.setAllConfig({});
});

describe("resolution order", () => {
  it("explicit settings come first, then stack config, then the environment", () => {
    process.env.ADPLATFORM_BASE_URL = "https://env.example.com";
    process.env.ADPLATFORM_TOKEN = "env-token";
    expect(resolveDataSourceConnection()).toEqual({
      ok: true,
      connection: { baseUrl: "https://env.example.com", token: "env-token", origins: { baseUrl: "environment", token: "environment" } },
    });

    pulumi.runtime.setAllConfig({ "adplatform:baseUrl": "https://stack.example.com", "adplatform:token": "stack-token" });
    expect(resolveDataSourceConnection()).toEqual({
      ok: true,
      connection: { baseUrl: "https://stack.example.com", token: "stack-token", origins: { baseUrl: "stackConfig", token: "stackConfig" } },
    });

    configureDataSources({ token: "explicit-token" });
    expect(resolveDataSourceConnection()).toEqual({
      ok: true,
      connection: { baseUrl: "https://stack.example.com", token: "explicit-token", origins: { baseUrl: "stackConfig", token: "explicit" } },
    });
  });

  it("each setting falls back on its own, and blank values count as unset", () => {
    pulumi.runtime.setAllConfig({ "adplatform:baseUrl": "https://stack.example.com", "adplatform:token": "  " });
    process.env.ADPLATFORM_TOKEN = "env-token";
    expect(resolveDataSourceConnection()).toEqual({
      ok: true,
      connection: { baseUrl: "https://stack.example.com", token: "env-token", origins: { baseUrl: "stackConfig", token: "environment" } },
    });
  });

  it("reports each missing setting with the ways to set it", () => {
    process.env.ADPLATFORM_BASE_URL = "https://env.example.com";
    const resolution = resolveDataSourceConnection();
    expect(resolution.ok).toBe(false);
    expect(!resolution.ok && resolution.problems).toEqual([
      "no API token configured: set it with `pulumi config set --secret adplatform:token <value>`, " +
        "the ADPLATFORM_TOKEN environment variable, or configureDataSources({ token })",
    ]);
  });
});

it("a data source reads with the stack config's credentials", async () => {
  pulumi.runtime.setAllConfig({ "adplatform:baseUrl": h.sim.url, "adplatform:token": DEMO_TOKEN }, ["adplatform:token"]);
  await expect(getCountries()).resolves.toMatchObject({ total: 249 });
  expect(callsOf(h.sim, 17)).toBe(1);
});

describe("credentials set without --secret", () => {
  it("are warned about once, by key, without their values; secret ones and a limits URL without a password are not", () => {
    const warnings: string[] = [];
    pulumi.runtime.setAllConfig({ "adplatform:token": "plain-t0ken", "adplatform:limitsUrl": "redis://127.0.0.1:6390/0" }, [
      "adplatform:token",
    ]);
    warnPlainCredentials((message) => warnings.push(message));
    expect(warnings).toEqual([]);
    pulumi.runtime.setAllConfig({ "adplatform:token": "plain-t0ken", "adplatform:limitsUrl": "redis://:pa55w0rd@127.0.0.1:6390/0" });
    warnPlainCredentials((message) => warnings.push(message));
    warnPlainCredentials((message) => warnings.push(message));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^adplatform:token and adplatform:limitsUrl are set in the stack config without --secret/);
    expect(warnings[0]).toContain("`pulumi config set --secret adplatform:limitsUrl <value>`");
    expect(warnings[0]).not.toMatch(/plain-t0ken|pa55w0rd/);
  });
});
