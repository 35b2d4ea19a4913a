/**
 * `account-create-cap`: at most `maxCreates` objects created on one account by the stack's
 * resources. Creates cannot be undone (the API has no delete, spec Endpoints), so a loop that
 * declares 500 strategies instead of 5 is stopped in the preview, before anything is sent.
 *
 * What counts: BidStrategy (op 3) and CampaignGroup (op 2) resources without `adoptId` (an adopted
 * object exists already). BidModifier and AbTestVariation only PATCH objects that exist (ops 1, 4).
 *
 * What a stack policy can see (the limit of this rule): Pulumi hands a stack policy every resource
 * of the stack as it will be after the update, with its properties, its provider and its options;
 * not the step (create, same, update, replace) and not the id. A resource this update creates
 * and one an earlier update created look alike, so the count is of every creating resource in
 * the stack, per account: on a new stack (or a new account), exactly the creates of the update; on
 * a stack that already holds objects, those count too, and the cap is what the stack may hold on
 * one account. Stack policies run after the step generator: in `pulumi preview` (and the preview
 * `pulumi up` shows first) nothing has been sent yet; with `pulumi up --skip-preview` the objects
 * already exist when the rule reports.
 */
import type { ResourceKind } from "../../provider/resources/kinds";
import { PACKAGE_NAME } from "../../provider/faces/native/tokens";
import { describe, objectOf, type ResourceView } from "../resources";

export const ACCOUNT_CREATE_CAP = "account-create-cap";

/** The kinds whose resources create a platform object (unless they adopt one). */
export const CREATING_KINDS: readonly ResourceKind[] = ["BidStrategy", "CampaignGroup"];

/** The rule's settings. */
export interface AccountCreateCapSettings {
  /** Most creating resources on one account. */
  maxCreates: number;
}

/**
 * Default: 20, more than a campaign launch usually declares at once, and few enough that a
 * runaway loop (or a list pasted twice) is stopped; a stack that holds more raises it.
 */
export const ACCOUNT_CREATE_CAP_DEFAULTS: AccountCreateCapSettings = { maxCreates: 20 };

/** The rule's `configSchema` properties. */
export const ACCOUNT_CREATE_CAP_SCHEMA = {
  maxCreates: { type: "integer", minimum: 0, description: "Most objects the stack creates on one account." },
} as const;

/** The settings: the configuration over the defaults. */
export function accountCreateCapSettings(config: Partial<AccountCreateCapSettings>): AccountCreateCapSettings {
  return { maxCreates: config.maxCreates ?? ACCOUNT_CREATE_CAP_DEFAULTS.maxCreates };
}

/** A resource of the stack, with the provider a native resource names. */
export interface StackResourceView extends ResourceView {
  provider?: { type: string; props: Record<string, unknown> };
}

/**
 * A base URL as a message may show it: no credential (a URL may carry one), no trailing slash.
 * Undefined when it is not a URL.
 */
function baseUrlLabel(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  try {
    const url = new URL(value.trim());
    url.username = "";
    url.password = "";
    return url.toString().replace(/\/+$/, "");
  } catch {
    return undefined;
  }
}

/**
 * Which account a resource belongs to: the dynamic face's `account` property (its name, else its
 * base URL), else the native face's explicit provider (its base URL), else the stack's configured
 * account (`configuredBaseUrl`: the stack config `adplatform:baseUrl`, else ADPLATFORM_BASE_URL),
 * which is also what a default provider uses. Never the token.
 */
export function accountOf(resource: StackResourceView, configuredBaseUrl: string | undefined): string {
  const account = objectOf(resource.props.account);
  if (account !== undefined) {
    if (typeof account.name === "string" && account.name.trim() !== "") return `account "${account.name}"`;
    const label = baseUrlLabel(account.baseUrl);
    if (label !== undefined) return label;
  }
  if (resource.provider?.type === `pulumi:providers:${PACKAGE_NAME}`) {
    const label = baseUrlLabel(resource.provider.props.baseUrl);
    if (label !== undefined) return label;
  }
  return baseUrlLabel(configuredBaseUrl) ?? "the configured account";
}

/** True when the resource creates a platform object. */
export function creates(resource: ResourceView): boolean {
  const adoptId = resource.props.adoptId;
  return CREATING_KINDS.includes(resource.kind) && (adoptId === undefined || adoptId === null || adoptId === "");
}

/** The stack's violations: one per account over the cap, with the count, the cap and the first few names. */
export function accountCreateCapViolations(
  resources: readonly StackResourceView[],
  settings: AccountCreateCapSettings,
  configuredBaseUrl: string | undefined,
): string[] {
  const byAccount = new Map<string, StackResourceView[]>();
  for (const resource of resources.filter(creates)) {
    const account = accountOf(resource, configuredBaseUrl);
    byAccount.set(account, [...(byAccount.get(account) ?? []), resource]);
  }
  const shownNames = 5;
  return [...byAccount]
    .filter(([, creating]) => creating.length > settings.maxCreates)
    .map(([account, creating]) => {
      // Sorted: the engine hands resources over in no fixed order, and a message should not change between runs.
      const names = creating.map(describe).sort().slice(0, shownNames).join(", ");
      const more = creating.length > shownNames ? `, and ${creating.length - shownNames} more` : "";
      return (
        `${account}: the stack creates ${creating.length} objects, above the cap of ${settings.maxCreates} (maxCreates): ` +
        `${names}${more}. The API cannot delete them; raise maxCreates if this is intended.`
      );
    });
}
