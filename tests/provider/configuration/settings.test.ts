/** The one resolution of the provider's settings, which every face and the program use. */
import * as os from "node:os";
import * as path from "node:path";
import { inspect } from "node:util";
import {
  SETTINGS,
  SETTING_KEYS,
  resolveSettings,
  settingsWith,
  stackConfigLayer,
  valuesLayer,
} from "../../../provider/configuration/settings";

it("takes each setting from the first place that sets it, then the environment, then its default", () => {
  const env = { ADPLATFORM_JOURNAL_DIR: "/from/env", ADPLATFORM_TOKEN: "env-token", PULUMI_HOME: "/pulumi/home" };
  const config: Record<string, string> = {
    "adplatform:journalDir": "/from/config",
    "adplatform:token": "  ",
    "adplatform:limitsUrl": " redis://h:1 ",
  };
  const settings = resolveSettings([valuesLayer("explicit", { baseUrl: "https://explicit" }), stackConfigLayer((key) => config[key])], env);
  expect({ ...settings, token: settings.token, limitsUrl: settings.limitsUrl }).toEqual({
    baseUrl: "https://explicit",
    token: "env-token",
    limitsUrl: "redis://h:1",
    journalDir: "/from/config",
    origins: { baseUrl: "explicit", token: "environment", limitsUrl: "stackConfig", journalDir: "stackConfig" },
  });
});

it("puts the journal in the Pulumi home when nothing names a directory", () => {
  expect(resolveSettings([], { PULUMI_HOME: "/pulumi/home" }).journalDir).toBe(path.join("/pulumi/home", "adplatform", "create-journal"));
  expect(resolveSettings([], {}).journalDir).toBe(path.join(os.homedir(), ".pulumi", "adplatform", "create-journal"));
});

it("counts a place whose read throws as not setting anything", () => {
  const broken = {
    origin: "stackConfig" as const,
    read: () => {
      throw new TypeError("no config map");
    },
  };
  expect(resolveSettings([broken], { ADPLATFORM_BASE_URL: "https://env" }).baseUrl).toBe("https://env");
});

it("keeps the secret settings out of JSON and inspect", () => {
  const settings = resolveSettings(
    [valuesLayer("explicit", { token: "t0ken-value", limitsUrl: "redis://:pa55@h:1", baseUrl: "https://b" })],
    {},
  );
  expect(settings.token).toBe("t0ken-value");
  expect(settings.limitsUrl).toBe("redis://:pa55@h:1");
  for (const shown of [JSON.stringify(settings), inspect(settings), inspect({ nested: settings })]) {
    expect(shown).not.toContain("t0ken-value");
    expect(shown).not.toContain("pa55");
    expect(shown).toContain("https://b");
  }
});

it("replaces the base URL and token of an explicit account, and keeps the other settings", () => {
  const configured = resolveSettings(
    [valuesLayer("stackConfig", { baseUrl: "https://b", token: "t", limitsUrl: "redis://h:1", journalDir: "/j" })],
    {},
  );
  const account = settingsWith(configured, { baseUrl: "https://other", token: undefined }, "account");
  expect([account.baseUrl, account.token, account.limitsUrl, account.journalDir]).toEqual([
    "https://other",
    undefined,
    "redis://h:1",
    "/j",
  ]);
  expect(account.origins).toEqual({ baseUrl: "account", limitsUrl: "stackConfig", journalDir: "stackConfig" });
});

it("describes every setting for users, without spec citations", () => {
  for (const key of SETTING_KEYS) {
    expect(SETTINGS[key].env).toMatch(/^ADPLATFORM_[A-Z_]+$/);
    expect(SETTINGS[key].description).not.toMatch(/\(spec,/);
  }
});
