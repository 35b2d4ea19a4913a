/** The input approving what a replacement leaves (../lifecycle/leftBehind.ts); no diff rule, so a change never replaces. */
import { z } from "zod";
import type { InputField } from "./definition";

export const APPROVAL_INPUT = "approveLeavingId";

export const APPROVAL_FIELD = {
  schema: z.string().trim().min(1, "must not be empty").optional(),
  description:
    "The id of this resource's current object on the platform that a replacement may leave there (the API cannot " +
    "delete it). Only read when the provider's `leftBehind` setting is `refuse`: a change that replaces the resource is then " +
    "refused at preview unless this names the object it leaves. Never compared: setting or removing it changes nothing on " +
    "the platform.",
  stateDescription: "The id of the object last approved to be left on the platform by a replacement.",
} as const satisfies InputField;
