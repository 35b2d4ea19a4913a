/** The package's one error family: its base, its codes, the one renderer of its messages. */
export * from "./adPlatformError";
export { describeError } from "./inspection";
export { LeftBehindRefusedError, type LeftObject } from "./leftBehindRefused";
