/** CampaignGroup: create = POST op 2 (journaled) or adopt by `adoptId` (verified by GET op 19); read = op 19; no update or delete. */
import { ApiNotFoundError } from "../../client";
import { CampaignGroup, CampaignGroupCreated, operationByName } from "../../catalog";
import { roundedIntegersNotice, toSdk, type Camelize, answeredAsParsed } from "../../wire";
import type { LifecycleContext } from "../lifecycle/context";
import type { CreateResult } from "../lifecycle/contract";
import { lifecycleWithDefaults, subjectOf } from "../lifecycle/defaults";
import { apiClient } from "../lifecycle/api";
import { deepEquivalent } from "../inputs/equivalence";
import { inputFields } from "../inputs/inputFields";
import { ResourceOperationError, resourceError } from "../lifecycle/resourceErrors";
import { CAMPAIGN_GROUP, type CampaignGroupInputs, campaignGroupBody, type CampaignGroupOutputs } from "./definition";
import { notShownYetWarning, readWithGrace, withCreationTime } from "../lifecycle/readGrace";

type GroupView = Camelize<CampaignGroup>;

const subject = (name: unknown, id?: string) => subjectOf(CAMPAIGN_GROUP)({ name }, id);

/** Its answer handed on as parsed: an integer beyond 2^53 fails no refresh. */
const VIEW = answeredAsParsed(operationByName("getCampaignGroup"));

/** Decisions (not shown in spec): a 200 without a record is "no such group", like a 404; an integer beyond 2^53 is read as nearest. */
async function viewGroup(ctx: LifecycleContext, id: string, label: string): Promise<GroupView | undefined> {
  try {
    const response = await apiClient(ctx).call(VIEW, { pathParams: { id } });
    const [record] = (response.body as { items: unknown[] }).items;
    if (record === undefined) return undefined;
    const rounded: string[] = [];
    const view = toSdk<GroupView>(CampaignGroup, record, (path) => rounded.push(path.join(".")));
    if (rounded.length > 0) await ctx.warn(roundedIntegersNotice(label, rounded));
    return view;
  } catch (error) {
    if (error instanceof ApiNotFoundError) return undefined;
    throw error;
  }
}

function viewOutputs({ companyId, name, color, size, createTime, updateTime }: GroupView): Partial<CampaignGroupOutputs> {
  const out = Object.entries({ companyId, name, color, size, createTime, updateTime }).filter(([, value]) => value !== undefined);
  return Object.fromEntries(out) as Partial<CampaignGroupOutputs>;
}

/** spec, Campaign group: `items` is "not returned by view", only `size`: say when the two disagree. */
async function warnWhenSizeDisagrees(ctx: LifecycleContext, label: string, size: number | undefined, items: readonly string[]) {
  // `items` is a set: an id listed twice is one campaign.
  const listed = new Set(items).size;
  if (size === undefined || size === listed) return;
  await ctx.warn(
    `${label}: the platform counts ${size} campaign(s) in the group but the program lists ${listed}. ` +
      `The API does not return a group's campaign ids, so the state keeps the listed ones; a group cannot ` +
      `be updated, so change \`items\` (which replaces the group) if the platform's membership is wrong.`,
  );
}

/** Verifies the group exists and matches, then takes it over without a POST. */
async function adopt(ctx: LifecycleContext, inputs: CampaignGroupInputs, adoptId: string): Promise<CreateResult<CampaignGroupOutputs>> {
  const label = subject(inputs.name, adoptId);
  const view = await viewGroup(ctx, adoptId, label).catch((error: unknown) => {
    throw resourceError(`${label}: cannot verify the group to adopt`, error);
  });
  if (view === undefined) {
    throw new ResourceOperationError(`${label}: cannot adopt: the platform has no campaign group with id ${adoptId}`);
  }
  // Groups cannot be updated, so adopting one that differs would leave the state wrong forever.
  const mismatches = (["name", "color"] as const)
    .filter((field) => view[field] !== undefined && !(CAMPAIGN_GROUP.diff[field].equivalent ?? deepEquivalent)(view[field], inputs[field]))
    .map((field) => `${field} is ${JSON.stringify(view[field])} on the platform but ${JSON.stringify(inputs[field])} in the program`);
  if (mismatches.length > 0) {
    throw new ResourceOperationError(
      `${label}: cannot adopt: ${mismatches.join("; ")}. The API cannot update a campaign group, so ` +
        `declare the platform's values, or remove adoptId to create a new group.`,
    );
  }
  await warnWhenSizeDisagrees(ctx, label, view.size, inputs.items);
  const outputs: CampaignGroupOutputs = { ...inputs, ...viewOutputs(view), name: inputs.name, color: inputs.color };
  return { id: adoptId, outputs: withCreationTime(ctx, outputs) };
}

export const campaignGroupLifecycle = lifecycleWithDefaults<CampaignGroupInputs, CampaignGroupOutputs>(CAMPAIGN_GROUP, {
  adopt: (inputs, adoptId, ctx) => adopt(ctx, inputs, adoptId),
  post: {
    body(inputs) {
      if (inputs.items === undefined) {
        // Only an imported group is declared without items.
        throw new ResourceOperationError(
          `${subject(inputs.name)}: cannot create a group without items: list the campaign ids of the new group (spec, rule 4)`,
        );
      }
      return campaignGroupBody(inputs);
    },
    created(inputs, answer, ctx) {
      const created = toSdk<Camelize<CampaignGroupCreated>>(CampaignGroupCreated, answer);
      // Decision (not shown in spec): create is the POST alone; `size` and the timestamps come with a refresh.
      const outputs: CampaignGroupOutputs = created.companyId === undefined ? { ...inputs } : { ...inputs, companyId: created.companyId };
      // The read grace counts from here; the journal keeps the time for a take-over.
      return { id: created.id, outputs: withCreationTime(ctx, outputs) };
    },
  },

  async read(id, previous, ctx) {
    const state = previous ?? ({} as CampaignGroupOutputs);
    const label = subject(state.name, id);
    // A group created moments ago may not show yet (../lifecycle/readGrace.ts).
    const read = await readWithGrace(ctx, previous, () => viewGroup(ctx, id, label)).catch((error: unknown) => {
      throw resourceError(label, error);
    });
    if ("notShownYet" in read) {
      await ctx.warn(notShownYetWarning(label, CAMPAIGN_GROUP.noun, read));
      return { id, outputs: state, inputs: inputFields(CAMPAIGN_GROUP.diff, state, ["adoptId"]) as CampaignGroupInputs };
    }
    if ("gone" in read) {
      await ctx.warn(`${label}: the group no longer exists on the platform; it is removed from the stack's state.`);
      return undefined;
    }
    const view = read.found;
    // The view answers for the token's company: another than the group's would write its view into this state.
    if (state.companyId !== undefined && view.companyId !== undefined && view.companyId !== state.companyId) {
      throw new ResourceOperationError(
        `${label}: the account's token belongs to company ${view.companyId}, but the group belongs to company ` +
          `${state.companyId}: set the token of company ${state.companyId}'s account, or move the group to the other ` +
          `account on purpose (pulumi up --replace <urn>).`,
      );
    }
    // `items` is not returned by the view: keep the last known list (spec, Campaign group).
    const outputs: CampaignGroupOutputs = { ...state, ...viewOutputs(view), items: state.items };
    // An imported group has no `items`.
    if (outputs.items !== undefined) await warnWhenSizeDisagrees(ctx, label, outputs.size, outputs.items);
    return { id, outputs, inputs: inputFields(CAMPAIGN_GROUP.diff, outputs, ["adoptId"]) as CampaignGroupInputs };
  },
});
