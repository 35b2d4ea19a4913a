/**
 * Polls `condition` on the wall clock until it holds, for states reached through real sockets,
 * processes or Redis; after `tries` looks it fails the test instead of waiting for jest's timeout,
 * so a regression says what never happened.
 */
export async function waitFor(condition: () => boolean | Promise<boolean>, tries = 2_000): Promise<void> {
  for (let i = 0; i < tries; i += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("the condition never held");
}
