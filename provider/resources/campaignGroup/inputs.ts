/**
 * CampaignGroup inputs (SDK side) and their wire body. The field rules are the catalog's op 2
 * request schema (`CampaignGroupCreate`); `adoptId` is added here.
 */
import { z } from "zod";
import { CampaignGroupCreate } from "../../catalog";
import { toWire } from "../../wire/casing";
import type { DiffRules } from "../common/diff";
import { PathId } from "../common/pathId";
import { caseInsensitiveEquivalent, setEquivalent } from "../common/equivalence";

const wire = CampaignGroupCreate.shape;

/** Checked inputs of a CampaignGroup. */
export const CampaignGroupInputs = z.strictObject({
  name: wire.name,
  color: wire.color,
  items: wire.items,
  adoptId: PathId.optional(),
});
/** Checked CampaignGroup inputs. */
export type CampaignGroupInputs = z.output<typeof CampaignGroupInputs>;

/**
 * Inputs of a group that exists with no `items` in its state: an imported group, since the view
 * does not return campaign ids (spec, Campaign group). Only creating a group (op 2) needs `items`,
 * so its declaration may omit them.
 */
export const ExistingCampaignGroupInputs = CampaignGroupInputs.extend({ items: wire.items.optional() });

/** CampaignGroup state: the inputs plus what the API returns (op 2 response, op 19 view). */
export type CampaignGroupOutputs = CampaignGroupInputs & {
  companyId?: string;
  /** Number of campaigns, as the platform counts them (op 19). */
  size?: number;
  createTime?: string;
  updateTime?: string;
};

/**
 * The API has no update for groups: every field replaces (docs/ARCHITECTURE.md, "Resources and their
 * lifecycle"). `adoptId` is not compared (see `BID_STRATEGY_DIFF`).
 * Decision (not shown in spec): `items` is compared as a set (membership has no order, and the
 * catalog refuses duplicates), and colours case-insensitively (`#AABBCC` is `#aabbcc`), so neither a
 * reordering nor the platform's spelling of a colour replaces a group.
 */
export const CAMPAIGN_GROUP_DIFF: DiffRules = {
  name: { replaces: true },
  color: { replaces: true, equivalent: caseInsensitiveEquivalent },
  items: { replaces: true, equivalent: setEquivalent },
};

/** The op 2 request body for checked inputs. */
export function campaignGroupBody(inputs: CampaignGroupInputs): z.input<typeof CampaignGroupCreate> {
  const { name, color, items } = inputs;
  return toWire(CampaignGroupCreate, { name, color, items });
}
