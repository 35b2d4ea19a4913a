/** The native face's configuration: provider arguments first, then the engine's config variables, then the environment. */
import { plainCredentialsOf, settingsFromConfigure } from "../../../../provider/faces/native/configuration";
import { SECRET_SIGNATURE, SIGNATURE_KEY } from "../../../../provider/faces/native/engineValues";

const secret = (value: string) => ({ [SIGNATURE_KEY]: SECRET_SIGNATURE, value });
const settingsOf = (args: Record<string, unknown>, variables: [string, string][] = [], env: NodeJS.ProcessEnv = {}) => {
  const { baseUrl, token, limitsUrl, journalDir } = settingsFromConfigure({ args, variables: new Map(variables) }, env);
  return { baseUrl, token, limitsUrl, journalDir };
};

it("reads every setting from the provider's arguments, a secret unwrapped", () => {
  expect(
    settingsOf({ baseUrl: "http://127.0.0.1:4010", token: secret("t-1"), limitsUrl: secret("redis://127.0.0.1:6390"), journalDir: "/j" }),
  ).toEqual({ baseUrl: "http://127.0.0.1:4010", token: "t-1", limitsUrl: "redis://127.0.0.1:6390", journalDir: "/j" });
});

it("falls back to the config variables in either spelling, then to the environment", () => {
  expect(settingsOf({}, [["adplatform:config:token", "t-2"]], { ADPLATFORM_BASE_URL: "https://env.example.com" })).toMatchObject({
    baseUrl: "https://env.example.com",
    token: "t-2",
  });
  expect(
    settingsOf({ token: "" }, [
      ["adplatform:baseUrl", "https://api.example.com"],
      ["adplatform:journalDir", "/cfg"],
    ]),
  ).toMatchObject({
    baseUrl: "https://api.example.com",
    token: undefined,
    journalDir: "/cfg",
  });
});

it("names the token or a limits URL with a password that arrives unencrypted, never their values", () => {
  const plain = (args: Record<string, unknown>) => plainCredentialsOf({ args, variables: new Map() });
  expect(plain({ token: secret("t-1"), limitsUrl: secret("redis://:pw@127.0.0.1:6390") })).toBeUndefined();
  expect(plain({ token: secret("t-1"), limitsUrl: "redis://127.0.0.1:6390/0" })).toBeUndefined();
  const warning = plain({ token: "t-1", limitsUrl: "redis://127.0.0.1:6390/0?password=pw" });
  expect(warning).toContain("adplatform:token and adplatform:limitsUrl are set in the stack config without --secret");
  expect(warning).toContain("`pulumi config set --secret adplatform:token <value>`");
  expect(warning).not.toContain("t-1");
  expect(warning).not.toContain("pw");
});
