/** CampaignGroup: field rules from op 2's `CampaignGroupCreate`, plus `adoptId`; state fields from the op 19 view. */
import type { z } from "zod";
import { CampaignGroup, CampaignGroupCreate, requestLine } from "../../catalog";
import { toWire } from "../../wire";
import { APPROVAL_FIELD } from "../inputs/leftBehindApproval";
import { defineResource, optsDoc, type StateOutputs } from "../inputs/definition";
import { PathId } from "../inputs/pathId";
import { caseInsensitiveEquivalent, setEquivalent } from "../inputs/equivalence";

const wire = CampaignGroupCreate.shape;
const view = CampaignGroup.shape;

// No update for groups: every compared field replaces. Refresh reads the view (op 19), without campaign ids.
export const CAMPAIGN_GROUP = defineResource({
  kind: "CampaignGroup",
  noun: "campaign group",
  // spec, Campaign group: the view (op 19) is read to compare the declared name and colour.
  adoption: {
    by: "adoptId",
    notice: `${requestLine("getCampaignGroup")} checks that its name and colour match`,
    importEffect:
      `is read (${requestLine("getCampaignGroup")}) and taken over on create instead of creating a new one; the create fails if its name ` +
      "or colour differ from the declared ones",
  },
  description:
    "A campaign group on the platform.\n\n" +
    "The API cannot update or delete groups: any change replaces the group (a new one is created), and " +
    "destroying the resource only removes it from the stack (a warning names the id that stays on the " +
    "platform). A refresh reads the name, colour, size and timestamps; the platform does not return a " +
    "group's campaign ids, so `items` keeps the last known list (a warning shows when `size` disagrees); a " +
    "group gone from the platform leaves the state.",
  argsDescription: "The arguments of a `CampaignGroup`. Every change to them replaces the group.",
  constructorDocs: {
    name: "the Pulumi resource name (not the group's name on the platform).",
    args: "the group's fields.",
    opts: optsDoc('`import: "<group id>"` is taken as `adoptId`'),
  },
  create: "createCampaignGroup",
  fields: {
    name: {
      schema: wire.name,
      description: "Name of the group.",
      diff: { replaces: true },
    },
    // Decision (not shown in spec): colours compare case-insensitively, so the platform's spelling never replaces.
    color: {
      schema: wire.color,
      description: "Colour as a hex string `#rrggbb` (either letter case; compared case-insensitively).",
      stateDescription: "Colour `#rrggbb`.",
      diff: { replaces: true, equivalent: caseInsensitiveEquivalent },
    },
    // spec, rule 4. Decision (not shown in spec): compared as a set, so a reordering never replaces. Only op 2
    // needs them: an imported group has none, since the view does not return them (spec, Campaign group).
    items: {
      schema: wire.items,
      description: "Ids of the campaigns that join the group. A set: order and a repeated id do not matter.",
      stateDescription: "Campaign ids of the group, as last declared (the API does not return them on read).",
      diff: { replaces: true, equivalent: setEquivalent },
      requiredOnlyToCreate: true,
      nativeNote:
        "Required to create a group; the declaration of an imported group may omit it, since the API does not return a group's campaign ids.",
    },
    // Not compared: changing it later neither replaces nor re-adopts.
    adoptId: {
      schema: PathId.optional(),
      description:
        "Id of an existing group to take over instead of creating one. It is read first; a group whose name or " +
        "colour differs from the declared ones is refused, since groups cannot be updated. Only used when the " +
        "resource is created.",
      stateDescription: "The adopted group's id, when the resource was created by adopting.",
    },
    approveLeavingId: APPROVAL_FIELD,
  },
  // From the op 2 answer (`companyId`) and the op 19 view (all four).
  state: {
    companyId: { schema: view.company_id, description: "Id of the company (account) that owns the group." },
    size: {
      schema: view.size,
      description: "Number of campaigns in the group as the platform counts them; known after adopting or a refresh.",
    },
    createTime: { schema: view.create_time, description: "Creation time, `YYYY-MM-DD HH:MM:SS`; known after adopting or a refresh." },
    updateTime: { schema: view.update_time, description: "Last update time, `YYYY-MM-DD HH:MM:SS`; known after adopting or a refresh." },
  },
});

export const CampaignGroupInputs = CAMPAIGN_GROUP.inputs;
export type CampaignGroupInputs = z.output<typeof CampaignGroupInputs>;

export type CampaignGroupOutputs = CampaignGroupInputs & StateOutputs<NonNullable<(typeof CAMPAIGN_GROUP)["state"]>>;

/** The op 2 request body for checked inputs. */
export function campaignGroupBody(inputs: CampaignGroupInputs): z.input<typeof CampaignGroupCreate> {
  const { name, color, items } = inputs;
  return toWire(CampaignGroupCreate, { name, color, items });
}
