/**
 * The pack's policies: each rule of rules/ with its name, description, default enforcement level
 * and configuration schema, matched to the resources of both faces by kind (resources.ts). Kept
 * apart from index.ts, which serves them: `new PolicyPack` starts the analyzer server at once.
 *
 * Every rule's settings come from the pack's configuration (`pulumi preview --policy-pack <dir>
 * --policy-pack-config <file>`), a JSON object keyed by policy name; what it leaves out keeps its
 * default. The enforcement level is set the same way (`"enforcementLevel": "advisory"`, or the
 * level alone: `"bid-modifier-deprecated-tags": "mandatory"`), by Pulumi itself.
 */
import type { EnforcementLevel, PolicyConfigSchema, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import { CONFIG_BASE_URL, ENV_BASE_URL } from "../provider/client/connection";
import type { ResourceKind } from "../provider/resources/kinds";
import { kindOfType, type ResourceView } from "./resources";
import {
  ACCOUNT_CREATE_CAP,
  ACCOUNT_CREATE_CAP_SCHEMA,
  accountCreateCapSettings,
  accountCreateCapViolations,
  type StackResourceView,
} from "./rules/accountCreateCap";
import {
  BID_MODIFIER_BOUNDS,
  BID_MODIFIER_BOUNDS_SCHEMA,
  bidModifierBoundsSettings,
  bidModifierViolations,
} from "./rules/bidModifierBounds";
import {
  BID_STRATEGY_BOUNDS,
  BID_STRATEGY_BOUNDS_SCHEMA,
  bidStrategyBoundsSettings,
  bidStrategyViolations,
} from "./rules/bidStrategyBounds";
import { BID_MODIFIER_DEPRECATED_TAGS, deprecatedTagsViolations } from "./rules/deprecatedTags";
import { AB_VARIATION_HTTPS_IMAGES, httpsImageViolations } from "./rules/httpsImages";
import {
  COUNTRY_CODES_SCHEMA,
  EMPTY_IN_SCHEMA,
  TARGETING_COUNTRY_CODES,
  TARGETING_EMPTY_IN,
  countryCodeViolations,
  emptyInSettings,
  emptyInViolations,
  type CountryCodesSettings,
} from "./rules/targeting";

/** One resource rule: which kind it checks and how. */
interface ResourceRule<S> {
  name: string;
  description: string;
  enforcementLevel: EnforcementLevel;
  kind: ResourceKind;
  schema: PolicyConfigSchema["properties"];
  settings(config: Record<string, unknown>): S;
  violations(resource: ResourceView, settings: S): string[];
}

function resourcePolicy<S>(rule: ResourceRule<S>): ResourceValidationPolicy {
  return {
    name: rule.name,
    description: rule.description,
    enforcementLevel: rule.enforcementLevel,
    configSchema: { properties: rule.schema },
    validateResource(args, reportViolation) {
      const kind = kindOfType(args.type);
      if (kind !== rule.kind) return;
      const settings = rule.settings(args.getConfig<Record<string, unknown>>());
      for (const message of rule.violations({ kind, name: args.name, props: args.props }, settings)) reportViolation(message);
    },
  };
}

/**
 * The base URL of the stack's configured account, for resources that name none: the stack config
 * `adplatform:baseUrl` (the language host hands a policy pack the stack's configuration as
 * PULUMI_CONFIG), else ADPLATFORM_BASE_URL, as the provider resolves it.
 */
export function configuredBaseUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  try {
    const config = JSON.parse(env.PULUMI_CONFIG ?? "{}") as Record<string, unknown>;
    const value = config[CONFIG_BASE_URL];
    if (typeof value === "string" && value.trim() !== "") return value;
  } catch {
    // Not JSON: no stack config to read.
  }
  return env[ENV_BASE_URL];
}

const accountCreateCap: StackValidationPolicy = {
  name: ACCOUNT_CREATE_CAP,
  description:
    "At most maxCreates objects created on one account by the stack (the API cannot delete them). Counts every BidStrategy " +
    "and CampaignGroup without adoptId: a stack policy cannot tell new resources from existing ones.",
  enforcementLevel: "mandatory",
  configSchema: { properties: ACCOUNT_CREATE_CAP_SCHEMA },
  validateStack(args, reportViolation) {
    const settings = accountCreateCapSettings(args.getConfig());
    const resources = args.resources.flatMap((resource): StackResourceView[] => {
      const kind = kindOfType(resource.type);
      return kind === undefined ? [] : [{ kind, name: resource.name, props: resource.props, provider: resource.provider }];
    });
    for (const message of accountCreateCapViolations(resources, settings, configuredBaseUrl())) reportViolation(message);
  },
};

/** Every policy of the pack, in the order the README lists them. */
export const POLICIES = [
  resourcePolicy({
    name: BID_STRATEGY_BOUNDS,
    description: "Bid strategy value and maxValue within the bounds of its strategy kind and pricing model.",
    enforcementLevel: "mandatory",
    kind: "BidStrategy",
    schema: BID_STRATEGY_BOUNDS_SCHEMA,
    settings: bidStrategyBoundsSettings,
    violations: bidStrategyViolations,
  }),
  resourcePolicy({
    name: BID_MODIFIER_BOUNDS,
    description: "Bid modifier value and maxValue at most their limits.",
    enforcementLevel: "mandatory",
    kind: "BidModifier",
    schema: BID_MODIFIER_BOUNDS_SCHEMA,
    settings: bidModifierBoundsSettings,
    violations: bidModifierViolations,
  }),
  resourcePolicy({
    name: BID_MODIFIER_DEPRECATED_TAGS,
    description: "Bid modifiers use containers, not the deprecated tags.",
    enforcementLevel: "advisory",
    kind: "BidModifier",
    schema: {},
    settings: () => undefined,
    violations: deprecatedTagsViolations,
  }),
  resourcePolicy({
    name: TARGETING_COUNTRY_CODES,
    description: "Targeted countries are two-letter uppercase codes, and in the platform's country list when one is configured.",
    enforcementLevel: "mandatory",
    kind: "BidModifier",
    schema: COUNTRY_CODES_SCHEMA,
    settings: (config): CountryCodesSettings => config,
    violations: countryCodeViolations,
  }),
  resourcePolicy({
    name: TARGETING_EMPTY_IN,
    description: "No targeting dimension with op in and no items (it matches nothing).",
    enforcementLevel: "mandatory",
    kind: "BidModifier",
    schema: EMPTY_IN_SCHEMA,
    settings: emptyInSettings,
    violations: emptyInViolations,
  }),
  resourcePolicy({
    name: AB_VARIATION_HTTPS_IMAGES,
    description: "A/B test variation images are https URLs.",
    enforcementLevel: "mandatory",
    kind: "AbTestVariation",
    schema: {},
    settings: () => undefined,
    violations: httpsImageViolations,
  }),
  accountCreateCap,
];
