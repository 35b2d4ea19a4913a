/**
 * The refusal of a change that would leave an object on the platform while `leftBehind` is `refuse`
 * (provider/resources/lifecycle/leftBehind.ts). Thrown by `diff`, before any request, so a CI preview
 * fails on it; its class exists for `objects`.
 */
import { AdPlatformError, type MessageParts } from "./adPlatformError";

/** One object a change would leave on the platform: what a reviewer needs to find it. */
export interface LeftObject {
  /** `BidStrategy`, `CampaignGroup`. */
  readonly kind: string;
  /** The engine id. */
  readonly id: string;
  readonly name?: string;
}

export class LeftBehindRefusedError extends AdPlatformError {
  override readonly name = "LeftBehindRefusedError";

  constructor(
    parts: MessageParts,
    readonly objects: readonly LeftObject[],
  ) {
    super("ADP_ERR_LEFT_BEHIND_REFUSED", parts);
  }
}
