/**
 * `scripts/ensure-redis` on a machine that has no redis-server, as a user who cannot install one:
 * PATH's redis-server is hidden in a private mount namespace (a copy of /usr/bin without it, bound
 * over /usr/bin) and the script runs as `nobody`. It must unpack Debian's package into its own
 * directory and hand back a launcher that starts a real server (and a sentinel), with a redis-cli
 * beside it. Needs root (unshare, mount, su); CI runs as root.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startRedisProcess, startRedisServer } from "../helpers/redisServer";

const script = resolve(__dirname, "..", "..", "scripts", "ensure-redis");
const root = process.getuid?.() === 0;

(root ? describe : describe.skip)("ensure-redis without a redis-server (needs root to hide PATH's)", () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "adplatform-ensure-redis-"));
    chmodSync(work, 0o755);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  test("as a user without root, it unpacks Debian's redis-server and redis-cli, and the launchers serve, as a sentinel too", async () => {
    // A hard-linked copy of /usr/bin costs no space; it must sit on the same file system.
    const bin = mkdtempSync("/usr/.adplatform-bin-");
    try {
      execFileSync("cp", ["-al", "/usr/bin/.", bin]);
      for (const name of readdirSync(bin)) if (name.startsWith("redis-")) rmSync(join(bin, name));
      const home = join(work, "nobody");
      mkdirSync(home);
      chownSync(home, 65534, 65534);
      cpSync(script, join(work, "ensure-redis"));
      const inner = [
        `mount --bind ${bin} /usr/bin`,
        `su nobody -s /bin/bash -c 'cd ${home} && command -v redis-server; ADPLATFORM_REDIS_DIR=${home}/redis bash ${work}/ensure-redis'`,
      ].join(" && ");
      const output = execFileSync("unshare", ["-m", "bash", "-c", inner], { encoding: "utf8", timeout: 240_000 });
      const launcher = output.trim().split("\n").at(-1);
      expect(launcher).toBe(join(home, "redis", "bin", "redis-server"));
      const cli = join(home, "redis", "bin", "redis-cli");
      const server = await startRedisServer({ command: launcher });
      try {
        const pong = execFileSync("bash", ["-c", `exec 3<>/dev/tcp/127.0.0.1/${server.port}; printf 'PING\\r\\n' >&3; head -c 7 <&3`], {
          encoding: "utf8",
          timeout: 10_000,
        });
        expect(pong).toBe("+PONG\r\n");
        // redis-cli, which forms clusters, is unpacked beside it and runs too.
        expect(execFileSync(cli, ["-p", String(server.port), "PING"], { encoding: "utf8", timeout: 10_000 })).toBe("PONG\n");
      } finally {
        await server.stop();
      }
      // The same launcher runs a sentinel.
      const sentinel = await startRedisProcess({
        command: launcher,
        config: () => "sentinel monitor adplatform 127.0.0.1 6379 2\n",
        args: ["--sentinel"],
      });
      try {
        const info = execFileSync(cli, ["-p", String(sentinel.port), "INFO", "server"], { encoding: "utf8", timeout: 10_000 });
        expect(info).toContain("redis_mode:sentinel");
      } finally {
        await sentinel.stop();
      }
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  }, 300_000);
});
