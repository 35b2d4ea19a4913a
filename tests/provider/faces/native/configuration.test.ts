/** The native face's configuration: provider arguments first, then the engine's config variables. */
import { limitsUrl, configureLimitsUrl } from "../../../../provider/client/limiterRegistry";
import { configureFromRequest, configuredConnection } from "../../../../provider/faces/native/configuration";
import { SECRET_SIGNATURE, SIGNATURE_KEY } from "../../../../provider/faces/native/engineValues";

afterEach(() => {
  configureFromRequest({}, new Map());
  configureLimitsUrl(undefined);
});

it("reads base URL and token from the provider's arguments, a secret token unwrapped", () => {
  configureFromRequest({ baseUrl: "http://127.0.0.1:4010", token: { [SIGNATURE_KEY]: SECRET_SIGNATURE, value: "t-1" } }, new Map());
  expect(configuredConnection()).toEqual({ baseUrl: "http://127.0.0.1:4010", token: "t-1" });
});

it("falls back to the config variables in either spelling, and leaves unset values to the environment", () => {
  configureFromRequest({}, new Map([["adplatform:config:token", "t-2"]]));
  expect(configuredConnection()).toEqual({ token: "t-2" });
  configureFromRequest({ token: "" }, new Map([["adplatform:baseUrl", "https://api.example.com"]]));
  expect(configuredConnection()).toEqual({ baseUrl: "https://api.example.com" });
});

it("hands the limits URL to the limiter registry", () => {
  configureFromRequest({ limitsUrl: "redis://127.0.0.1:6390" }, new Map());
  expect(limitsUrl({})).toBe("redis://127.0.0.1:6390");
});

it("warns once when the token or a limits URL with a password arrives unencrypted, never about secrets", () => {
  const warnings: string[] = [];
  const secret = (value: string) => ({ [SIGNATURE_KEY]: SECRET_SIGNATURE, value });
  configureFromRequest({ token: secret("t-1"), limitsUrl: secret("redis://:pw@127.0.0.1:6390") }, new Map(), (m) => warnings.push(m));
  configureFromRequest({ token: secret("t-1"), limitsUrl: "redis://127.0.0.1:6390/0" }, new Map(), (m) => warnings.push(m));
  expect(warnings).toEqual([]);
  configureFromRequest({ token: "t-1", limitsUrl: "redis://127.0.0.1:6390/0?password=pw" }, new Map(), (m) => warnings.push(m));
  configureFromRequest({ token: "t-1" }, new Map(), (m) => warnings.push(m));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain("adplatform:token and adplatform:limitsUrl are set in the stack config without --secret");
  expect(warnings[0]).toContain("`pulumi config set --secret adplatform:token <value>`");
  expect(warnings[0]).not.toContain("t-1");
  expect(warnings[0]).not.toContain("pw");
});
