/**
 * Explicit accounts: every problem named by its field without echoing a value, no fallback to the
 * environment, and which accounts are the same (by name when both have one, else by the normalised
 * base URL and token).
 */
import { accountChanges, explicitAccountIdentity, explicitAccountProblems } from "../../../provider/client/explicitAccount";

const TOKEN = "tok-EXPLICIT-4c1d-never-in-a-message";

describe("explicitAccountProblems", () => {
  it("accepts https:// and loopback http:// with a token", () => {
    expect(explicitAccountProblems({ baseUrl: "https://api.example.com/prefix", token: TOKEN })).toEqual([]);
    expect(explicitAccountProblems({ baseUrl: "http://127.0.0.1:4010", token: TOKEN, name: "sim" })).toEqual([]);
  });

  it("requires both fields and never falls back to ADPLATFORM_*", () => {
    process.env.ADPLATFORM_TOKEN = "from-the-environment";
    try {
      expect(explicitAccountProblems({ baseUrl: "https://api.example.com" })).toEqual([
        { field: "token", reason: expect.stringMatching(/^is required/) },
      ]);
      expect(explicitAccountProblems({ token: " " })).toEqual([
        { field: "baseUrl", reason: expect.stringMatching(/^is required/) },
        { field: "token", reason: expect.stringMatching(/^is required/) },
      ]);
    } finally {
      delete process.env.ADPLATFORM_TOKEN;
    }
  });

  it("refuses plain http:// to a remote host, other schemes and an unsendable token, without echoing the token", () => {
    const problems = [
      ...explicitAccountProblems({ baseUrl: "http://api.example.com", token: TOKEN }),
      ...explicitAccountProblems({ baseUrl: "ftp://api.example.com", token: TOKEN }),
      ...explicitAccountProblems({ baseUrl: "https://api.example.com", token: `${TOKEN} x` }),
      ...explicitAccountProblems({ baseUrl: "https://api.example.com", token: TOKEN, name: "" }),
    ];
    expect(problems.map((p) => p.field)).toEqual(["baseUrl", "baseUrl", "token", "name"]);
    expect(problems[0]!.reason).toMatch(/refusing to send the API token over plain http:\/\//);
    expect(JSON.stringify(problems)).not.toContain(TOKEN);
  });

  it("refuses what is not an account, and skips fields not known yet", () => {
    expect(explicitAccountProblems("https://api.example.com")).toEqual([{ reason: expect.stringMatching(/must be an Account/) }]);
    expect(explicitAccountProblems({ baseUrl: "unknown" }, (field) => field !== "name")).toEqual([]);
  });
});

describe("accountChanges", () => {
  const id = (account: Record<string, unknown>) => explicitAccountIdentity(account);
  const a = { baseUrl: "https://api.example.com", token: TOKEN };

  it("is the same account for two spellings of one base URL", () => {
    expect(accountChanges(id({ ...a, baseUrl: "https://API.example.com:443/" }), id(a))).toEqual([]);
  });

  it("is the same account with another token: a token is a credential, not an identity", () => {
    expect(accountChanges(id(a), id({ ...a, token: "rotated" }))).toEqual([]);
    expect(accountChanges(id({ ...a, name: "brand" }), id({ ...a, token: "rotated", name: "brand" }))).toEqual([]);
  });

  it("is another account for another base URL, or another name when both have one", () => {
    expect(accountChanges(id(a), id({ ...a, baseUrl: "https://eu.example.com" }))).toEqual(["baseUrl"]);
    expect(accountChanges(id({ ...a, name: "brand" }), id({ ...a, name: "other" }))).toEqual(["name"]);
    expect(accountChanges(id({ ...a, name: "brand" }), id({ ...a, baseUrl: "https://eu.example.com", name: "other" }))).toEqual([
      "baseUrl",
      "name",
    ]);
    // A name given or dropped on one side only names the same account.
    expect(accountChanges(id({ ...a, name: "brand" }), id(a))).toEqual([]);
    expect(accountChanges(id(a), id({ ...a, name: "brand" }))).toEqual([]);
  });

  it("cannot tell a base URL that does not resolve from another one, and holds no token", () => {
    expect(accountChanges(id({ baseUrl: "http://api.example.com" }), id({ baseUrl: "http://api.example.com" }))).toEqual(["baseUrl"]);
    expect(accountChanges(id({}), id(a))).toEqual(["baseUrl"]);
    expect(JSON.stringify(explicitAccountIdentity({ ...a, name: "brand" }))).not.toContain(TOKEN);
  });
});
