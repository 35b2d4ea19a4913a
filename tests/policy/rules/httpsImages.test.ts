/** `ab-variation-https-images`: every language's image URL is https. */
import { httpsImageViolations } from "../../../policy/rules/httpsImages";

const variation = (image: Record<string, unknown>) => ({
  kind: "AbTestVariation" as const,
  name: "v",
  props: { abTestId: "301", variationId: "2", settings: { image } },
});

it("passes https URLs", () => {
  expect(httpsImageViolations(variation({ en: "https://cdn.example.com/a.png", pt_BR: "https://cdn.example.com/b.png" }))).toEqual([]);
});

it.each([
  "http://cdn.example.com/a.png",
  "HTTP://cdn.example.com/a.png",
  "ftp://cdn.example.com/a.png",
  "//cdn.example.com/a.png",
  "a.png",
])("reports %s, naming the language", (url) => {
  expect(httpsImageViolations(variation({ en: "https://cdn.example.com/ok.png", de: url }))).toEqual([
    `AbTestVariation "v": settings.image.de ${JSON.stringify(url)} is not an https URL.`,
  ]);
});

it("says nothing of a variation without settings", () => {
  expect(httpsImageViolations({ kind: "AbTestVariation", name: "v", props: { abTestId: "1", variationId: "2", name: "B" } })).toEqual([]);
});
