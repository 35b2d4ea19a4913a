/**
 * The objects a stack left on the platform (the API deletes nothing), for `adplatform-left-behind`. Kept
 * where the journal is: in `journalDir`/left-behind/ (a private file per object, and one per stack seen,
 * so a listing tells a stack that left nothing from one never seen) and, with a limits URL, in Redis
 * (`adplatform:left-behind:objects`, `:stacks`, never expiring); written on the fallback ladder.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import {
  ensurePrivateDirectory,
  readFileNoLink,
  writeFileAtomically,
  FallbackLadder,
  isRedisUrl,
  sharedRedis,
} from "../../../infrastructure";
import type { Settings } from "../../../configuration";
import { keyHash } from "./journalEntry";

export const LEFT_BEHIND_CHANGES = ["replaced", "deleted", "createdAgain"] as const;

export const LeftBehindObject = z.object({
  format: z.literal(1),
  /** `journalAccount`. */
  account: z.string(),
  kind: z.string(),
  /** Absent for what an ambiguous create may have made. */
  id: z.string().optional(),
  name: z.string().optional(),
  project: z.string(),
  stack: z.string(),
  urn: z.string(),
  /** Epoch ms (an ambiguous create's: its send). */
  leftAt: z.number(),
  /** `replaced` by `replacedBy`; `deleted` from the stack; `createdAgain`: ambiguous `record` resolved by `createAgain`. */
  change: z.enum(LEFT_BEHIND_CHANGES),
  replacedBy: z.string().optional(),
  record: z.string().optional(),
  /** Set by a person, through the command. */
  cleanedUpAt: z.number().optional(),
  cleanedUpBy: z.string().optional(),
});
export type LeftBehindObject = z.infer<typeof LeftBehindObject>;

/** A stack that ran with the list's store. */
export const KnownStack = z.object({ account: z.string(), project: z.string(), stack: z.string() });
export type KnownStack = z.infer<typeof KnownStack>;

export interface LeftBehindStore {
  /** For messages: a directory, or a Redis URL without its password. */
  readonly where: string;
  put(object: LeftBehindObject): void | Promise<void>;
  noteStack(stack: KnownStack): void | Promise<void>;
  objects(): LeftBehindObject[] | Promise<LeftBehindObject[]>;
  stacks(): KnownStack[] | Promise<KnownStack[]>;
}

/** The project and stack a URN names (`urn:pulumi:<stack>::<project>::<type>::<name>`). */
export function stackOfUrn(urn: string): { project: string; stack: string } {
  const [, stack = "", project = ""] = /^urn:pulumi:([^:]*)::([^:]*)::/.exec(urn) ?? [];
  return { project, stack };
}

export function leftBehindKey(object: Pick<LeftBehindObject, "account" | "kind" | "id" | "record">): string {
  return keyHash(`${object.account}\u0000${object.kind}\u0000${object.id ?? object.record ?? ""}`);
}

const stackKey = (stack: KnownStack) => keyHash(`${stack.account}\u0000${stack.project}\u0000${stack.stack}`);

/** The texts that parse as a `T` (others are another release's, or junk). */
function parsed<T>(schema: z.ZodType<T>, texts: readonly string[]): T[] {
  return texts.flatMap((text) => {
    try {
      const result = schema.safeParse(JSON.parse(text));
      return result.success ? [result.data] : [];
    } catch {
      return [];
    }
  });
}

export function directoryList(journalDir: string): LeftBehindStore {
  const dir = join(journalDir, "left-behind");
  let checked = false;
  const ready = () => {
    if (!checked) ensurePrivateDirectory(dir);
    checked = true;
  };
  const read = <T>(schema: z.ZodType<T>, prefix: string): T[] => {
    // Reading makes nothing: a list never written holds nothing.
    if (!existsSync(dir)) return [];
    ready();
    const names = readdirSync(dir).filter((name) => name.startsWith(prefix) && name.endsWith(".json"));
    const texts = names.map((name) => readFileNoLink(join(dir, name)));
    return parsed(schema, texts);
  };
  const write = (name: string, value: unknown) => {
    ready();
    writeFileAtomically(dir, name, JSON.stringify(value));
  };
  return {
    where: dir,
    put: (object) => write(`object-${leftBehindKey(object)}.json`, object),
    noteStack: (stack) => write(`stack-${stackKey(stack)}.json`, stack),
    objects: () => read(LeftBehindObject, "object-"),
    stacks: () => read(KnownStack, "stack-"),
  };
}

export const REDIS_LEFT_BEHIND_OBJECTS = "adplatform:left-behind:objects";
const REDIS_LEFT_BEHIND_STACKS = "adplatform:left-behind:stacks";

export function redisList(url: string): LeftBehindStore {
  const connection = sharedRedis(url);
  return {
    where: connection.shownUrl,
    put: async (object) => {
      await connection.run((client) => client.hset(REDIS_LEFT_BEHIND_OBJECTS, leftBehindKey(object), JSON.stringify(object)));
    },
    noteStack: async (stack) => {
      await connection.run((client) => client.sadd(REDIS_LEFT_BEHIND_STACKS, JSON.stringify(stack)));
    },
    objects: async () => parsed(LeftBehindObject, await connection.run((client) => client.hvals(REDIS_LEFT_BEHIND_OBJECTS))),
    stacks: async () => parsed(KnownStack, await connection.run((client) => client.smembers(REDIS_LEFT_BEHIND_STACKS))),
  };
}

/** The places of the list: Redis first with a limits URL, then the journal directory. */
export function leftBehindPlaces(settings: Pick<Settings, "journalDir" | "limitsUrl">): LeftBehindStore[] {
  const url = settings.limitsUrl;
  const directory = directoryList(settings.journalDir);
  return url !== undefined && isRedisUrl(url) ? [redisList(url), directory] : [directory];
}

/** Where the provider writes: the first of the places that works (the fallback ladder). */
export function leftBehindWriter(
  settings: Pick<Settings, "journalDir" | "limitsUrl">,
): Pick<LeftBehindStore, "where" | "put" | "noteStack"> {
  const ladder = new FallbackLadder<LeftBehindStore>(leftBehindPlaces(settings).map((place) => ({ make: () => place })));
  return {
    get where() {
      return ladder.place.where;
    },
    put: (object) => ladder.run((place) => place.put(object)),
    noteStack: (stack) => ladder.run((place) => place.noteStack(stack)),
  };
}

export type LeftBehindReading =
  | { readonly objects: LeftBehindObject[]; readonly stacks: KnownStack[] }
  | { readonly unreadable: { readonly where: string; readonly reason: string } };

/** Every object and stack the places hold; of an object in two places, the later leaving, else the cleaned-up copy. */
export async function readLeftBehind(places: readonly LeftBehindStore[]): Promise<LeftBehindReading> {
  const objects = new Map<string, LeftBehindObject>();
  const stacks = new Map<string, KnownStack>();
  for (const place of places) {
    let held: { objects: LeftBehindObject[]; stacks: KnownStack[] };
    try {
      held = { objects: await place.objects(), stacks: await place.stacks() };
    } catch (error) {
      return { unreadable: { where: place.where, reason: error instanceof Error ? error.message : String(error) } };
    }
    for (const object of held.objects) {
      const key = leftBehindKey(object);
      const known = objects.get(key);
      const later = known === undefined || object.leftAt > known.leftAt;
      if (later || (object.leftAt === known.leftAt && object.cleanedUpAt !== undefined)) objects.set(key, object);
    }
    for (const stack of held.stacks) stacks.set(stackKey(stack), stack);
  }
  return { objects: [...objects.values()].sort((a, b) => a.leftAt - b.leftAt), stacks: [...stacks.values()] };
}
