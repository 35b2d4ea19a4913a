/** The face-neutral lifecycle contract. Property maps arrive as the engine sends them (unknowns included), without a face's keys. */
import type { LifecycleContext } from "./context";

/** One invalid input: where (`targeting.countries.items[0]`, `""` for the whole resource) and why. */
export interface CheckFailure {
  readonly property: string;
  readonly reason: string;
}

export interface CheckResult<Inputs> {
  readonly inputs: Inputs;
  readonly failures: readonly CheckFailure[];
}

/** `changes` is always decided (never "unknown"); `replaces` names the fields whose change needs a new object. */
export interface DiffResult {
  readonly changes: boolean;
  readonly replaces: readonly string[];
  readonly deleteBeforeReplace: boolean;
}

export interface CreateResult<Outputs> {
  readonly id: string;
  readonly outputs: Outputs;
}

/** `inputs`: those that produce the outputs, so diffs after a refresh compare with the platform. */
export type ReadResult<Inputs, Outputs> = CreateResult<Outputs> & { readonly inputs: Inputs };

export type UpdateResult<Outputs> = Pick<CreateResult<Outputs>, "outputs">;

/** The lifecycle of one resource kind; no state between calls beyond the shared API client. */
export interface ResourceLifecycle<Inputs, Outputs> {
  /** Validates and normalises `news` (`olds`: empty on create). Sends nothing. */
  check(olds: Record<string, unknown>, news: Record<string, unknown>, ctx: LifecycleContext): Promise<CheckResult<Inputs>>;
  /** Compares the state `olds` with the checked `news`. Sends nothing. */
  diff(id: string, olds: Outputs, news: Inputs, ctx: LifecycleContext): Promise<DiffResult>;
  create(inputs: Inputs, ctx: LifecycleContext): Promise<CreateResult<Outputs>>;
  /** From the platform where the API can read it, else the state as last written; undefined: gone. */
  read(id: string, state: Outputs | undefined, ctx: LifecycleContext): Promise<ReadResult<Inputs, Outputs> | undefined>;
  update(id: string, olds: Outputs, news: Inputs, ctx: LifecycleContext): Promise<UpdateResult<Outputs>>;
  /** Deletes the object, or says (through `ctx.warn`) why it stays on the platform. */
  delete(id: string, state: Outputs, ctx: LifecycleContext): Promise<void>;
}
