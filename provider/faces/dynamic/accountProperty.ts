/**
 * The dynamic face's `account` property (`new Account({ baseUrl, token })`). The plugin has no provider
 * instances, so the account travels as one more input and is put back into every result's outputs,
 * where `read` and `delete` find it; the lifecycle gets it as the context's settings instead.
 * `check` refuses an unusable account at `account.<field>`. In `diff`, another account (its base URL,
 * or its name when both have one; the configured one standing in for an absent property) replaces
 * the resource, with an info message naming the field (the engine shows only `[secret]`); the same
 * account written another way, or a rotated token, is an update. Computed from the old and new
 * properties alone, so old states diff the same way. No message holds a value, only field names.
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
import { settingsWith } from "../../configuration";
import type { LifecycleContext, CheckFailure, ResourceLifecycle } from "../../resources";
import { deepEquivalent, containsUnknown } from "../../resources";

export const ACCOUNT_PROPERTY = "account";

type Props = Record<string, unknown>;
type Account = ExplicitAccount | undefined;

/** `props` split into its account (undefined when absent) and the kind's own properties. */
function split<T>(props: unknown): { account: Account; rest: T } {
  const { [ACCOUNT_PROPERTY]: account, ...rest } = (props ?? {}) as Props;
  return { account: account === undefined || account === null ? undefined : (account as ExplicitAccount), rest: rest as T };
}

/** `outputs` with the account put back (unchanged when there is none). */
function withAccount<T>(outputs: T, account: Account): T {
  return account === undefined ? outputs : ({ ...(outputs as Props), [ACCOUNT_PROPERTY]: account } as T);
}

/** The context with `account`'s base URL, token and share in place of the face's (a malformed account is refused by `check`). */
function contextFor(ctx: LifecycleContext, account: Account): LifecycleContext {
  if (account === undefined) return ctx;
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  const { rateLimitShare } = account;
  const share = typeof rateLimitShare === "number" || typeof rateLimitShare === "string" ? { rateLimitShare: String(rateLimitShare) } : {};
  return {
    ...ctx,
    settings: settingsWith(ctx.settings, { baseUrl: text(account.baseUrl), token: text(account.token), ...share }, "account"),
  };
}

/** Failures at `account.<field>`; values unknown in a preview pass. */
function accountFailures(account: unknown): CheckFailure[] {
  const fields = (account ?? {}) as Props;
  return explicitAccountProblems(account, (field) => containsUnknown(fields[field])).map(({ field, reason }) => ({
    property: field === undefined ? ACCOUNT_PROPERTY : `${ACCOUNT_PROPERTY}.${field}`,
    reason,
  }));
}

/** Only the fields it has: the engine refuses undefined values. */
function checkedAccount({ baseUrl, token, name, rateLimitShare }: ExplicitAccount): ExplicitAccount {
  return Object.fromEntries(Object.entries({ baseUrl, token, name, rateLimitShare }).filter(([, value]) => value !== undefined));
}

/** The identifying fields by which `news` is another account than `olds`; one unknown in a preview counts as changed. */
function accountChangesOf(olds: Account, news: Account, ctx: LifecycleContext): AccountIdentityField[] {
  if (olds === undefined && news === undefined) return [];
  const identity = (account: Account): AccountIdentity =>
    account === undefined ? { baseUrl: normalisedBaseUrl(ctx.settings.baseUrl) } : explicitAccountIdentity(account);
  const changes = accountChanges(identity(olds), identity(news));
  const unknown = (field: AccountIdentityField) => news !== undefined && containsUnknown(news[field]);
  const fields: AccountIdentityField[] = ["baseUrl", "name"];
  return fields.filter((field) => changes.includes(field) || unknown(field));
}

/** By its name in the program when the face knows its URN. */
function resourceLabel(ctx: LifecycleContext): string {
  return ctx.urn === undefined ? "a resource" : `resource '${ctx.urn.slice(ctx.urn.lastIndexOf("::") + 2)}'`;
}

const FIELD_WORDS: Readonly<Record<AccountIdentityField, string>> = {
  baseUrl: "base URL (`account.baseUrl`)",
  name: "name (`account.name`)",
};

/** Why the account of a diff replaces the resource (the engine shows only `[secret]`): names the fields, never a value. */
function replaceNotice(ctx: LifecycleContext, changes: readonly AccountIdentityField[]): string {
  const what = changes.map((field) => FIELD_WORDS[field]).join(" and ");
  return (
    `${resourceLabel(ctx)}: its account's ${what} changed, so it is another account and the resource is replaced ` +
    `there (an object belongs to the account it was created in; the old one stays on the platform).`
  );
}

/** The configured token stands in for an absent property. */
function tokenChanged(olds: Account, news: Account, ctx: LifecycleContext): boolean {
  const token = (account: Account) => (account === undefined ? ctx.settings.token : account.token);
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
        if (tokenChanged(old.account, next.account, ctx)) {
          await ctx.info(
            `${resourceLabel(ctx)}: only its account's token changed; the base URL and name, which identify the account, did ` +
              `not: an update that records the new token, nothing is replaced or sent.`,
          );
        }
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
