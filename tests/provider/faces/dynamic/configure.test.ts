/**
 * The dynamic face's configuration, read through the plugin's own `Config` class: every setting from
 * the stack config, blank values as unset (the environment then applies), a plugin that never
 * received `Configure` as "nothing set", and each `configure` replacing what the previous one left.
 * The plugin suite (tests/lifecycle/configuration.test.ts) proves the same over gRPC with secrets.
 */
import { Config } from "@pulumi/pulumi/cmd/dynamic-provider/config";
import { configure, configuredSettings, configureFrom } from "../../../../provider/faces/dynamic/configure";

const PROJECT = "adplatform-test";
const ENV = { ADPLATFORM_TOKEN: "env-token", PULUMI_HOME: "/home/p" };

afterEach(() => configureFrom(new Config({}, PROJECT)));

/** The settings' values, the token included (it is not enumerable). */
const values = (env: NodeJS.ProcessEnv = {}) => {
  const { baseUrl, token, limitsUrl, journalDir } = configuredSettings(env);
  return { baseUrl, token, limitsUrl, journalDir };
};

it("reads every setting from the stack config", async () => {
  await configure({
    config: new Config(
      {
        "adplatform:baseUrl": "http://127.0.0.1:4010",
        "adplatform:token": "t-1",
        "adplatform:limitsUrl": "redis://127.0.0.1:6390",
        "adplatform:journalDir": "/var/journal",
      },
      PROJECT,
    ),
  });
  expect(values(ENV)).toEqual({
    baseUrl: "http://127.0.0.1:4010",
    token: "t-1",
    limitsUrl: "redis://127.0.0.1:6390",
    journalDir: "/var/journal",
  });
});

it("leaves blank and absent values unset, so the environment applies to them", () => {
  configureFrom(new Config({ "adplatform:baseUrl": "  ", "other:token": "t-2" }, PROJECT));
  expect(values(ENV)).toEqual({
    baseUrl: undefined,
    token: "env-token",
    limitsUrl: undefined,
    journalDir: "/home/p/adplatform/create-journal",
  });
});

it("treats a plugin that never received Configure as nothing set", () => {
  // The plugin builds its Config over an undefined map then (its `config` field is never set), and
  // every `get` throws.
  const neverConfigured = new Config(undefined as unknown as Record<string, unknown>, PROJECT);
  expect(() => neverConfigured.get("adplatform:token")).toThrow(TypeError);
  configureFrom(neverConfigured);
  expect(values(ENV)).toMatchObject({ baseUrl: undefined, token: "env-token" });
});

it("replaces what an earlier configure left", () => {
  configureFrom(new Config({ "adplatform:baseUrl": "http://127.0.0.1:4010", "adplatform:token": "t-1" }, PROJECT));
  configureFrom(new Config({ "adplatform:token": "t-3" }, PROJECT));
  expect(values()).toMatchObject({ baseUrl: undefined, token: "t-3" });
});
