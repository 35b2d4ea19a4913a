/** One journaled create, and its call's journal: built at first use and kept for the call, so its entries stay in one place. */
import { resolveAccount } from "../../client";
import type { Settings } from "../../configuration";
import type { LifecycleContext } from "../lifecycle/context";
import type { CreateResult } from "../lifecycle/contract";
import type { AnyResourceDefinition } from "../inputs/definition";
import { journalAccount, type JournalStore, journalStoreFor } from "./store";

/** What the POST of a journaled create receives: pass all three to the client's `call`. */
export interface CreateSend {
  readonly signal: AbortSignal;
  readonly beforeSend: () => Promise<void>;
  readonly afterAttempt: () => void;
}

export type JournaledKind = Pick<AnyResourceDefinition, "kind" | "noun">;

export interface JournaledCreate<Inputs, Outputs> {
  readonly definition: JournaledKind;
  /** Checked inputs (hashed; a take-over returns them, with the journaled extras, as outputs). */
  readonly inputs: Inputs;
  /** Sends the create; throws the client's error as it is. */
  post(send: CreateSend): Promise<CreateResult<Outputs>>;
}

/** One journaled create of a resource whose URN is known, as `journaledCreate` runs it. */
export interface Journaled {
  readonly ctx: LifecycleContext;
  readonly journal: JournalStore;
  readonly urn: string;
  readonly account: string;
  readonly hash: string;
}

/** The resource's declared `name` (what a person looks for on the platform) and its subject: `<Kind> "<name>"`. */
export function namesOf(definition: JournaledKind, inputs: unknown): { readonly name: string; readonly subject: string } {
  const declared = (inputs as { name?: unknown } | undefined)?.name;
  const name = typeof declared === "string" ? declared : "";
  return { name, subject: `${definition.kind} ${JSON.stringify(name)}` };
}

export const when = (epochMs: number) => new Date(epochMs).toISOString();

export type CallJournal = () => JournalStore;

export function callJournal(settings: Pick<Settings, "journalDir" | "limitsUrl">): CallJournal {
  let store: JournalStore | undefined;
  return () => (store ??= journalStoreFor(settings));
}

export async function bestEffort<T>(step: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await step();
  } catch {
    return undefined;
  }
}

/** The journal account of the context's connection: a hash of its account key, never the token. */
export function accountOf(ctx: LifecycleContext): string {
  return journalAccount(resolveAccount({ baseUrl: ctx.settings.baseUrl, token: ctx.settings.token }).key);
}
