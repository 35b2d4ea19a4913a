/**
 * Who may use /_sim/* over HTTP: open on a loopback address; on an address other machines can reach
 * (0.0.0.0, ::, an interface's address), only with the admin token, and refused without one. Real
 * servers, bound to each kind of address.
 */
import { networkInterfaces } from "node:os";
import { request } from "undici";
import { startSimulator, type RunningSimulator, type SimulatorOptions } from "../../simulator";
import { FakeClock } from "../helpers/simulatorHarness";

const ADMIN = "admin-secret-7f3a";
const running: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(host: string, options: Partial<SimulatorOptions> = {}): Promise<RunningSimulator> {
  const sim = await startSimulator({ host, now: new FakeClock().now, ...options });
  running.push(sim);
  return sim;
}

/** `GET|POST` at `http://<connectTo>:<port><path>`, with an optional bearer token. */
async function call(sim: RunningSimulator, connectTo: string, method: "GET" | "POST", path: string, token?: string) {
  const host = connectTo.includes(":") ? `[${connectTo}]` : connectTo;
  const res = await request(`http://${host}:${sim.port}${path}`, {
    method,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text };
}

/** A non-internal IPv4 address of this machine (eth0), if it has one. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((i) => i !== undefined && i.family === "IPv4" && !i.internal)?.address;

describe("a loopback address keeps /_sim/* open", () => {
  it.each(["127.0.0.1", "::1"])("bound to %s: no token needed, no warning", async (host) => {
    const sim = await start(host);
    expect(sim.inspectionAccess).toBe("open");
    expect(sim.warning).toBeUndefined();
    expect((await call(sim, host, "GET", "/_sim/state")).status).toBe(200);
  });
});

describe("an address other machines can reach requires the admin token", () => {
  // 0.0.0.0 is reached here through loopback: the policy follows the bound address, not the peer.
  const hosts = [["0.0.0.0", "127.0.0.1"], ...(external ? [[external, external]] : [])];

  it.each(hosts)("bound to %s (called at %s): 401 without or with a wrong token, 200 with it", async (host, connectTo) => {
    const sim = await start(host, { adminToken: ADMIN });
    expect(sim.inspectionAccess).toBe("token");
    for (const token of [undefined, "demo-token", `${ADMIN}x`]) {
      const reply = await call(sim, connectTo, "GET", "/_sim/state", token);
      expect(reply.status).toBe(401);
      expect(reply.headers["www-authenticate"]).toBe("Bearer");
      expect(reply.text).not.toContain("zones");
    }
    const refusedReset = await call(sim, connectTo, "POST", "/_sim/reset");
    expect(refusedReset.status).toBe(401);
    expect((await call(sim, connectTo, "GET", "/_sim/state", ADMIN)).status).toBe(200);
    expect((await call(sim, connectTo, "POST", "/_sim/reset", ADMIN)).status).toBe(204);
    // The API keeps its own tokens.
    expect((await call(sim, connectTo, "GET", "/v2/platform/countries", "demo-token")).status).toBe(200);
    expect(sim.warning).toMatch(new RegExp(`listening on ${host.replace(/\./g, "\\.")}, which other machines can reach`));
    expect(sim.warning).not.toContain(ADMIN);
  });

  it.each(hosts)("bound to %s without an admin token: /_sim/* is refused with 403, whatever the token", async (host, connectTo) => {
    const sim = await start(host);
    expect(sim.inspectionAccess).toBe("off");
    for (const token of [undefined, "demo-token", ""]) {
      const reply = await call(sim, connectTo, "POST", "/_sim/faults", token);
      expect(reply.status).toBe(403);
      expect(JSON.parse(reply.text).message).toMatch(/ADPLATFORM_SIMULATOR_ADMIN_TOKEN/);
    }
    expect(sim.warning).toMatch(/\/_sim\/\* is refused \(403\) until ADPLATFORM_SIMULATOR_ADMIN_TOKEN is set/);
  });

  it("bound to ::, the IPv6 any-address, is not loopback either", async () => {
    const sim = await start("::");
    expect(sim.inspectionAccess).toBe("off");
    expect((await call(sim, "::1", "GET", "/_sim/state")).status).toBe(403);
  });
});
