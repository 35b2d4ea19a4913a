/**
 * CampaignGroup: create = POST op 2 (the definition's `create`, sent through the create journal by the
 * defaults), or adopt an existing group by `adoptId` (verified with GET op 19); refresh = GET op 19; the rest is the defaults'
 * (../lifecycle/defaults.ts): no update (every change replaces), no delete.
 */
import { ApiNotFoundError } from "../../client";
import { CampaignGroup, CampaignGroupCreated, operationByName } from "../../catalog";
import { roundedIntegersNotice, toSdk, type Camelize, answeredAsParsed } from "../../wire";
import type { LifecycleContext } from "../lifecycle/context";
import type { CreateResult } from "../lifecycle/contract";
import { lifecycleWithDefaults, subjectOf } from "../lifecycle/defaults";
import { apiClient } from "../lifecycle/api";
import { caseInsensitiveEquivalent } from "../inputs/equivalence";
import { inputFields } from "../inputs/inputFields";
import { ResourceOperationError, resourceError } from "../lifecycle/resourceErrors";
import { CAMPAIGN_GROUP, type CampaignGroupInputs, campaignGroupBody, type CampaignGroupOutputs } from "./definition";
import { notShownYetWarning, readWithGrace, withCreationTime, type GraceRead } from "../lifecycle/readGrace";

/** A view record of op 19 in SDK names. */
type GroupView = Camelize<CampaignGroup>;

const subject = (name: unknown, id?: string) => subjectOf(CAMPAIGN_GROUP)({ name }, id);

/** The view, its answer handed on as parsed: an integer beyond 2^53 in it fails no refresh. */
const VIEW = answeredAsParsed(operationByName("getCampaignGroup"));

/**
 * The group `id` as op 19 shows it, or undefined when the platform has no such group.
 * Decision (not shown in spec): a 200 whose envelope holds no record means "no such group", as a
 * 404 does. Decision (not shown in spec): an integer beyond 2^53 in a number field (`size`) is read
 * as the nearest number, as the data sources read it, and `label` warns naming the field.
 */
async function viewGroup(ctx: LifecycleContext, id: string, label: string): Promise<GroupView | undefined> {
  try {
    const response = await apiClient(ctx).call(VIEW, { pathParams: { id } });
    // Checked by the envelope's schema: `items` is an array.
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

/** The view's fields that are outputs; name and colour as the platform has them. */
function viewOutputs(view: GroupView): Partial<CampaignGroupOutputs> {
  const { companyId, name, color, size, createTime, updateTime } = view;
  const out: Partial<CampaignGroupOutputs> = { companyId, name, color, size, createTime, updateTime };
  for (const key of Object.keys(out) as (keyof CampaignGroupOutputs)[]) if (out[key] === undefined) delete out[key];
  return out;
}

/**
 * spec, Campaign group: `items` is "not returned by view", only `size`; the state keeps the last
 * known `items`, so say when the two disagree (campaigns joined or left outside Pulumi).
 */
async function warnWhenSizeDisagrees(
  ctx: LifecycleContext,
  label: string,
  size: number | undefined,
  items: readonly string[],
): Promise<void> {
  // `items` is a set (CAMPAIGN_GROUP.diff): an id listed twice is one campaign.
  const listed = new Set(items).size;
  if (size === undefined || size === listed) return;
  await ctx.warn(
    `${label}: the platform counts ${size} campaign(s) in the group but the program lists ${listed}. ` +
      `The API does not return a group's campaign ids, so the state keeps the listed ones; a group cannot ` +
      `be updated, so change \`items\` (which replaces the group) if the platform's membership is wrong.`,
  );
}

/** `create` with `adoptId`: verify the group exists and matches, then take it over without a POST. */
async function adopt(ctx: LifecycleContext, inputs: CampaignGroupInputs, adoptId: string): Promise<CreateResult<CampaignGroupOutputs>> {
  const label = subject(inputs.name, adoptId);
  let view: GroupView | undefined;
  try {
    view = await viewGroup(ctx, adoptId, label);
  } catch (error) {
    throw resourceError(`${label}: cannot verify the group to adopt`, error);
  }
  if (view === undefined) {
    throw new ResourceOperationError(`${label}: cannot adopt: the platform has no campaign group with id ${adoptId}`);
  }
  // Groups cannot be updated, so adopting a group that differs would leave the state wrong forever.
  const mismatches: string[] = [];
  if (view.name !== undefined && view.name !== inputs.name) {
    mismatches.push(`name is ${JSON.stringify(view.name)} on the platform but ${JSON.stringify(inputs.name)} in the program`);
  }
  if (view.color !== undefined && !caseInsensitiveEquivalent(view.color, inputs.color)) {
    mismatches.push(`color is ${JSON.stringify(view.color)} on the platform but ${JSON.stringify(inputs.color)} in the program`);
  }
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

/** The lifecycle of `CampaignGroup`. */
export const campaignGroupLifecycle = lifecycleWithDefaults<CampaignGroupInputs, CampaignGroupOutputs>(CAMPAIGN_GROUP, {
  adopt: (inputs, adoptId, ctx) => adopt(ctx, inputs, adoptId),
  post: {
    body(inputs) {
      if (inputs.items === undefined) {
        // Only an imported group is declared without items; replacing it creates a new group.
        throw new ResourceOperationError(
          `${subject(inputs.name)}: cannot create a group without items: list the campaign ids of the new group (spec, rule 4)`,
        );
      }
      return campaignGroupBody(inputs);
    },
    created(inputs, answer, ctx) {
      const created = toSdk<Camelize<CampaignGroupCreated>>(CampaignGroupCreated, answer);
      // Decision (not shown in spec): create is the POST alone; `size` and the timestamps, which
      // only the view returns, arrive with the
      // first refresh.
      const outputs: CampaignGroupOutputs = { ...inputs };
      if (created.companyId !== undefined) outputs.companyId = created.companyId;
      // The read grace counts from the create (../lifecycle/readGrace.ts); the journal keeps the time for a take-over.
      return { id: created.id, outputs: withCreationTime(ctx, outputs) };
    },
  },

  async read(id, previous, ctx) {
    const state = previous ?? ({} as CampaignGroupOutputs);
    const label = subject(state.name, id);
    let read: GraceRead<GroupView>;
    try {
      // A group the provider created moments ago may not show yet: see ../lifecycle/readGrace.ts.
      read = await readWithGrace(ctx, previous, () => viewGroup(ctx, id, label));
    } catch (error) {
      throw resourceError(label, error);
    }
    if ("notShownYet" in read) {
      await ctx.warn(notShownYetWarning(label, CAMPAIGN_GROUP.noun, read));
      return { id, outputs: state, inputs: inputFields(CAMPAIGN_GROUP.diff, state, ["adoptId"]) as CampaignGroupInputs };
    }
    if ("gone" in read) {
      // A missing group leaves the state.
      await ctx.warn(`${label}: the group no longer exists on the platform; it is removed from the stack's state.`);
      return undefined;
    }
    const view = read.found;
    // The view answers for the token's company: another one than the group's means the account's token is
    // another company's, and acting on its answer would write that company's view into this group's state.
    if (state.companyId !== undefined && view.companyId !== undefined && view.companyId !== state.companyId) {
      throw new ResourceOperationError(
        `${label}: the account's token belongs to company ${view.companyId}, but the group belongs to company ` +
          `${state.companyId}: set the token of company ${state.companyId}'s account, or move the group to the other ` +
          `account on purpose (pulumi up --replace <urn>).`,
      );
    }
    // `items` is not returned by the view: keep the last known list (spec, Campaign group).
    const outputs: CampaignGroupOutputs = { ...state, ...viewOutputs(view), items: state.items };
    // An imported group has no `items` to compare the count with.
    if (outputs.items !== undefined) await warnWhenSizeDisagrees(ctx, label, outputs.size, outputs.items);
    return { id, outputs, inputs: inputFields(CAMPAIGN_GROUP.diff, outputs, ["adoptId"]) as CampaignGroupInputs };
  },
});
