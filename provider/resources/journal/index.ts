/**
 * The create journal, one module: the protocol (recover, begin, settle: ./journaling.ts) and the
 * store it keeps its entries in (./store). What the rest of the provider uses of it:
 * - the registry wraps each kind its definition creates by POST with `journaling`, whose `create`
 *   sends the kind's POST through `journaledCreate`;
 * - a face holds one `CreateSession` and, when its engine has gone, awaits `engineGone`;
 * - the SDK settles an entry once the engine has recorded its id (`settleRecorded`).
 * docs/create-journal.md tells the states and transitions of an entry.
 */
export { journaledCreate, journaling } from "./journaling";
export type { CreateSend, JournaledCreate, JournaledKind } from "./createSpec";
export { CreateSession } from "./createSession";
export { EngineGoneError, engineGone } from "./engineGone";
export { refusedDelete, settleRecorded } from "./settle";
