/**
 * The refusal of a change that would leave an object on the platform while the `leftBehind`
 * setting is `refuse` (provider/resources/lifecycle/leftBehind.ts). Thrown by `diff`, before any
 * request, so a CI preview fails on it; callers branch on its `code`; its class exists for `objects`.
 */
import { AdPlatformError, type MessageParts } from "./adPlatformError";

/** One object a change would leave on the platform: what a reviewer needs to find it. */
export interface LeftObject {
  /** The resource kind: `BidStrategy`, `CampaignGroup`. */
  readonly kind: string;
  /** The object's id on the platform (the engine id). */
  readonly id: string;
  /** Its name on the platform, when the kind has one. */
  readonly name?: string;
}

/** A change refused because it would leave `objects` on the platform unapproved; nothing was sent. */
export class LeftBehindRefusedError extends AdPlatformError {
  override readonly name = "LeftBehindRefusedError";
  /** The objects the change would have left. */
  readonly objects: readonly LeftObject[];

  constructor(parts: MessageParts, objects: readonly LeftObject[]) {
    super("ADP_ERR_LEFT_BEHIND_REFUSED", parts);
    this.objects = objects;
  }
}
