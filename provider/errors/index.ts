/** The package's one error family: its base, its codes, the one renderer of its messages. */
export { AdPlatformError, messageParts, renderMessage, underSubject, type ErrorCode, type MessageParts } from "./adPlatformError";
export { describeError } from "./inspection";
export { LeftBehindRefusedError, type LeftObject } from "./leftBehindRefused";
