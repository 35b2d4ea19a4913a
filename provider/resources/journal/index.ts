/** The create journal: its protocol (./journaling.ts) and the store of its entries (./store). */
export { journaledCreate, journaling } from "./journaling";
export type { CreateSend, JournaledCreate, JournaledKind } from "./journalRun";
export { CreateSession } from "./createSession";
export { engineGone } from "./begin";
export { settleRecorded } from "./settle";
// For the command that reads the left-behind list (faces/leftBehindList).
export { type KnownStack, type LeftBehindObject, journalAccount, leftBehindPlaces, readLeftBehind } from "./store";
