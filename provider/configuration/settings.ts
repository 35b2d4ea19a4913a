/**
 * Every setting described once, and their one resolution for both faces and the program: a face hands
 * `resolveSettings` the places it received values from, in its order; the environment comes last. The
 * result is passed down with every call. Secret settings are kept off its enumerable fields and out of
 * `inspect`, so logging or serializing a `Settings` cannot leak them.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";

/** The package name, the namespace of its stack config keys (`adplatform:token`). */
export const CONFIG_NAMESPACE = "adplatform";

export interface SettingDefinition {
  /** For users (the schema's config section and the SDKs' docs): markdown, no spec citations. */
  readonly description: string;
  /** The environment variable that sets it when no config does. */
  readonly env: string;
  /** A credential (or may hold one): set with `--secret`, never shown. */
  readonly secret: boolean;
  /** What applies when it is set nowhere, for users; none: the setting is then missing. */
  readonly defaultDescription?: string;
}

/** Every setting, in the order the schema lists them. */
export const SETTINGS = {
  // Decision (not shown in spec): `{base_url}` has no documented value, so there is no default.
  baseUrl: {
    description:
      "The API's base URL, e.g. `https://api.example.com` (a path prefix is kept). Plain `http://` is accepted only for loopback hosts such as the local simulator.",
    env: "ADPLATFORM_BASE_URL",
    secret: false,
  },
  // spec, Authentication 1: sent as `Authorization: Bearer <token>`.
  token: {
    description: "The API access token, sent as a bearer token. Set it as a secret: `pulumi config set --secret adplatform:token <token>`.",
    env: "ADPLATFORM_TOKEN",
    secret: true,
  },
  limitsUrl: {
    description:
      "A Redis URL through which every machine deploying to the same account shares its rate limits and create journal: `redis://[[user]:password@]host[:port][/db]` for one server, `redis+cluster://[[user]:password@]host:port[,host:port...]` for a Redis Cluster, `redis+sentinel://[[user]:password@]host:port[,host:port...]/<primary name>[?sentinelPassword=...]` for a primary behind Sentinels; `rediss` instead of `redis` for TLS. Set it as a secret when it holds a password.",
    env: "ADPLATFORM_LIMITS_URL",
    secret: true,
    defaultDescription: "none: the limits are shared by this machine's processes, and the create journal is kept in `journalDir`",
  },
  // provider/resources/journal: in the Pulumi home, which survives a reboot (unlike the limiter's /dev/shm).
  journalDir: {
    description:
      "The directory of the create journal, which lets an update interrupted mid-create take over the object it created instead of creating it twice. A CI runner whose next run may be another machine points it at a directory the runs share (or sets `limitsUrl`).",
    env: "ADPLATFORM_JOURNAL_DIR",
    secret: false,
    defaultDescription: "`$PULUMI_HOME/adplatform/create-journal`, else `~/.pulumi/adplatform/create-journal`",
  },
  // provider/resources/lifecycle/readGrace.ts: whether the platform reads its own writes at once is not shown.
  readGraceSeconds: {
    description:
      "For how many seconds after the provider created or adopted an object a read that does not find it (a 404, or no record) is taken as the platform not showing it yet rather than as the object being gone: the read is tried again with backoff, and if the object still does not show, it stays in the stack's state with a warning. After this period a missing object is gone and leaves the state. `0` turns the grace off.",
    env: "ADPLATFORM_READ_GRACE_SECONDS",
    secret: false,
    defaultDescription: "`300` (5 minutes)",
  },
  // provider/configuration/rateLimitShare.ts: the `share` of the limiter's model (limiter/limiterModel.ts).
  rateLimitShare: {
    description:
      "The fraction of the account's rate limits this provider may spend, a number above 0 and at most 1, for accounts that other systems use too: `0.5` spends at most 75 of the 150 requests per minute and 5 of the 10 per second, and leaves the rest of every window to them. Every process and machine that shares the limits (this machine's, or those of one `limitsUrl`) spends within the same share together. A smaller share makes a large update slower in proportion.",
    env: "ADPLATFORM_RATE_LIMIT_SHARE",
    secret: false,
    defaultDescription: "`1`: the whole limit",
  },
  // provider/resources/journal/ambiguousRecords.ts: the one act that says an ambiguous create made nothing.
  createAgain: {
    description:
      "Ambiguous creates to send again, each named by the record id its error gave (`amb-` and 12 hex digits), separated by commas or spaces. Set it only after looking on the platform: it says the object that create may have made is not there, and the next update sends exactly one create for that resource. A record that the program adopts with `adoptId` instead needs no entry. An id that names no record does nothing, so the setting can stay until the next clean-up.",
    env: "ADPLATFORM_CREATE_AGAIN",
    secret: false,
    defaultDescription: "none: a resource with an ambiguous create is not created again until its record is resolved",
  },
  // provider/resources/lifecycle/leftBehind.ts: the API deletes nothing, so a replace or destroy leaves the old object.
  leftBehind: {
    description:
      "What a preview or update does about a change that would leave an object on the platform (the API can neither update nor delete bid strategies and campaign groups, so a replacement leaves the old object live): `warn` names each such object in the preview, `refuse` fails the preview or update in its diff, before any request, naming each object, unless the resource sets `approveLeavingId` to the id of the object it approves leaving. A destroy is not refused by the provider (the engine calls no provider code in a destroy's preview).",
    env: "ADPLATFORM_LEFT_BEHIND",
    secret: false,
    defaultDescription: "`warn`",
  },
} as const satisfies Record<string, SettingDefinition>;

/** One setting's name, as in `adplatform:<name>` and as a provider argument. */
export type SettingKey = keyof typeof SETTINGS;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

/** `adplatform:<key>`. */
export const configKey = (key: SettingKey): string => `${CONFIG_NAMESPACE}:${key}`;

/**
 * Where a value came from: `configureDataSources(...)`, the stack config (or an explicit native
 * provider's arguments), the environment, or an `Account` (which replaces all three).
 */
export type SettingOrigin = "explicit" | "stackConfig" | "environment" | "account";

/** One place a face received settings from. A `read` that throws counts as "not set there". */
export interface SettingsLayer {
  readonly origin: SettingOrigin;
  read(key: SettingKey): unknown;
}

/** Every setting's value in force (a secret not enumerable, redacted by `inspect`), and where each came from. */
export type Settings = Readonly<Partial<Record<SettingKey, string>>> & {
  readonly journalDir: string;
  readonly origins: Readonly<Partial<Record<SettingKey, SettingOrigin>>>;
};

type Env = Readonly<Record<string, string | undefined>>;
type Values = Partial<Record<SettingKey, string>>;

/** `value` when it is a string with more than white space, else undefined. */
export const nonEmpty = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);

function defaultJournalDir(env: Env): string {
  return join(nonEmpty(env.PULUMI_HOME) ?? join(homedir(), ".pulumi"), "adplatform", "create-journal");
}

/** The dynamic plugin's `Config` throws when the engine never sent `Configure`: that means "not set". */
function readLayer(layer: SettingsLayer, key: SettingKey): string | undefined {
  try {
    return nonEmpty(layer.read(key));
  } catch {
    return undefined;
  }
}

/** For each setting, the first of `layers` that sets it, else the environment, else its default; a limits URL trimmed. */
export function resolveSettings(layers: readonly SettingsLayer[], env: Env = process.env): Settings {
  const values: Values = {};
  const origins: Partial<Record<SettingKey, SettingOrigin>> = {};
  for (const key of SETTING_KEYS) {
    for (const layer of [...layers, { origin: "environment" as const, read: (k: SettingKey) => env[SETTINGS[k].env] }]) {
      const value = readLayer(layer, key);
      if (value === undefined) continue;
      values[key] = key === "limitsUrl" ? value.trim() : value;
      origins[key] = layer.origin;
      break;
    }
  }
  return makeSettings({ ...values, journalDir: values.journalDir ?? defaultJournalDir(env) }, origins);
}

/** A layer of plain values (a provider's arguments, `configureDataSources`'s settings). */
export function valuesLayer(origin: SettingOrigin, values: Readonly<Partial<Record<SettingKey, unknown>>>): SettingsLayer {
  return { origin, read: (key) => values[key] };
}

/** A layer of a stack config read by full key (`adplatform:token`). */
export function stackConfigLayer(get: (fullKey: string) => unknown): SettingsLayer {
  return { origin: "stackConfig", read: (key) => get(configKey(key)) };
}

/** `settings` with `values` in place of its own (set or not: an explicit account's), from `origin`. */
export function settingsWith(settings: Settings, values: Readonly<Values>, origin: SettingOrigin): Settings {
  const merged: Values = {};
  const origins: Partial<Record<SettingKey, SettingOrigin>> = {};
  for (const key of SETTING_KEYS) {
    const replaced = key in values;
    const value = replaced ? nonEmpty(values[key]) : settings[key];
    if (value === undefined) continue;
    merged[key] = value;
    const from = replaced ? origin : settings.origins[key];
    if (from !== undefined) origins[key] = from;
  }
  return makeSettings({ ...merged, journalDir: merged.journalDir ?? settings.journalDir }, origins);
}

function makeSettings(values: Values & { journalDir: string }, origins: Settings["origins"]): Settings {
  const settings = { origins } as Record<string, unknown>;
  const shown: Record<string, string> = {};
  for (const [key, value] of Object.entries(values) as [SettingKey, string | undefined][]) {
    if (value === undefined) continue;
    Object.defineProperty(settings, key, { value, enumerable: !SETTINGS[key].secret });
    shown[key] = SETTINGS[key].secret ? "[REDACTED]" : value;
  }
  Object.defineProperty(settings, inspect.custom, { value: () => `Settings ${inspect(shown)}`, enumerable: false });
  return Object.freeze(settings) as unknown as Settings;
}
