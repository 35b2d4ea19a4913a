/**
 * The create journal, one module: its protocol (recover, begin, settle: ./journaling.ts) and the
 * store of its entries (./store). The registry wraps each kind created by POST with `journaling`, the
 * defaults send its POST through `journaledCreate`, a face holds one `CreateSession` and awaits
 * `engineGone`, the SDK settles what the engine recorded (`settleRecorded`).
 */
export { journaledCreate, journaling } from "./journaling";
export type { CreateSend, JournaledCreate, JournaledKind } from "./journalRun";
export { CreateSession } from "./createSession";
export { engineGone } from "./begin";
export { settleRecorded } from "./settle";
// The list of objects left on the platform, for the command that reads it (faces/leftBehindList).
export { type KnownStack, type LeftBehindObject, journalAccount, leftBehindPlaces, readLeftBehind } from "./store";
