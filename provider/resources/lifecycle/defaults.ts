/**
 * A kind's lifecycle from what differs (after pulumi-go-provider's `infer`, which requires only
 * `Create`): a kind writes its calls to the platform, and `check`, `diff`, `read`, `update` and
 * `delete` follow from its definition's facts where it writes none:
 * - `check` validates with the definition's input schema (its relaxed one for an object that exists
 *   without a field only a create needs: an imported one);
 * - `diff` compares by the definition's diff rules; a kind that updates in place warns that a field
 *   removed from the program keeps its value on the platform (spec, Endpoints 1 and 4: "omitted
 *   fields stay unchanged"); a replace names the object it leaves on the platform, or is refused
 *   (./leftBehind.ts);
 * - `read` keeps the state as last written (spec: no GET for the kind);
 * - `update` PATCHes the changed fields with the kind's `patch`, or refuses: without a `patch` every
 *   compared field replaces, so the engine never asks;
 * - `delete` warns that the object stays on the platform: the API deletes none of the four kinds.
 */
import type { OperationNamed, PostOperationName } from "../../catalog";
import { ApiNotFoundError, type ResponseBodyOf } from "../../client";
import { AdPlatformError } from "../../errors";
import { type CreateSend, journaledCreate } from "../journal";
import { apiClient } from "./api";
import { rateLimitShareFailure } from "../../configuration";
import type { AnyResourceDefinition } from "../inputs/definition";
import { checkInputs, type InputSchema } from "../inputs/checkInputs";
import { diffInputs } from "../inputs/diff";
import { keptStateRead } from "../inputs/inputFields";
import { changedFields, declaredFields, warnRemovedFields } from "../inputs/patchFields";
import { ResourceOperationError, resourceError } from "./resourceErrors";
import { LIST_COMMAND, leftBehindRefusal, listLeftBehind, noteStack, sayLeftBehind } from "./leftBehind";
import { shortNoun } from "../inputs/definition";
import type { LifecycleContext } from "./context";
import type { CheckResult, CreateResult, ResourceLifecycle } from "./contract";

/** What a kind writes itself; everything else has a default (see the module comment). */
export interface KindCalls<Inputs, Outputs> {
  /**
   * How messages name the resource. Default: `<Kind> "<name>" (id <id>)` for a kind created by
   * POST, `<Kind> "<declared id>"` for one whose declared ids name an existing object.
   */
  readonly subject?: (values: Partial<Outputs>, id?: string) => string;
  /** Creates (or adopts) the object. Default: `adopt` or `post` for a kind created by POST, else `patch`. */
  readonly create?: (inputs: Inputs, ctx: LifecycleContext) => Promise<CreateResult<Outputs>>;
  /**
   * For the definition's `create` POST: its body, and what the answer makes. The create journal sends
   * it, so none goes unrecorded; `body` may refuse the create, before anything is read or sent.
   */
  readonly post?: {
    readonly body: (inputs: Inputs) => unknown;
    readonly created: (
      inputs: Inputs,
      answer: ResponseBodyOf<OperationNamed<PostOperationName>>,
      ctx: LifecycleContext,
    ) => CreateResult<Outputs>;
  };
  /** Takes over the object `adoptId` names instead of creating one (a kind adopted by `adoptId`). */
  readonly adopt?: (inputs: Inputs, adoptId: string, ctx: LifecycleContext) => Promise<CreateResult<Outputs>>;
  /** What the kind says about checked inputs (warnings), after the definition's check. */
  readonly checked?: (result: CheckResult<Inputs>, ctx: LifecycleContext) => Promise<void>;
  /** Reads the object from the platform. */
  readonly read?: ResourceLifecycle<Inputs, Outputs>["read"];
  /**
   * Sets `fields` of the existing object (the definition's `adoption.request`); throws the client's
   * error as it is. With it, the kind updates in place.
   */
  readonly patch?: (ctx: LifecycleContext, inputs: Inputs, fields: string[]) => Promise<void>;
}

/** `<noun>s`: `bid strategies`, `campaign groups`. */
const plural = (noun: string) => `${noun.replace(/y$/, "ie")}s`;

/** The default `subject` of `definition` (see `KindCalls.subject`). */
export function subjectOf(definition: AnyResourceDefinition): (values: Record<string, unknown>, id?: string) => string {
  const { kind, adoption } = definition;
  if (adoption.by === "adoptId") {
    // Without a name (a read or import by id alone), the id names it.
    return (values, id) =>
      typeof values.name === "string" ? `${kind} ${JSON.stringify(values.name)}${id ? ` (id ${id})` : ""}` : `${kind}${id ? ` ${id}` : ""}`;
  }
  return (values, id) => {
    const declared = adoption.ids.map((field) => values[field]);
    return `${kind} ${JSON.stringify(declared.every((value) => value !== undefined) ? declared.map(String).join("/") : id)}`;
  };
}

/** The lifecycle of `definition`'s kind: `calls` where it has them, else the defaults. */
export function lifecycleWithDefaults<Inputs, Outputs>(
  definition: AnyResourceDefinition,
  calls: KindCalls<Inputs, Outputs>,
): ResourceLifecycle<Inputs, Outputs> {
  const { noun, adoption } = definition;
  const subject = (calls.subject ?? subjectOf(definition)) as (values: unknown, id?: string) => string;
  // The fields a PATCH sets: those of which a program must set at least one.
  const settable = (definition.atLeastOneOf ?? []) as string[];
  const createOnly = Object.entries(definition.fields)
    .filter(([, field]) => field.requiredOnlyToCreate)
    .map(([name]) => name);
  const { patch } = calls;

  /** `patch` with the client's errors said about the resource. */
  const patched = async (ctx: LifecycleContext, inputs: Inputs, fields: string[]) => {
    try {
      await patch!(ctx, inputs, fields);
    } catch (error) {
      if (error instanceof ApiNotFoundError) {
        throw new ResourceOperationError(
          { subject: subject(inputs), reason: `the platform has no ${noun} with this id (${error.message})` },
          { cause: error },
        );
      }
      throw resourceError(subject(inputs), error);
    }
  };

  /** The create of a kind created by POST: `adopt`, or the POST, sent through the create journal. */
  const createByPost = async (inputs: Inputs, ctx: LifecycleContext): Promise<CreateResult<Outputs>> => {
    const { adoptId } = inputs as { adoptId?: string };
    if (adoptId) return calls.adopt!(inputs, adoptId, ctx);
    const body = calls.post!.body(inputs);
    const post = async (send: CreateSend) => {
      const response = await apiClient(ctx).call(definition.create!, { body, ...send });
      return calls.post!.created(inputs, response.body, ctx);
    };
    return journaledCreate(ctx, { definition, inputs, post });
  };

  const create =
    calls.create ??
    (definition.create !== undefined ? createByPost : undefined) ??
    (async (inputs: Inputs, ctx: LifecycleContext): Promise<CreateResult<Outputs>> => {
      if (patch === undefined || adoption.by !== "ids")
        throw new AdPlatformError("ADP_ERR_DEFINITION", `${definition.kind} has neither create nor patch`);
      // Adopting: every declared field is sent, so the platform matches the program from the start.
      // Decision (not shown in spec): the engine id is the declared ids joined by `/`
      // (`<abTestId>/<variationId>`); only a label, never parsed (the ids are read from the inputs).
      const values = inputs as Record<string, unknown>;
      await patched(ctx, inputs, declaredFields(settable, values));
      return { id: adoption.ids.map((field) => String(values[field])).join("/"), outputs: inputs as unknown as Outputs };
    });

  return {
    async check(olds, news, ctx) {
      // An object that exists without a field only its create needs (imported: the API did not return it).
      const existing = Object.keys(olds).length > 0 && createOnly.some((field) => olds[field] === undefined);
      const schema = (existing ? definition.existingInputs : definition.inputs) as InputSchema;
      const checked = checkInputs(schema, news) as CheckResult<Inputs>;
      // A share the limiter would refuse fails the preview, named where it was set (an account's
      // own is refused at `account.rateLimitShare` by the face that reads it).
      const share = ctx.settings.origins.rateLimitShare === "account" ? undefined : rateLimitShareFailure(ctx.settings);
      const settingFailures = [share, leftBehindRefusal(ctx.settings.leftBehind)]
        .filter((reason) => reason !== undefined)
        .map((reason) => ({ property: "", reason }));
      const result = settingFailures.length === 0 ? checked : { ...checked, failures: [...checked.failures, ...settingFailures] };
      await calls.checked?.(result, ctx);
      await noteStack(ctx);
      return result;
    },

    async diff(id, olds, news, ctx) {
      const old = olds as Record<string, unknown>;
      const diff = diffInputs(definition.diff, old, news as Record<string, unknown>);
      if (diff.replaces.length > 0) {
        const name = typeof old.name === "string" ? old.name : undefined;
        await sayLeftBehind(ctx, {
          kind: definition.kind,
          nouns: plural(noun),
          label: subject(olds, id),
          id,
          ...(name === undefined ? {} : { name }),
          fields: diff.replaces,
          news: news as Record<string, unknown>,
        });
      }
      if (patch !== undefined) await warnRemovedFields(ctx, subject(news), settable, diff);
      return { changes: diff.changes, replaces: diff.replaces, deleteBeforeReplace: diff.deleteBeforeReplace };
    },

    read: calls.read ?? keptStateRead<Inputs, Outputs>(definition.diff, adoption.by === "adoptId" ? ["adoptId"] : []),

    async update(id, olds, news, ctx) {
      if (patch === undefined) {
        // Unreachable through the engine: every compared field replaces. Refuse rather than pretend.
        throw new ResourceOperationError({ subject: subject(news, id), reason: `the API cannot update a ${noun}; it must be replaced` });
      }
      const fields = changedFields(settable, diffInputs(definition.diff, olds as Record<string, unknown>, news as Record<string, unknown>));
      // Only removed fields changed: there is nothing the API can be sent (diff warned about them).
      if (fields.length > 0) await patched(ctx, news, fields);
      return { outputs: news as unknown as Outputs };
    },

    async create(inputs, ctx) {
      const result = await create(inputs, ctx);
      // A delete of this URN in the same run is then the end of a replacement (the journaled kinds
      // record their creates themselves, with whether they took an object over).
      if (ctx.urn !== undefined && ctx.createSession.createdFor(ctx.urn)?.id !== result.id) {
        ctx.createSession.recordCreate(ctx.urn, { id: result.id, tookOver: false });
      }
      return result;
    },

    async delete(id, state, ctx) {
      const label = subject(state, id);
      const values = state as Record<string, unknown>;
      const replacedBy = ctx.urn === undefined ? undefined : ctx.createSession.createdFor(ctx.urn)?.id;
      const listed = await listLeftBehind(ctx, {
        kind: definition.kind,
        id,
        ...(typeof values.name === "string" ? { name: values.name } : {}),
        ...(replacedBy === undefined || replacedBy === id ? { change: "deleted" } : { change: "replaced", replacedBy }),
      });
      const where = listed ? ` Listed by \`${LIST_COMMAND}\`.` : "";
      await ctx.warn(
        adoption.by === "adoptId"
          ? `${label}: the API cannot delete ${plural(noun)}, so ${shortNoun(definition)} ${id} stays on the platform; ` +
              `Pulumi only removes it from the stack's state.${where}`
          : `${label}: the API cannot delete ${plural(noun)}; the object keeps its last values on the platform and ` +
              `Pulumi only removes it from the stack's state.${where}`,
      );
    },
  };
}
