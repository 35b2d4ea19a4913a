/**
 * The combination of the version matrix a run is on (docs/development.md, "Version matrix"):
 * `ADPLATFORM_MATRIX` (set by scripts/matrix/run), `oldest` when unset, read from
 * scripts/matrix/combinations.json, which scripts/matrix/run, scripts/ensure-pulumi and
 * scripts/native/ensure-python-venv read too.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** One combination of Node.js, Pulumi's SDKs and the Pulumi CLI. */
export interface Combination {
  /** `oldest` or `newest`. */
  readonly name: "oldest" | "newest";
  /** The Node.js release, without the `v`. */
  readonly node: string;
  /** `@pulumi/pulumi`. */
  readonly pulumiNodejs: string;
  /** `@pulumi/policy`. */
  readonly pulumiPolicy: string;
  /** The CLI's `pulumi version` (with the `v`). */
  readonly pulumiCli: string;
  /** `pulumi` from PyPI. */
  readonly pulumiPython: string;
  /** `github.com/pulumi/pulumi/sdk/v3`, the Go program's (examples/go pins the oldest's). */
  readonly pulumiGo: string;
}

/** The combination named by `ADPLATFORM_MATRIX` (default `oldest`); any other name throws. */
export function currentCombination(env: NodeJS.ProcessEnv = process.env): Combination {
  const name = env.ADPLATFORM_MATRIX ?? "oldest";
  if (name !== "oldest" && name !== "newest") throw new Error(`ADPLATFORM_MATRIX is '${name}': it must be 'oldest' or 'newest'`);
  const all = JSON.parse(fs.readFileSync(path.join(__dirname, "combinations.json"), "utf8")) as Record<string, Omit<Combination, "name">>;
  return { name, ...all[name]! };
}
