/**
 * The resource's identity as a hidden input of the dynamic face. The create journal keys its
 * entries by URN, but the dynamic-provider plugin hands `create` only the inputs, so the SDK
 * classes add the resource's URN under this key, and the face turns it into `LifecycleContext.urn`
 * (without it a create is not journaled).
 *
 * The key starts with `__`, as the plugin's own `__provider` does: the engine treats such keys as
 * internal and does not display them in diffs. The lifecycle never sees it: `diff` cannot compare
 * it (no replace, no change shown for stacks written before it existed), and `check` returns it
 * as it came so that it reaches `create`.
 */

/** The hidden input holding the resource's URN. Part of the state format: do not rename. */
export const IDENTITY_INPUT = "__adplatformUrn";

/** The URN in `props`, when it holds a usable one (not an unknown value of a preview). */
export function identityOf(props: unknown): string | undefined {
  const value = (props as Record<string, unknown> | undefined)?.[IDENTITY_INPUT];
  return typeof value === "string" && value.startsWith("urn:pulumi:") ? value : undefined;
}

/** `inputs` with the hidden input of `news` put back (as it came), for `check`'s answer. */
export function withIdentityOf<T>(inputs: T, news: unknown): T {
  const value = (news as Record<string, unknown> | undefined)?.[IDENTITY_INPUT];
  return value === undefined ? inputs : ({ ...inputs, [IDENTITY_INPUT]: value } as T);
}
