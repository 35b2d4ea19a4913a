/**
 * AbTestVariation through the real dynamic-provider plugin against the simulator: create adopts
 * the existing variation with a PATCH of every declared field, update PATCHes only the changed
 * fields, new ids replace, read and delete make no call.
 */
import { SEED_IDS } from "../../../../simulator";
import { lifecycleSuite, RECOGNISABLE_TOKEN } from "../../../helpers/lifecycleEnv";

// Child processes (serializer, plugin) start slowly on a loaded machine: generous, never asserted.
jest.setTimeout(60_000);

const OP_PATCH = 4;
const TEST = SEED_IDS.abTests.homepage; // "301"
const VARIATION = SEED_IDS.abTestVariations.homepageVariant; // "2"
const { env, urn, news, checked } = lifecycleSuite("AbTestVariation", "hero");
const stored = () => env.sim.state().abTestVariations.find((v) => v.ab_test_id === TEST && v.id === VARIATION);

const declared = {
  abTestId: TEST,
  variationId: VARIATION,
  name: "Hero B",
  settings: { image: { en: "https://cdn.example.com/b-en.png", "pt-BR": "https://cdn.example.com/b-pt.png" } },
};

it("refuses an image that is not an absolute URL, with its path, without calling the API", async () => {
  const { failures } = await env.plugin.check(urn(), {}, news({ ...declared, settings: { image: { "pt BR": "y.png" } } }));
  expect(failures).toEqual([{ property: 'settings.image["pt BR"]', reason: "must be an absolute URL" }]);
  expect(env.totalCalls()).toBe(0);
});

it("PATCHes any language key, any URL scheme and an empty image map, which the spec does not rule out", async () => {
  for (const image of [{ "not a code": "ftp://cdn.example.com/b.png" }, {}]) {
    await env.plugin.create(urn(), await checked({ ...declared, settings: { image } }));
    expect(stored()?.settings).toEqual({ image });
  }
  expect(env.calls(OP_PATCH).map((c) => c.status)).toEqual([204, 204]);
});

it("creates by PATCHing every declared field; language codes stay verbatim", async () => {
  const created = await env.plugin.create(urn(), await checked(declared));
  expect(created.id).toBe(`${TEST}/${VARIATION}`);
  expect(created.properties).toEqual(news(declared));
  expect(JSON.stringify(created)).not.toContain(RECOGNISABLE_TOKEN);
  expect(env.calls(OP_PATCH).map((c) => [c.path, c.body])).toEqual([
    [`/v2/adex/campaign-ab-tests/${TEST}/variations/${VARIATION}`, { name: declared.name, settings: declared.settings }],
  ]);
  expect(stored()).toMatchObject({ name: "Hero B", settings: declared.settings });
});

it("updates by PATCHing only the changed field", async () => {
  const state = (await env.plugin.create(urn(), await checked(declared))).properties;
  const next = await checked({ ...declared, settings: { image: { en: "https://cdn.example.com/c-en.png" } } });
  expect(await env.plugin.diff(`${TEST}/${VARIATION}`, urn(), state, next)).toEqual({
    changes: "some",
    replaces: [],
    deleteBeforeReplace: false,
  });
  await env.plugin.update(`${TEST}/${VARIATION}`, urn(), state, next);
  expect(env.calls(OP_PATCH).map((c) => c.body)[1]).toEqual({ settings: { image: { en: "https://cdn.example.com/c-en.png" } } });
  expect(stored()).toMatchObject({ name: "Hero B", settings: { image: { en: "https://cdn.example.com/c-en.png" } } });
});

it("diffs: key order is no change; other ids replace", async () => {
  const state = (await env.plugin.create(urn(), await checked(declared))).properties;
  const reordered = news({
    settings: { image: { "pt-BR": declared.settings.image["pt-BR"], en: declared.settings.image.en } },
    name: "Hero B",
    variationId: VARIATION,
    abTestId: TEST,
  });
  expect((await env.plugin.diff("301/2", urn(), state, reordered)).changes).toBe("none");
  expect(await env.plugin.diff("301/2", urn(), state, news({ ...declared, variationId: "1" }))).toEqual({
    changes: "some",
    replaces: ["variationId"],
    deleteBeforeReplace: false,
  });
});

it("reads and deletes without a call; delete warns that the variation keeps its values", async () => {
  const state = (await env.plugin.create(urn(), await checked(declared))).properties;
  const before = env.totalCalls();
  expect((await env.plugin.read("301/2", urn(), state)).properties).toEqual(state);
  await env.plugin.delete("301/2", urn(), state);
  expect(env.totalCalls()).toBe(before);
  expect(env.engine.warnings()).toEqual([
    expect.stringMatching(/AbTestVariation "2" of A\/B test "301": the API cannot delete A\/B test variations/),
  ]);
});
