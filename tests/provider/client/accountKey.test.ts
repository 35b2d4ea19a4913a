import { ApiConfigError, accountKey, resolveAccount } from "../../../provider/client";

describe("resolveAccount", () => {
  const token = "account-key-test-token";

  it("keys every spelling of one platform's address as one account", () => {
    const keys = ["https://API.example.com", "https://api.example.com/", "https://api.example.com:443"].map(
      (baseUrl) => resolveAccount({ baseUrl, token, env: {} }).key,
    );
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBe(accountKey("https://api.example.com", token));
  });

  it("tells accounts apart by token and by base URL", () => {
    const key = (baseUrl: string, t: string) => resolveAccount({ baseUrl, token: t, env: {} }).key;
    expect(key("https://api.example.com", token)).not.toBe(key("https://api.example.com", `${token}-2`));
    expect(key("https://api.example.com", token)).not.toBe(key("https://api.example.com/prefix", token));
  });

  it("never holds the token in the key", () => {
    const { key, connection } = resolveAccount({ baseUrl: "https://api.example.com", token, env: {} });
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(connection.token).toBe(token);
  });

  it("refuses what the client refuses", () => {
    expect(() => resolveAccount({ baseUrl: "http://api.example.com", token, env: {} })).toThrow(ApiConfigError);
  });
});
