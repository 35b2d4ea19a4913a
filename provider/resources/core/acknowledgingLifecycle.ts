/**
 * A lifecycle whose `diff`, `update`, `read` and `delete` tell the create journal that the engine
 * holds the object they name (docs/ARCHITECTURE.md, "The create journal"): the engine calls them
 * only with ids from its state, so the journal entry of that create is no longer needed, and must
 * go before a replacement with equal inputs creates the resource again. An entry of the same
 * resource recording another object is what an interrupted replacement created: the next create
 * takes it over, and a `diff` after which none follows says that it stays outside the stack.
 *
 * Faces that can tell whether the engine's state holds the resource (`ctx.replacing`) let `check`
 * and `delete` acknowledge too: see `acknowledgeStateHeld`, `acknowledgeReplacementDelete` and
 * `refusedDelete` in ./journaledCreate.ts.
 */
import {
  acknowledgeCreated,
  acknowledgeReplacementDelete,
  acknowledgeStateHeld,
  refusedDelete,
  reportUnrecordedReplacement,
  type JournaledKind,
} from "./journaledCreate";
import type { ResourceLifecycle } from "./lifecycle";

/** `lifecycle` with every call that names an id acknowledging it first. */
export function acknowledgingLifecycle<Inputs, Outputs>(
  definition: JournaledKind,
  lifecycle: ResourceLifecycle<Inputs, Outputs>,
): ResourceLifecycle<Inputs, Outputs> {
  const { kind } = definition;
  return {
    async check(olds, news, ctx) {
      await acknowledgeStateHeld(ctx, kind);
      return lifecycle.check(olds, news, ctx);
    },
    async diff(id, olds, news, ctx) {
      const unrecorded = await acknowledgeCreated(ctx, kind, id);
      const result = await lifecycle.diff(id, olds, news, ctx);
      // A replacement's create would take the unrecorded object over; without one it is orphaned.
      if (unrecorded !== undefined && result.replaces.length === 0) await reportUnrecordedReplacement(ctx, definition, unrecorded, id);
      return result;
    },
    create: (inputs, ctx) => lifecycle.create(inputs, ctx),
    async read(id, state, ctx) {
      await acknowledgeCreated(ctx, kind, id);
      return lifecycle.read(id, state, ctx);
    },
    async update(id, olds, news, ctx) {
      await acknowledgeCreated(ctx, kind, id);
      return lifecycle.update(id, olds, news, ctx);
    },
    async delete(id, state, ctx) {
      await acknowledgeCreated(ctx, kind, id);
      await acknowledgeReplacementDelete(ctx, id);
      if (await refusedDelete(ctx, definition, id)) return;
      return lifecycle.delete(id, state, ctx);
    },
  };
}
