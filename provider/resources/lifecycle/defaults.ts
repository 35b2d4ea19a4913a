/**
 * A kind's lifecycle from what differs (after pulumi-go-provider's `infer`): the kind writes its calls to
 * the platform; `check`, `diff` (warning of removed fields, spec, Endpoints 1 and 4: "omitted fields stay
 * unchanged", and of what a replace leaves), `read` (the state: spec, no GET), `update` (a PATCH of the
 * changed fields) and `delete` (a warning: the API deletes no kind) follow from its definition.
 */
import type { OperationNamed, PostOperationName } from "../../catalog";
import { ApiNotFoundError, type ResponseBodyOf } from "../../client";
import { AdPlatformError } from "../../errors";
import { type CreateSend, journaledCreate } from "../journal";
import { apiClient } from "./api";
import { rateLimitShareFailure } from "../../configuration";
import { type AnyResourceDefinition, shortNoun } from "../inputs/definition";
import { checkInputs, type InputSchema } from "../inputs/checkInputs";
import { diffInputs } from "../inputs/diff";
import { keptStateRead } from "../inputs/inputFields";
import { changedFields, declaredFields, warnRemovedFields } from "../inputs/patchFields";
import { ResourceOperationError, resourceError } from "./resourceErrors";
import { LIST_COMMAND, leftBehindRefusal, listLeftBehind, noteStack, sayLeftBehind } from "./leftBehind";
import type { LifecycleContext } from "./context";
import type { CheckResult, CreateResult, ResourceLifecycle } from "./contract";

/** What a kind writes itself; everything else has a default. */
export interface KindCalls<Inputs, Outputs> {
  /** How messages name the resource; default `subjectOf`. */
  readonly subject?: (values: Partial<Outputs>, id?: string) => string;
  /** The body of the definition's `create` POST (which may refuse it) and what the answer makes; journaled. */
  readonly post?: {
    readonly body: (inputs: Inputs) => unknown;
    readonly created: (
      inputs: Inputs,
      answer: ResponseBodyOf<OperationNamed<PostOperationName>>,
      ctx: LifecycleContext,
    ) => CreateResult<Outputs>;
  };
  /** Takes over the object `adoptId` names instead of creating one. */
  readonly adopt?: (inputs: Inputs, adoptId: string, ctx: LifecycleContext) => Promise<CreateResult<Outputs>>;
  /** What the kind says about checked inputs (warnings), after the definition's check. */
  readonly checked?: (result: CheckResult<Inputs>, ctx: LifecycleContext) => Promise<void>;
  readonly read?: ResourceLifecycle<Inputs, Outputs>["read"];
  /** Sets `fields` of the object (`adoption.request`), throwing the client's error; with it, the kind updates in place. */
  readonly patch?: (ctx: LifecycleContext, inputs: Inputs, fields: string[]) => Promise<void>;
}

/** `<noun>s`: `bid strategies`, `campaign groups`. */
const plural = (noun: string) => `${noun.replace(/y$/, "ie")}s`;

/** `<Kind> "<name>" (id <id>)` for a kind adopted by `adoptId`, else `<Kind> "<declared ids>"`. */
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
  const settable = (definition.atLeastOneOf ?? []) as string[];
  const createOnly = Object.keys(definition.fields).filter((name) => definition.fields[name]?.requiredOnlyToCreate);
  const { patch } = calls;

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

  // A kind created by POST: `adopt` or `post` (journaled); else the adopting `patch`.
  const create = async (inputs: Inputs, ctx: LifecycleContext): Promise<CreateResult<Outputs>> => {
    const op = definition.create;
    if (op !== undefined) {
      const { adoptId } = inputs as { adoptId?: string };
      if (adoptId) return calls.adopt!(inputs, adoptId, ctx);
      const body = calls.post!.body(inputs);
      const post = async (send: CreateSend) => {
        const response = await apiClient(ctx).call(op, { body, ...send });
        return calls.post!.created(inputs, response.body, ctx);
      };
      return journaledCreate(ctx, { definition, inputs, post });
    }
    if (patch === undefined || adoption.by !== "ids")
      throw new AdPlatformError("ADP_ERR_DEFINITION", `${definition.kind} has neither create nor patch`);
    // Decision (not shown in spec): the engine id is the declared ids joined by `/`, a label never parsed.
    const values = inputs as Record<string, unknown>;
    await patched(ctx, inputs, declaredFields(settable, values));
    return { id: adoption.ids.map((field) => String(values[field])).join("/"), outputs: inputs as unknown as Outputs };
  };

  return {
    async check(olds, news, ctx) {
      // An existing object without a field only its create needs (imported).
      const existing = Object.keys(olds).length > 0 && createOnly.some((field) => olds[field] === undefined);
      const schema = (existing ? definition.existingInputs : definition.inputs) as InputSchema;
      const checked = checkInputs(schema, news) as CheckResult<Inputs>;
      // A share the limiter would refuse fails the preview (an account's own, where the face reads it).
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
        await sayLeftBehind(ctx, {
          kind: definition.kind,
          nouns: plural(noun),
          label: subject(olds, id),
          id,
          name: typeof old.name === "string" ? old.name : undefined,
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
        // Unreachable: every compared field replaces. Refuse rather than pretend.
        throw new ResourceOperationError({ subject: subject(news, id), reason: `the API cannot update a ${noun}; it must be replaced` });
      }
      const fields = changedFields(settable, diffInputs(definition.diff, olds as Record<string, unknown>, news as Record<string, unknown>));
      // Only removed fields changed: nothing can be sent (diff warned).
      if (fields.length > 0) await patched(ctx, news, fields);
      return { outputs: news as unknown as Outputs };
    },

    async create(inputs, ctx) {
      const result = await create(inputs, ctx);
      // A delete of this URN in the same run then ends a replacement (journaled kinds record their own).
      if (ctx.urn !== undefined && ctx.createSession.createdFor(ctx.urn)?.id !== result.id) {
        ctx.createSession.recordCreate(ctx.urn, { id: result.id, tookOver: false });
      }
      return result;
    },

    async delete(id, state, ctx) {
      const label = subject(state, id);
      const values = state as Record<string, unknown>;
      const replacedBy = ctx.createSession.createdFor(ctx.urn)?.id;
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
