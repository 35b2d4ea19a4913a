/**
 * One journaled create: what it is given (`JournaledCreate`, from the kind's lifecycle) and the
 * journal of the lifecycle call it runs in: the store the call's settings name, built at its first
 * use and then the same for the call (a fallback ladder lives for one create or one settling, so a
 * create's entries stay in one place and the next call starts from Redis again), and the account
 * its entries name.
 */
import { resolveAccount } from "../../client";
import type { Settings } from "../../configuration";
import type { LifecycleContext } from "../lifecycle/context";
import type { CreateResult } from "../lifecycle/contract";
import type { ResourceKind } from "../kinds";
import { journalAccount, type JournalStore, journalStoreFor } from "./store";

/** What the POST of a journaled create receives: pass all three to the client's `call`. */
export interface CreateSend {
  readonly signal: AbortSignal;
  readonly beforeSend: () => Promise<void>;
  readonly afterAttempt: () => void;
}

/** What the journal needs of a kind's definition (../inputs/definition.ts). */
export interface JournaledKind {
  readonly kind: ResourceKind;
  /** The kind's object in messages: `bid strategy`. */
  readonly noun: string;
}

/** One journaled create. */
export interface JournaledCreate<Inputs, Outputs> {
  readonly definition: JournaledKind;
  /** The checked inputs (hashed; a take-over returns them as outputs, with the journaled extras). */
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

/**
 * The resource's declared name (its `name` input: every kind created by POST has one), which a person
 * looks for on the platform, and how messages name the resource: `<Kind> "<name>"`.
 */
export function namesOf(definition: JournaledKind, inputs: unknown): { readonly name: string; readonly subject: string } {
  const declared = (inputs as { name?: unknown } | undefined)?.name;
  const name = typeof declared === "string" ? declared : "";
  return { name, subject: `${definition.kind} ${JSON.stringify(name)}` };
}

/** How entries show a time (an epoch millisecond) in messages. */
export const when = (epochMs: number) => new Date(epochMs).toISOString();

/** The store of a lifecycle call (see the module comment). */
export type CallJournal = () => JournalStore;

/** The store of `settings` for one lifecycle call. */
export function callJournal(settings: Pick<Settings, "journalDir" | "limitsUrl">): CallJournal {
  let store: JournalStore | undefined;
  return () => (store ??= journalStoreFor(settings));
}

/** The journal account of the context's connection: a hash of its account key, never the token. */
export function accountOf(ctx: LifecycleContext): string {
  return journalAccount(resolveAccount({ baseUrl: ctx.settings.baseUrl, token: ctx.settings.token }).key);
}
