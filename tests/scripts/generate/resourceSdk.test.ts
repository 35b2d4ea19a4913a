/**
 * The generated resource classes carry their definition's descriptions as JSDoc, whole and for
 * users (no spec citation), which is what a program's editor shows.
 */
import type { InputField } from "../../../provider/resources/inputs/definition";
import { RESOURCE_DEFINITIONS } from "../../../provider/resources/definitions";
import { RESOURCE_KINDS } from "../../../provider/resources/kinds";
import { resourceSdk } from "../../../scripts/generate/resourceSdk";

jest.setTimeout(60_000);

/** The file's comment text as one line of words: JSDoc markers and line breaks gone. */
const commentWords = (text: string) =>
  text
    .split("\n")
    .map((line) => line.replace(/^\s*(\/\*\*|\*\/|\*)\s?/, "").replace(/\*\/\s*$/, ""))
    .join(" ")
    .replace(/\s+/g, " ");

it("documents every field with its definition's descriptions, code spans unbroken, and no spec citation", async () => {
  const files = await resourceSdk.files();
  for (const kind of RESOURCE_KINDS) {
    const definition = RESOURCE_DEFINITIONS[kind];
    const file = files.find((f) => f.path.endsWith(`/${kind.charAt(0).toLowerCase()}${kind.slice(1)}.ts`))!;
    const words = commentWords(file.content);
    const texts = [definition.description.replace(/\s+/g, " "), definition.argsDescription];
    for (const field of Object.values<InputField>(definition.fields)) {
      texts.push(field.description, field.stateDescription ?? field.description);
      for (const inner of Object.values(field.object?.fields ?? {})) texts.push(inner.description);
    }
    for (const field of Object.values(definition.state ?? {})) texts.push(field.description);
    for (const text of texts) expect(words).toContain(text.replace(/\s+/g, " "));
    expect(file.content).not.toMatch(/\(spec[,)]/);
    // A line break inside a code span would show in the editor's rendering.
    const splitSpans = file.content.split("\n").filter((line) => /^\s*\*/.test(line) && (line.match(/`/g) ?? []).length % 2 === 1);
    expect(splitSpans).toEqual([]);
  }
});

it("marks the default and the deprecation a definition gives", async () => {
  const files = await resourceSdk.files();
  const strategy = files.find((f) => f.path === "sdk/resources/bidStrategy.ts")!.content;
  expect(strategy).toMatch(/@default "cpc"\n\s*\*\/\n\s*pricingModel\?: pulumi\.Input<PricingModel>;/);
  const modifier = files.find((f) => f.path === "sdk/resources/bidModifier.ts")!.content;
  expect(modifier.match(/@deprecated Deprecated by the API: use `containers`/g)).toHaveLength(2);
});
