/**
 * Where warnings go: the dynamic-provider plugin gets the engine's address only as a command-line
 * argument, after any flags the engine adds; `pluginEngineAddress` finds it (and nothing outside the
 * plugin). The plugin suites prove the warnings then arrive as engine `Log` calls.
 */
import * as path from "node:path";
import { pluginEngineAddress } from "../../../provider/faces/engineAddress";

const main = path.join("/prog", "node_modules", "@pulumi", "pulumi", "cmd", "dynamic-provider", "index.js");

it("reads the engine address the plugin was started with", () => {
  expect(pluginEngineAddress(main, ["node", main, "127.0.0.1:41235"])).toBe("127.0.0.1:41235");
});

it("skips the engine's logging and tracing flags, which come first", () => {
  const argv = ["node", main, "--logtostderr", "-v=9", "--tracing", "127.0.0.1:9999", "127.0.0.1:41235"];
  expect(pluginEngineAddress(main, argv)).toBe("127.0.0.1:41235");
});

it("finds nothing outside the plugin or without an address", () => {
  expect(pluginEngineAddress("/prog/index.js", ["node", "/prog/index.js", "127.0.0.1:41235"])).toBeUndefined();
  expect(pluginEngineAddress(main, ["node", main])).toBeUndefined();
  expect(pluginEngineAddress(undefined, ["node"])).toBeUndefined();
});
