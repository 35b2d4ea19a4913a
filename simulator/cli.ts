#!/usr/bin/env node
/**
 * Command line of the simulator: `npx adplatform-simulator --port 4010` from the installed package
 * (package.json `bin`), or `node bin/simulator/cli.js` / `npm run simulator` in this repository.
 * Prints exactly `listening on http://<host>:<port>` on stdout once it listens; stops cleanly on
 * SIGINT and SIGTERM.
 */
import { parseArgs } from "node:util";
import { RATE_CLASSES, type RateClass, type RateClassName } from "../provider/catalog";
import { FaultSettingsSchema, type FaultSettingsInput } from "./faults";
import { ADMIN_TOKEN_ENV, startSimulator, type SimulatorOptions } from "./index";

const USAGE = `Usage: adplatform-simulator [options]   (npx adplatform-simulator, or node bin/simulator/cli.js)

Serves the platform's 20 operations locally with seeded demo data.
Tokens: demo-token (account demo), second-token (account second).
Seed ids (the same in both accounts): zones 1001 display, 1002 rtb, 1003 widget, 1004 push;
bid modifiers 501, 502; bid strategies 601, 602; campaign groups 701 "Summer sale", 702;
A/B test 301 variations 1, 2 and test 302 variation 1; segments 1701-1703; countries by ISO code.
Created objects get ids from 100001. Every collection and fault setting, and a recipe that shows
a killed pulumi up leaving no duplicate: docs/simulator.md in the package.

Options:
  --host <addr>                 interface to listen on (default 127.0.0.1)
  --port <n>                    TCP port; 0 picks a free one (default 0)
  --burst-window-ms <ms>        burst window length (default 1000)
  --steady-window-ms <ms>       steady window length (default 60000)
  --burst-limit <n>             requests per burst window, every rate class (default: spec, C = 10)
  --steady-limit <n>            requests per steady window, every rate class (default: spec, C = 150)
  --max-in-flight <n>           simultaneous requests per account (default 8)
  --retry-after-unit-ms <ms>    unit a 429's Retry-After is rounded up to (default 1000: whole seconds)
  --max-body-bytes <n>          largest request body; larger gets 413 (default 1048576)
  --seed <n>                    seed of the fault PRNG (default 1)
  --error-rate <0..1>           share of 500 responses
  --error-no-trace-share <0..1> share of those 500s with message and no trace_id (default 0.5)
  --drop-before-rate <0..1>     share of connections dropped before the request is applied
  --drop-after-rate <0..1>      share of connections dropped after the request is applied
  --malformed-rate <0..1>       share of success bodies sent as truncated JSON
  --rate-limit-rate <0..1>      share of requests answered 429 (a storm)
  --rate-limit-retry-after <n>  Retry-After of those 429s; -1 for the concurrency variant (default 1)
  --delay-ms <ms>               delay added to every API response
  --hide-created-for-ms <ms>    reads do not see a created record until this long after its create
  --faults <json>               any fault settings as JSON, e.g. '{"rules":[{"kind":"error500","op":3,"count":2}]}'
  --help                        show this text

Inspection: GET /_sim/state, /_sim/requests, /_sim/windows, /_sim/faults;
POST /_sim/faults, /_sim/reset; DELETE /_sim/objects/<collection>/<id>.
/_sim/requests counts finished calls only; a request still waiting shows as "waiting" in
/_sim/faults (held) and inFlight.current in /_sim/windows. POST /_sim/faults '{"hold":true}'
holds admitted requests unanswered and unapplied until '{"hold":false}'.
On a loopback --host (the default) they take no auth. On any other address (0.0.0.0 and :: too),
which other machines can reach, they require "Authorization: Bearer <token>" with the token from
the environment variable ${ADMIN_TOKEN_ENV}, and are refused (403) when it is not set; a
warning on stderr says so at start.`;

const FLAGS = {
  host: { type: "string" },
  port: { type: "string" },
  "burst-window-ms": { type: "string" },
  "steady-window-ms": { type: "string" },
  "burst-limit": { type: "string" },
  "steady-limit": { type: "string" },
  "max-in-flight": { type: "string" },
  "retry-after-unit-ms": { type: "string" },
  "max-body-bytes": { type: "string" },
  seed: { type: "string" },
  "error-rate": { type: "string" },
  "error-no-trace-share": { type: "string" },
  "drop-before-rate": { type: "string" },
  "drop-after-rate": { type: "string" },
  "malformed-rate": { type: "string" },
  "rate-limit-rate": { type: "string" },
  "rate-limit-retry-after": { type: "string" },
  "delay-ms": { type: "string" },
  "hide-created-for-ms": { type: "string" },
  faults: { type: "string" },
  help: { type: "boolean" },
} as const;

/** Flag -> fault setting it sets. */
const FAULT_FLAGS: Readonly<Record<string, keyof FaultSettingsInput>> = {
  "error-rate": "errorRate",
  "error-no-trace-share": "errorNoTraceShare",
  "drop-before-rate": "dropBeforeRate",
  "drop-after-rate": "dropAfterRate",
  "malformed-rate": "malformedRate",
  "rate-limit-rate": "rateLimitRate",
  "rate-limit-retry-after": "rateLimitRetryAfter",
  "delay-ms": "delayMs",
  "hide-created-for-ms": "hideCreatedForMs",
};

function number(flag: string, text: string): number {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value)) throw new Error(`--${flag} must be a number, got "${text}"`);
  return value;
}

/** Turns the command line into simulator options; throws with a message naming the bad flag. */
export function optionsFromArgs(args: readonly string[]): { help: true } | { help: false; options: Partial<SimulatorOptions> } {
  const { values } = parseArgs({ args: [...args], options: FLAGS, strict: true, allowPositionals: false });
  if (values.help) return { help: true };
  const options: Partial<SimulatorOptions> = {};
  const num = (flag: keyof typeof values) => (values[flag] === undefined ? undefined : number(flag, String(values[flag])));
  if (values.host !== undefined) options.host = values.host;
  options.port = num("port");
  options.burstWindowMs = num("burst-window-ms");
  options.steadyWindowMs = num("steady-window-ms");
  options.maxInFlight = num("max-in-flight");
  options.retryAfterUnitMs = num("retry-after-unit-ms");
  options.maxBodyBytes = num("max-body-bytes");
  options.seed = num("seed");
  const burst = num("burst-limit");
  const steady = num("steady-limit");
  if (burst !== undefined || steady !== undefined) {
    const limits: Partial<Record<RateClassName, Partial<RateClass>>> = {};
    for (const name of Object.keys(RATE_CLASSES) as RateClassName[]) {
      limits[name] = { ...(burst !== undefined ? { burst } : {}), ...(steady !== undefined ? { steady } : {}) };
    }
    options.limits = limits;
  }
  const faults: Record<string, unknown> = values.faults ? (JSON.parse(values.faults) as Record<string, unknown>) : {};
  for (const [flag, key] of Object.entries(FAULT_FLAGS)) {
    const value = num(flag as keyof typeof values);
    if (value !== undefined) faults[key] = value;
  }
  options.faults = FaultSettingsSchema.parse(faults);
  return { help: false, options };
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof optionsFromArgs>;
  try {
    parsed = optionsFromArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const simulator = await startSimulator({ ...parsed.options, adminToken: process.env[ADMIN_TOKEN_ENV] || undefined });
  const stop = () => {
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // Handlers first: whoever reads the listening line may signal at once.
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  if (simulator.warning) process.stderr.write(`${simulator.warning}\n`);
  process.stdout.write(`listening on ${simulator.url}\n`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  });
}
