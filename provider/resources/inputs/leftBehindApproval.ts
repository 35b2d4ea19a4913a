/**
 * The input by which a resource approves leaving its current object on the platform when a
 * replacement would (provider/resources/lifecycle/leftBehind.ts). Every kind lists it among its
 * fields; it has no diff rule, like `adoptId`, so setting, changing or removing it never replaces.
 */
import { z } from "zod";
import type { InputField } from "./definition";

/** The input's name. */
export const APPROVAL_INPUT = "approveLeavingId";

/**
 * The approval input every kind declares (each kind's fields list it; no diff rule, so a change to
 * it neither replaces nor updates).
 */
export const APPROVAL_FIELD = {
  schema: z.string().trim().min(1, "must not be empty").optional(),
  description:
    "The id of this resource's current object on the platform that a replacement may leave there (the API cannot " +
    "delete it). Only read when the provider's `leftBehind` setting is `refuse`: a change that replaces the resource is then " +
    "refused at preview unless this names the object it leaves. Never compared: setting or removing it changes nothing on " +
    "the platform.",
  stateDescription: "The id of the object last approved to be left on the platform by a replacement.",
} as const satisfies InputField;
