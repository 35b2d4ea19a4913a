/**
 * The dynamic face's `account` property: which platform account a resource belongs to when the
 * program names one (`new Account({ baseUrl, token })` in the SDK), instead of the stack config.
 *
 * The dynamic-provider plugin has no provider instances: everything a call knows comes from the
 * property maps the engine sends (inputs to `check` / `create`, inputs and old outputs to `diff` /
 * `update`, old outputs alone to `read` / `delete`). So the account travels as one more input
 * property, and every result puts it back into the outputs, which is how `read` and `delete` find
 * it in the state. This wrapper takes it out of every map before the kind's lifecycle sees it and
 * hands it over as the context's `connection`: the one way an account reaches lifecycle code,
 * whatever the face. Without the property, the context keeps the configured connection (stack
 * config, else environment) exactly as before, and nothing of a resource's diff changes.
 *
 * - `check` refuses an unusable account (missing token, base URL not https:// or loopback http://)
 *   with failures at `account.baseUrl` / `account.token`, sending nothing.
 * - `diff`: an account that is another one than before (`accountChanges`: its base URL, or its name
 *   when both have one; the configured one standing in for an absent property) replaces the
 *   resource, since the object belongs to its account, and an info message names the field that
 *   changed (the engine shows the secret `account` only as `[secret]`). The same account written
 *   another way (explicit now, configured before) or with a rotated token is an update that only
 *   records the property, and `update` then calls the kind only when its own fields changed. This
 *   is computed from the old and new properties alone, so a state written when the token still
 *   identified an account diffs the same way.
 *
 * The token is a secret of the program (`pulumi.secret`), and the SDK marks `account` as a secret
 * output too; the plugin receives secrets unwrapped (it does not accept secrets) and the engine
 * encrypts both inputs and outputs in the state. It never reaches a message: failures name the
 * field, never its value.
 */
import {
  accountChanges,
  explicitAccountIdentity,
  explicitAccountProblems,
  normalisedBaseUrl,
  type AccountIdentity,
  type AccountIdentityField,
  type ExplicitAccount,
} from "../../client";
import { type Settings, settingsWith } from "../../configuration";
import type { LifecycleContext, CheckFailure, ResourceLifecycle } from "../../resources";
import { deepEquivalent, containsUnknown } from "../../resources";

/** The input (and output) property holding a resource's explicit account. */
export const ACCOUNT_PROPERTY = "account";

type Props = Record<string, unknown>;

/** `props` split into its account (undefined when absent) and the kind's own properties. */
function split<T>(props: unknown): { account: ExplicitAccount | undefined; rest: T } {
  const { [ACCOUNT_PROPERTY]: account, ...rest } = (props ?? {}) as Props;
  return { account: account === undefined || account === null ? undefined : (account as ExplicitAccount), rest: rest as T };
}

/** `outputs` with the account put back (unchanged when there is none). */
function withAccount<T>(outputs: T, account: ExplicitAccount | undefined): T {
  return account === undefined ? outputs : ({ ...(outputs as Props), [ACCOUNT_PROPERTY]: account } as T);
}

/**
 * The context of a call for `account`: its base URL and token in place of the face's (as strings:
 * a malformed account is refused by `check`), or the face's settings when there is none.
 */
function contextFor(ctx: LifecycleContext, account: ExplicitAccount | undefined): LifecycleContext {
  if (account === undefined) return ctx;
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  // Its share when it has one; else the configured one (a deploy's manners toward the account's other users).
  const { rateLimitShare } = account;
  const share = typeof rateLimitShare === "number" || typeof rateLimitShare === "string" ? { rateLimitShare: String(rateLimitShare) } : {};
  return {
    ...ctx,
    settings: settingsWith(ctx.settings, { baseUrl: text(account.baseUrl), token: text(account.token), ...share }, "account"),
  };
}

/** The identity of the configured account (stack config, else environment), which has no name. */
function configuredIdentity(settings: Settings): AccountIdentity {
  return { baseUrl: normalisedBaseUrl(settings.baseUrl) };
}

/** Check failures of an explicit account, at `account.<field>`; values unknown in a preview pass. */
function accountFailures(account: unknown): CheckFailure[] {
  const fields = (account ?? {}) as Props;
  return explicitAccountProblems(account, (field) => containsUnknown(fields[field])).map(({ field, reason }) => ({
    property: field === undefined ? ACCOUNT_PROPERTY : `${ACCOUNT_PROPERTY}.${field}`,
    reason,
  }));
}

/** The explicit account as checked inputs keep it: only the fields it has (the engine refuses undefined values). */
function checkedAccount(account: ExplicitAccount): ExplicitAccount {
  const fields = Object.entries({
    baseUrl: account.baseUrl,
    token: account.token,
    name: account.name,
    rateLimitShare: account.rateLimitShare,
  });
  return Object.fromEntries(fields.filter(([, value]) => value !== undefined));
}

/**
 * The identifying fields by which the new account is another one than the old (empty: the same
 * account), the configured account standing in for an absent property. A field unknown in a
 * preview may differ, so it counts as changed; an unknown token changes nothing that identifies.
 */
function accountChangesOf(
  olds: ExplicitAccount | undefined,
  news: ExplicitAccount | undefined,
  ctx: LifecycleContext,
): AccountIdentityField[] {
  if (olds === undefined && news === undefined) return [];
  const identity = (account: ExplicitAccount | undefined) =>
    account === undefined ? configuredIdentity(ctx.settings) : explicitAccountIdentity(account);
  const changes = accountChanges(identity(olds), identity(news));
  const unknown = (field: AccountIdentityField) => news !== undefined && containsUnknown(news[field]);
  const fields: AccountIdentityField[] = ["baseUrl", "name"];
  return fields.filter((field) => changes.includes(field) || unknown(field));
}

/** How messages name the resource of a call: by its name in the program when the face knows its URN. */
function resourceLabel(ctx: LifecycleContext): string {
  return ctx.urn === undefined ? "a resource" : `resource '${ctx.urn.slice(ctx.urn.lastIndexOf("::") + 2)}'`;
}

const FIELD_WORDS: Readonly<Record<AccountIdentityField, string>> = {
  baseUrl: "base URL (`account.baseUrl`)",
  name: "name (`account.name`)",
};

/**
 * Why the account of a diff replaces the resource, for the preview: the engine shows the whole
 * `account` as `[secret]`, which tells a reviewer nothing. Names the fields, never a value.
 */
function replaceNotice(ctx: LifecycleContext, changes: readonly AccountIdentityField[]): string {
  const what = changes.map((field) => FIELD_WORDS[field]).join(" and ");
  return (
    `${resourceLabel(ctx)}: its account's ${what} changed, so it is another account and the resource is replaced ` +
    `there (an object belongs to the account it was created in; the old one stays on the platform).`
  );
}

/** Says that only the token of the account changed: an update that records it. */
function rotationNotice(ctx: LifecycleContext): string {
  return (
    `${resourceLabel(ctx)}: only its account's token changed; the base URL and name, which identify the account, did ` +
    `not: an update that records the new token, nothing is replaced or sent.`
  );
}

/** Whether the tokens of two accounts differ (the configured one standing in for an absent property). */
function tokenChanged(olds: ExplicitAccount | undefined, news: ExplicitAccount | undefined, ctx: LifecycleContext): boolean {
  const token = (account: ExplicitAccount | undefined) => (account === undefined ? ctx.settings.token : account.token);
  return token(olds) !== token(news);
}

/** `lifecycle` with the `account` property handled as the module comment says. */
export function withAccountProperty<Inputs, Outputs>(lifecycle: ResourceLifecycle<Inputs, Outputs>): ResourceLifecycle<Inputs, Outputs> {
  return {
    async check(olds, news, ctx) {
      const { rest: oldRest } = split<Props>(olds);
      const { account, rest } = split<Props>(news);
      const result = await lifecycle.check(oldRest, rest, contextFor(ctx, account));
      if (account === undefined) return result;
      return {
        inputs: withAccount(result.inputs, checkedAccount(account)),
        failures: [...result.failures, ...accountFailures(account)],
      };
    },

    async diff(id, olds, news, ctx) {
      const old = split<Outputs>(olds);
      const next = split<Inputs>(news);
      const result = await lifecycle.diff(id, old.rest, next.rest, contextFor(ctx, next.account));
      const changes = accountChangesOf(old.account, next.account, ctx);
      if (changes.length === 0) {
        // The same account, written the same way or not (another spelling, a rotated token): an update that records it.
        if (deepEquivalent(old.account, next.account)) return result;
        if (tokenChanged(old.account, next.account, ctx)) await ctx.info(rotationNotice(ctx));
        return { ...result, changes: true };
      }
      // spec, Authentication 3: data is per account, so the object cannot move: it is replaced.
      await ctx.info(replaceNotice(ctx, changes));
      return { ...result, changes: true, replaces: [...result.replaces, ACCOUNT_PROPERTY] };
    },

    async create(inputs, ctx) {
      const { account, rest } = split<Inputs>(inputs);
      const { id, outputs } = await lifecycle.create(rest, contextFor(ctx, account));
      return { id, outputs: withAccount(outputs, account) };
    },

    async read(id, state, ctx) {
      const { account, rest } = split<Outputs>(state);
      const result = await lifecycle.read(id, state === undefined ? undefined : rest, contextFor(ctx, account));
      if (result === undefined) return undefined;
      return { id: result.id, outputs: withAccount(result.outputs, account), inputs: withAccount(result.inputs, account) };
    },

    async update(id, olds, news, ctx) {
      const old = split<Outputs>(olds);
      const next = split<Inputs>(news);
      const context = contextFor(ctx, next.account);
      if (deepEquivalent(old.account, next.account)) {
        return { outputs: withAccount((await lifecycle.update(id, old.rest, next.rest, context)).outputs, next.account) };
      }
      // The account's record changed (see `diff`), maybe alone: ask the kind whether it has anything
      // to send. Silently: its own diff already warned during the engine's diff.
      const own = await lifecycle.diff(id, old.rest, next.rest, { ...context, warn: async () => undefined });
      const outputs = own.changes ? (await lifecycle.update(id, old.rest, next.rest, context)).outputs : old.rest;
      return { outputs: withAccount(outputs, next.account) };
    },

    async delete(id, state, ctx) {
      const { account, rest } = split<Outputs>(state);
      await lifecycle.delete(id, rest, contextFor(ctx, account));
    },
  };
}
