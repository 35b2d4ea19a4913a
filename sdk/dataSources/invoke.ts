/**
 * What every `getX` / `getXOutput` pair shares: reading the base URL and token from `../config`,
 * calling the read engine, marking its errors for the Pulumi runtime's short report
 * (`programErrors.ts`), and turning the promise form into the `Output` form.
 *
 * Invokes are not supported for dynamic providers, so a data source is a plain async function in
 * the program process, not an engine invoke.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  type ConnectionSettings,
  type ConnectionSource,
  DataSourceCredentialsError,
  readList,
  readOne,
  type DataSource,
  type ListResult,
  type ReadOptions,
} from "../../provider/dataSources";
import { resolveDataSourceConnection } from "../config";
import { accountConnection, accountOutput, splitAccount } from "./accountArgument";
import { asProgramError } from "./programErrors";

/**
 * Options of the `getXOutput` forms: the invoke options plus `dependsOn`. Spelled out rather than
 * `pulumi.InvokeOutputOptions` (the same shape) because that type only exists in newer
 * `@pulumi/pulumi` releases than the peer range this package accepts.
 */
export interface DataSourceOutputOptions extends pulumi.InvokeOptions {
  /** Resources the read waits for: it runs once each exists (a custom resource: has its id). */
  dependsOn?: pulumi.Input<pulumi.Input<pulumi.Resource>[]> | pulumi.Input<pulumi.Resource>;
}

/**
 * The base URL and token for `source` with where each came from, or a `DataSourceCredentialsError`
 * naming every way to set them.
 */
function connectionFor(source: DataSource): () => ConnectionSettings {
  return () => {
    const resolution = resolveDataSourceConnection();
    if (!resolution.ok) throw new DataSourceCredentialsError(source.functionName, resolution.problems.join("; "));
    return resolution.connection;
  };
}

/** Rethrows a failed read's error marked for the program (`programErrors.ts`). */
function rethrowForProgram(error: unknown): never {
  throw asProgramError(error);
}

/** The arguments the engine validates and the connection: the `account` argument's, else `connectionFor`. */
async function prepared(source: DataSource, args: unknown): Promise<{ rest: unknown; connection: ConnectionSource }> {
  const { account, rest } = splitAccount(args);
  return { rest, connection: account === undefined ? connectionFor(source) : await accountConnection(source.functionName, account) };
}

/** A read's warnings go to the Pulumi log, shown with the program's diagnostics. */
const readOptions: ReadOptions = { onWarning: (message) => void pulumi.log.warn(message) };

/** Promise form of a single-record data source. */
export function invokeOne<R>(source: DataSource, args: unknown): Promise<R> {
  return prepared(source, args)
    .then(({ rest, connection }) => readOne<R>(source, rest, connection, readOptions))
    .catch(rethrowForProgram);
}

/** Promise form of a list data source. */
export function invokeList<R>(source: DataSource, args: unknown): Promise<ListResult<R>> {
  return prepared(source, args)
    .then(({ rest, connection }) => readList<R>(source, rest, connection, readOptions))
    .catch(rethrowForProgram);
}

/**
 * `Output` form of a data source: waits for every `Input` in `args` (and for `opts.dependsOn`), then
 * runs the promise form. While any input is unknown (a preview before its resource exists) the
 * result is unknown and nothing is read; a secret input makes the result secret (but for the account's
 * token, which never reaches a result: `./accountArgument`); the result carries
 * the resource dependencies of its inputs, so a resource fed from it is ordered after them.
 */
export function outputForm<A, R>(
  read: (args: A) => Promise<R>,
  args: unknown,
  opts: DataSourceOutputOptions | undefined,
): pulumi.Output<R> {
  // The account is unwrapped on its own: its secret token must not make the result secret.
  const { account, rest } = splitAccount(args ?? {});
  const ofAccount = accountOutput(account);
  const others = pulumi.output(rest ?? {}) as pulumi.Output<unknown>;
  const unwrapped =
    ofAccount === undefined ? others : pulumi.all([others, ofAccount]).apply(([a, acc]) => ({ ...(a as object), account: acc }));
  const ready = opts?.dependsOn === undefined ? unwrapped : pulumi.all([unwrapped, dependenciesOf(opts.dependsOn)]).apply(([a]) => a);
  return ready.apply((a) => read(a as A));
}

/**
 * Resolves once every resource in `dependsOn` is ready: a custom resource when its `id` is known (it
 * is unknown during a preview of a resource not yet created, which keeps the read from running too
 * early, as engine invokes do), any other resource when its `urn` is.
 */
function dependenciesOf(dependsOn: NonNullable<DataSourceOutputOptions["dependsOn"]>): pulumi.Output<unknown> {
  const resolved = pulumi.output(dependsOn) as unknown as pulumi.Output<unknown>;
  return resolved.apply((value) => {
    const resources = (Array.isArray(value) ? value : [value]) as pulumi.Resource[];
    return pulumi.all(resources.map((r) => (pulumi.CustomResource.isInstance(r) ? (r as pulumi.CustomResource).id : r.urn)));
  });
}
