/**
 * The resource's URN as a hidden input of the dynamic face: the create journal keys entries by URN,
 * but the plugin hands `create` only the inputs, so the SDK classes add it and the face turns it
 * into `LifecycleContext.urn`. A `__` key, like the plugin's `__provider`, the engine does not show
 * in diffs; the lifecycle never sees it, and `check` returns it as it came so it reaches `create`.
 */
/** The hidden input holding the resource's URN. Part of the state format: do not rename. */
export const IDENTITY_INPUT = "__adplatformUrn";

/** The URN in `props`, when it holds a usable one (not an unknown value of a preview). */
export function identityOf(props: unknown): string | undefined {
  const value = (props as Record<string, unknown> | undefined)?.[IDENTITY_INPUT];
  return typeof value === "string" && value.startsWith("urn:pulumi:") ? value : undefined;
}

/** `inputs` with the hidden input of `news` put back as it came. */
export function withIdentityOf<T>(inputs: T, news: unknown): T {
  const value = (news as Record<string, unknown> | undefined)?.[IDENTITY_INPUT];
  return value === undefined ? inputs : ({ ...inputs, [IDENTITY_INPUT]: value } as T);
}
