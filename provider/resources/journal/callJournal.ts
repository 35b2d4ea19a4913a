/**
 * The journal as one lifecycle call reaches it: the store the call's settings name, built once for
 * the call (a fallback ladder lives for one create or one settling, so a create's entries stay in one
 * place and the next call starts from Redis again), and the account its entries name.
 */
import { resolveAccount } from "../../client";
import type { Settings } from "../../configuration/settings";
import type { LifecycleContext } from "../lifecycle/context";
import { journalAccount, type JournalStore, journalStoreFor } from "./store";

/** The store of `settings`, built at its first use and then the same for the call. */
export function callJournal(settings: Pick<Settings, "journalDir" | "limitsUrl">): () => JournalStore {
  let store: JournalStore | undefined;
  return () => (store ??= journalStoreFor(settings));
}

/** The journal account of the context's connection: a hash of its account key, never the token. */
export function accountOf(ctx: LifecycleContext): string {
  return journalAccount(resolveAccount({ baseUrl: ctx.settings.baseUrl, token: ctx.settings.token }).key);
}
