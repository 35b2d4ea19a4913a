/**
 * The lifecycle contract each of the four resource kinds implements, in this package's own types.
 *
 * It is face-neutral: nothing here knows how the engine reaches the code (today the dynamic-provider
 * plugin through the serialized shim, `provider/faces/dynamic/`). A face adapts these methods to
 * its protocol and supplies a `LifecycleContext` per call. Property maps arrive as the engine sends
 * them on the wire, values it does not know yet included (`../inputs/unknowns`), and without any key
 * a face adds for itself (the dynamic face's `__provider`).
 */
import type { LifecycleContext } from "./context";

/** One invalid input: where (`targeting.countries.items[0]`, `""` for the whole resource) and why. */
export interface CheckFailure {
  readonly property: string;
  readonly reason: string;
}

/** What `check` returns: the inputs in normalised form, and every failure (none when valid). */
export interface CheckResult<Inputs> {
  readonly inputs: Inputs;
  readonly failures: readonly CheckFailure[];
}

/**
 * What `diff` returns. `changes` is always decided (never "unknown"), `replaces` names the input
 * fields whose change needs a new object, and `deleteBeforeReplace` says whether the old object must
 * go before its replacement is created.
 */
export interface DiffResult {
  readonly changes: boolean;
  readonly replaces: readonly string[];
  readonly deleteBeforeReplace: boolean;
}

/** What `create` returns: the engine id of the object and its outputs (the state). */
export interface CreateResult<Outputs> {
  readonly id: string;
  readonly outputs: Outputs;
}

/**
 * What `read` returns for an object that still exists: its id, its outputs, and the inputs that
 * produce them (so diffs after a refresh compare against what the platform holds).
 */
export interface ReadResult<Inputs, Outputs> {
  readonly id: string;
  readonly outputs: Outputs;
  readonly inputs: Inputs;
}

/** What `update` returns: the new outputs. */
export interface UpdateResult<Outputs> {
  readonly outputs: Outputs;
}

/**
 * The lifecycle of one resource kind. Every method takes the face's context last; none keeps state
 * between calls beyond the shared API client of the context's connection.
 */
export interface ResourceLifecycle<Inputs, Outputs> {
  /** Validates and normalises `news` (`olds`: the previous inputs, empty on create). Sends nothing. */
  check(olds: Record<string, unknown>, news: Record<string, unknown>, ctx: LifecycleContext): Promise<CheckResult<Inputs>>;
  /** Compares the state `olds` with the checked `news`. Sends nothing. */
  diff(id: string, olds: Outputs, news: Inputs, ctx: LifecycleContext): Promise<DiffResult>;
  /** Creates (or adopts) the object for checked `inputs`. */
  create(inputs: Inputs, ctx: LifecycleContext): Promise<CreateResult<Outputs>>;
  /**
   * The object's current state, from the platform where the API can read it, else the state as
   * last written (`state` is undefined when the face has none). Undefined: the object is gone.
   */
  read(id: string, state: Outputs | undefined, ctx: LifecycleContext): Promise<ReadResult<Inputs, Outputs> | undefined>;
  /** Changes the object in place from the state `olds` to the checked `news`. */
  update(id: string, olds: Outputs, news: Inputs, ctx: LifecycleContext): Promise<UpdateResult<Outputs>>;
  /** Deletes the object, or says (through `ctx.warn`) why it stays on the platform. */
  delete(id: string, state: Outputs, ctx: LifecycleContext): Promise<void>;
}
