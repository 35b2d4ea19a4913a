/**
 * The dynamic face's configuration, read through the plugin's own `Config` class: both keys from the
 * stack config, blank values as unset, a plugin that never received `Configure` as "nothing set",
 * and each `configure` replacing what the previous one left. The plugin suite
 * (configure.plugin.test.ts) proves the same over gRPC with secrets and the environment.
 */
import { Config } from "@pulumi/pulumi/cmd/dynamic-provider/config";
import { configure, configuredConnection, configureCredentials } from "../../../../provider/faces/dynamic/configure";

const PROJECT = "adplatform-test";

afterEach(() => configureCredentials(new Config({}, PROJECT)));

it("reads adplatform:baseUrl and adplatform:token from the stack config", async () => {
  await configure({ config: new Config({ "adplatform:baseUrl": "http://127.0.0.1:4010", "adplatform:token": "t-1" }, PROJECT) });
  expect(configuredConnection()).toEqual({ baseUrl: "http://127.0.0.1:4010", token: "t-1" });
});

it("leaves blank and absent values unset, so the environment applies to them", () => {
  configureCredentials(new Config({ "adplatform:baseUrl": "  ", "other:token": "t-2" }, PROJECT));
  expect(configuredConnection()).toEqual({});
});

it("treats a plugin that never received Configure as nothing set", () => {
  // The plugin builds its Config over an undefined map then (its `config` field is never set), and
  // every `get` throws.
  const neverConfigured = new Config(undefined as unknown as Record<string, unknown>, PROJECT);
  expect(() => neverConfigured.get("adplatform:token")).toThrow(TypeError);
  configureCredentials(neverConfigured);
  expect(configuredConnection()).toEqual({});
});

it("replaces what an earlier configure left", () => {
  configureCredentials(new Config({ "adplatform:baseUrl": "http://127.0.0.1:4010", "adplatform:token": "t-1" }, PROJECT));
  configureCredentials(new Config({ "adplatform:token": "t-3" }, PROJECT));
  expect(configuredConnection()).toEqual({ token: "t-3" });
});
