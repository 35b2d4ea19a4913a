/**
 * Explicit accounts: every problem named by its field without echoing a value, no fallback to the
 * environment, and which accounts are the same (by name when both have one, else by the normalised
 * base URL and token).
 */
import { explicitAccountIdentity, explicitAccountProblems, sameAccount } from "../../../provider/client/explicitAccount";

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

describe("sameAccount", () => {
  const id = (account: Record<string, unknown>) => explicitAccountIdentity(account);

  it("is the same account for two spellings of one base URL and token", () => {
    expect(
      sameAccount(id({ baseUrl: "https://API.example.com/", token: TOKEN }), id({ baseUrl: "https://api.example.com", token: TOKEN })),
    ).toBe(true);
  });

  it("is another account for another token or base URL, unless both carry the same name", () => {
    const a = { baseUrl: "https://api.example.com", token: TOKEN };
    expect(sameAccount(id(a), id({ ...a, token: "other" }))).toBe(false);
    expect(sameAccount(id(a), id({ ...a, baseUrl: "https://eu.example.com" }))).toBe(false);
    expect(sameAccount(id({ ...a, name: "brand" }), id({ ...a, token: "rotated", name: "brand" }))).toBe(true);
    expect(sameAccount(id({ ...a, name: "brand" }), id({ ...a, name: "other" }))).toBe(false);
    // A name on one side only: the connection decides.
    expect(sameAccount(id({ ...a, name: "brand" }), id(a))).toBe(true);
  });

  it("is never the same when either side cannot be resolved", () => {
    expect(sameAccount(id({ baseUrl: "https://api.example.com" }), id({ baseUrl: "https://api.example.com" }))).toBe(false);
    expect(explicitAccountIdentity({ baseUrl: "https://api.example.com", token: TOKEN }).key).not.toContain(TOKEN);
  });
});
