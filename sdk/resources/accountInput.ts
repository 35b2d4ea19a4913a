/**
 * The `account` argument of the four resource classes, as the input property and resource options
 * the dynamic face expects (provider/faces/dynamic/accountProperty.ts).
 *
 * The property is set only when an account is given, so a resource without one registers exactly
 * the inputs it did before (no diff for existing stacks). With one, `account` is also an
 * additional secret output: the engine encrypts the whole property in the state's outputs, whatever
 * it infers from the secret token input.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ACCOUNT_PROPERTY } from "../../provider/faces/dynamic/accountProperty";
import { asAccount, type Account, type AccountArgs, type AccountProperty } from "../account";

/** The input properties a resource adds for `account`: `{ account }`, or nothing. */
export function accountInput(account: Account | AccountArgs | undefined): { account?: AccountProperty } {
  const resolved = asAccount(account);
  return resolved === undefined ? {} : { [ACCOUNT_PROPERTY]: resolved.toProperty() };
}

/** `opts`, with `account` among the additional secret outputs when an account is given. */
export function accountOptions<O extends pulumi.CustomResourceOptions | undefined>(account: Account | AccountArgs | undefined, opts: O): O {
  if (asAccount(account) === undefined) return opts;
  const secrets = opts?.additionalSecretOutputs ?? [];
  return { ...opts, additionalSecretOutputs: [...secrets.filter((s) => s !== ACCOUNT_PROPERTY), ACCOUNT_PROPERTY] } as O;
}
