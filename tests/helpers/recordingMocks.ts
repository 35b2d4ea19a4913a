/**
 * `pulumi.runtime.setMocks` for tests that declare resources as a Pulumi program does and look at
 * what the engine would have been asked to register. Call it at the top of a test file, before the
 * SDK is loaded with `require` (an import statement would be hoisted above it).
 */
import * as pulumi from "@pulumi/pulumi";

/** What the mock engine answers for a registration: by default the inputs, under `<name>-id`. */
export type MockAnswer = (args: pulumi.runtime.MockResourceArgs) => { id: string; state: Record<string, unknown> };

const echoInputs: MockAnswer = (args) => ({ id: `${args.name}-id`, state: args.inputs as Record<string, unknown> });

/**
 * Sets mocks for stack `test` of `project` that record every resource registration, in order, in
 * the array returned, and answer each with `answer`.
 */
export function recordRegistrations(project: string, answer: MockAnswer = echoInputs): pulumi.runtime.MockResourceArgs[] {
  const registered: pulumi.runtime.MockResourceArgs[] = [];
  void pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.push(args);
        return answer(args);
      },
      call: () => ({}),
    },
    project,
    "test",
    false,
  );
  return registered;
}
