/**
 * The one read engine behind all 16 data sources: the engine is kept apart from the data, which is
 * the table in `definitions.ts`. A read: validates the arguments, resolves the connection the way
 * the client does, shares one request among identical reads of the run (`ReadCache`), calls the
 * shared rate-limited client (which charges `fields` at their true cost, spec Limits 7), and maps
 * the wire record to camelCase through the operation's record schema (`toSdk`: data-valued keys
 * stay verbatim).
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

/** Result of a list read (ops 6, 14, 15, 17, 18). */
export interface ListResult<T> {
  /** Number of records the platform reports (spec: an integer, once given as a string; always a number here). */
  total: number;
  /** The records, camelCase. */
  items: T[];
}

/**
 * Base URL and token to read with, and where each came from when the caller knows (a failure
 * caused by one of them then says where to change it).
 */
export interface ConnectionSettings extends ConnectionOptions {
  readonly origins?: SettingOrigins;
  /** The Redis through which the account's limits are shared (the resolved `limitsUrl` setting). */
  readonly limitsUrl?: string;
  /** The share of the account's rate limits to spend, in (0, 1] (the resolved `rateLimitShare` setting); none: all. */
  readonly rateLimitShare?: number;
}

/**
 * The settings to read with, or a function giving them (called after the arguments are
 * validated). They are resolved as the client resolves them, so a read sees the same account (and
 * the same refusals of an unsafe base URL) as the client it calls.
 */
export type ConnectionSource = ConnectionSettings | (() => ConnectionSettings);

/** The cache of the program run (see `ReadCache` for what "run" means). */
const runCache = new ReadCache();

/**
 * Forgets every cached read of this process. A Pulumi program never needs it (each `up` is a new
 * process); a process that runs several programs (Automation API inline programs, tests) calls it
 * between runs so a later run sees changes.
 */
export function clearReadCache(): void {
  runCache.clear();
}

/**
 * Decision (not shown in spec): an integer beyond 2^53 in a number field (or a field the schema
 * does not type) is read as the nearest JavaScript number, since a number is what the result's type
 * promises, and the read warns naming each such field; an id keeps every digit (`WireId`).
 */
function warnOfRounding(source: DataSource, request: ReadRequest, paths: readonly string[], options: ReadOptions): void {
  if (paths.length === 0) return;
  const message = roundedIntegersNotice(`${source.functionName}: ${source.subject(request.args)}`, paths);
  if (options.onWarning) options.onWarning(message);
  else process.emitWarning(message, { code: "ADPLATFORM_ROUNDED_INTEGER" });
}

/** What a read tells its caller besides the result. */
export interface ReadOptions {
  /** Receives each warning of the read; without it, warnings go to `process.emitWarning`. */
  readonly onWarning?: (message: string) => void;
}

/** Record (for `one`) or `{ total, items }` (for `list`) of one response (parsed JSON), camelCase. */
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
  const list: ListResult<unknown> = { total: envelope.total, items: envelope.items };
  return list;
}

/**
 * The resolved account of a read. A base URL or token the client would refuse fails the read
 * as a request that was not sent, naming it, with the client's `ApiConfigError` as cause.
 */
function resolveFor(source: DataSource, request: ReadRequest, settings: ConnectionSettings): ResolvedAccount {
  try {
    return resolveAccount(settings);
  } catch (error) {
    throw translateFailure(source, request, error, settings.origins ? { origins: settings.origins } : {});
  }
}

/** The request itself; runs once per cache key. */
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

/**
 * Reads `source` with the caller's `args`. Identical reads of one account in this run share one
 * request and its result; each caller gets its own copy, so mutating a result never changes another.
 * Failed reads are not cached.
 */
async function readDataSource(source: DataSource, args: unknown, connection: ConnectionSource, options: ReadOptions): Promise<unknown> {
  const request = parseArguments(source, args);
  const settings = typeof connection === "function" ? connection() : connection;
  const account = resolveFor(source, request, settings);
  const key = readKey({
    account: account.key,
    operation: source.operation.name,
    pathParams: request.pathParams,
    fields: request.fields,
    query: request.query,
  });
  const value = await runCache.get(key, () => fetchOnce(source, request, account.connection, settings, options));
  return plainJson(value);
}

/** `readDataSource` for a single-record source, typed by the caller. */
export async function readOne<T>(source: DataSource, args: unknown, connection: ConnectionSource, options: ReadOptions = {}): Promise<T> {
  if (source.shape !== "one") throw new AdPlatformError("ADP_ERR_DEFINITION", `${source.functionName} is a list read`);
  return (await readDataSource(source, args, connection, options)) as T;
}

/** `readDataSource` for a list source, typed by the caller. */
export async function readList<T>(
  source: DataSource,
  args: unknown,
  connection: ConnectionSource,
  options: ReadOptions = {},
): Promise<ListResult<T>> {
  if (source.shape !== "list") throw new AdPlatformError("ADP_ERR_DEFINITION", `${source.functionName} is a single-record read`);
  return (await readDataSource(source, args, connection, options)) as ListResult<T>;
}
