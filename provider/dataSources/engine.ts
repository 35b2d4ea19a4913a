/**
 * The one read engine behind `definitions.ts`: validates the arguments, resolves the connection as the
 * client does, shares one request among identical reads of the run (`ReadCache`), calls the client
 * (which charges `fields`, spec Limits 7), and maps the record to camelCase (`toSdk`).
 */
import { type Connection, type ConnectionOptions, getApiClient, resolveAccount, type ResolvedAccount } from "../client";
import type { Envelope } from "../catalog";
import { roundedIntegersNotice, toSdk, plainJson } from "../wire";
import { parseArguments, type ReadRequest } from "./arguments";
import type { DataSource } from "./dataSource";
import { AdPlatformError } from "../errors";
import { DataSourceNotFoundError } from "./errors";
import { explainFailure, requestLine, translateFailure } from "./explainFailure";
import { ReadCache, readKey } from "./readCache";
import type { SettingOrigins } from "./settingRemedy";

/** Result of a list read. */
export interface ListResult<T> {
  /** spec: an integer, once sent as a string; a number here. */
  total: number;
  items: T[];
}

/** Base URL and token, and where each came from when known (a failure they cause then says where to change it). */
export interface ConnectionSettings extends ConnectionOptions {
  readonly origins?: SettingOrigins;
  readonly limitsUrl?: string;
  /** In (0, 1]; none: all. */
  readonly rateLimitShare?: number;
}

/** The settings, or a function giving them (called after the arguments are validated). */
export type ConnectionSource = ConnectionSettings | (() => ConnectionSettings);

const runCache = new ReadCache();

/** For a process that runs several programs (Automation API inline programs, tests): each `up` is otherwise a new process. */
export function clearReadCache(): void {
  runCache.clear();
}

/**
 * Decision (not shown in spec): an integer beyond 2^53 in a number (or untyped) field is read as the
 * nearest number, which the result's type promises, with a warning naming it; an id keeps every digit.
 */
function warnOfRounding(source: DataSource, request: ReadRequest, paths: readonly string[], options: ReadOptions): void {
  if (paths.length === 0) return;
  const message = roundedIntegersNotice(`${source.functionName}: ${source.subject(request.args)}`, paths);
  if (options.onWarning) options.onWarning(message);
  else process.emitWarning(message, { code: "ADPLATFORM_ROUNDED_INTEGER" });
}

export interface ReadOptions {
  /** Receives each warning of the read; without it, warnings go to `process.emitWarning`. */
  readonly onWarning?: (message: string) => void;
}

/** The record or `{ total, items }` of one response, camelCase. */
function shapeResult(source: DataSource, request: ReadRequest, body: unknown, options: ReadOptions): unknown {
  const rounded: string[] = [];
  const envelope = toSdk<Envelope<unknown>>(source.operation.response!, body, (path) => rounded.push(path.join(".")));
  warnOfRounding(source, request, rounded, options);
  if (source.shape === "one") {
    // spec, Conventions: "A single-record read returns an items array with one element".
    const [record] = envelope.items;
    if (record === undefined) {
      throw new DataSourceNotFoundError(source.functionName, source.subject(request.args), `${requestLine(request)} returned no record`);
    }
    return record;
  }
  return { total: envelope.total, items: envelope.items } satisfies ListResult<unknown>;
}

/** A base URL or token the client would refuse fails the read as not sent, naming it (cause: the `ApiConfigError`). */
function resolveFor(source: DataSource, request: ReadRequest, settings: ConnectionSettings): ResolvedAccount {
  try {
    return resolveAccount(settings);
  } catch (error) {
    throw translateFailure(source, request, error, settings.origins ? { origins: settings.origins } : {});
  }
}

async function fetchOnce(
  source: DataSource,
  request: ReadRequest,
  connection: Connection,
  settings: ConnectionSettings,
  options: ReadOptions,
): Promise<unknown> {
  const { origins, limitsUrl, rateLimitShare } = settings;
  let body: unknown;
  try {
    const client = getApiClient({
      baseUrl: connection.baseUrl,
      token: connection.token,
      limitsUrl,
      ...(rateLimitShare === undefined ? {} : { rateLimitShare }),
    });
    const response = await client.call(source.readOperation, {
      pathParams: request.pathParams,
      ...(request.fields.length > 0 ? { fields: [...request.fields] } : {}),
      ...(Object.keys(request.query).length > 0 ? { query: { ...request.query } } : {}),
    });
    body = response.body;
  } catch (error) {
    throw await explainFailure(source, request, connection, error, origins);
  }
  return shapeResult(source, request, body, options);
}

/** Identical reads of one account in this run share one request; each caller gets its own copy of the result. */
async function read(source: DataSource, shape: DataSource["shape"], args: unknown, connection: ConnectionSource, options: ReadOptions) {
  if (source.shape !== shape) {
    throw new AdPlatformError("ADP_ERR_DEFINITION", `${source.functionName} is a ${shape === "one" ? "list" : "single-record"} read`);
  }
  const request = parseArguments(source, args);
  const settings = typeof connection === "function" ? connection() : connection;
  const account = resolveFor(source, request, settings);
  const key = readKey({ ...request, account: account.key, operation: source.operation.name });
  return plainJson(await runCache.get(key, () => fetchOnce(source, request, account.connection, settings, options)));
}

export function readOne<T>(source: DataSource, args: unknown, connection: ConnectionSource, options: ReadOptions = {}): Promise<T> {
  return read(source, "one", args, connection, options) as Promise<T>;
}

export function readList<T>(source: DataSource, args: unknown, connection: ConnectionSource, options: ReadOptions = {}) {
  return read(source, "list", args, connection, options) as Promise<ListResult<T>>;
}
