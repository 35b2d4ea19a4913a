/** Resolving base URL and token, and refusing configurations that would leak the token. */
import { ApiConfigError, getApiClient, isLoopbackHost, resolveConnection } from "../../../provider/client";

const TOKEN = "demo-token";

function configError(run: () => unknown): ApiConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiConfigError) return error;
    throw error;
  }
  throw new Error("expected an ApiConfigError");
}

describe("connection", () => {
  it("takes options first, then ADPLATFORM_BASE_URL and ADPLATFORM_TOKEN", () => {
    const env = { ADPLATFORM_BASE_URL: "https://env.example.com", ADPLATFORM_TOKEN: "env-token" };
    expect(resolveConnection({ env })).toMatchObject({ baseUrl: "https://env.example.com", token: "env-token" });
    expect(resolveConnection({ env, baseUrl: "https://opt.example.com/", token: "opt-token" })).toMatchObject({
      baseUrl: "https://opt.example.com",
      origin: "https://opt.example.com",
      basePath: "",
      token: "opt-token",
    });
    // Empty strings count as unset (an empty stack config value must not hide the environment).
    expect(resolveConnection({ env, baseUrl: "", token: " " }).token).toBe("env-token");
  });

  it("names both ways to set a missing token", () => {
    const error = configError(() => resolveConnection({ baseUrl: "https://api.example.com", env: {} }));
    expect(error.setting).toBe("token");
    expect(error.code).toBe("ADP_ERR_CONFIG");
    expect(error.message).toContain('Pulumi config "adplatform:token" as a secret');
    expect(error.message).toContain("pulumi config set --secret adplatform:token");
    expect(error.message).toContain("ADPLATFORM_TOKEN");
  });

  it("has no default base URL", () => {
    const error = configError(() => getApiClient({ token: TOKEN, env: {} }));
    expect(error.setting).toBe("baseUrl");
    expect(error.message).toContain("adplatform:baseUrl");
    expect(error.message).toContain("ADPLATFORM_BASE_URL");
  });

  it("keeps a base URL's path prefix", () => {
    expect(resolveConnection({ baseUrl: "https://api.example.com/platform/", token: TOKEN, env: {} })).toMatchObject({
      baseUrl: "https://api.example.com/platform",
      origin: "https://api.example.com",
      basePath: "/platform",
    });
  });

  it("sends a token over plain http only to loopback", () => {
    for (const url of ["http://localhost:4010", "http://127.0.0.1", "http://127.8.9.10:1", "http://[::1]:80"]) {
      expect(resolveConnection({ baseUrl: url, token: TOKEN, env: {} }).baseUrl).toBe(url.replace(/:80$/, ""));
    }
    for (const url of [
      "http://10.0.0.1",
      "http://api.example.com",
      "http://[::2]",
      "http://127.0.0.1.example.com",
      "http://localhost.example.com",
      "http://sim.localhost",
    ]) {
      const error = configError(() => resolveConnection({ baseUrl: url, token: TOKEN, env: {} }));
      expect(error.message).toMatch(/refusing to send the API token over plain http/);
    }
    expect(resolveConnection({ baseUrl: "https://10.0.0.1", token: TOKEN, env: {} }).origin).toBe("https://10.0.0.1");
  });

  it("recognises loopback hosts, IPv4-mapped included", () => {
    expect(isLoopbackHost("[::ffff:7f00:1]")).toBe(true);
    expect(isLoopbackHost("127.0.0.1")).toBe(true);
    expect(isLoopbackHost("128.0.0.1")).toBe(false);
    expect(isLoopbackHost("[::ffff:a00:1]")).toBe(false);
  });

  it("refuses base URLs that are not plain http(s) origins", () => {
    for (const url of ["ftp://api.example.com", "https://api.example.com/?x=1", "https://api.example.com/#f", "not a url"]) {
      expect(configError(() => resolveConnection({ baseUrl: url, token: TOKEN, env: {} })).setting).toBe("baseUrl");
    }
  });
});
