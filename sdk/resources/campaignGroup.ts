/**
 * `CampaignGroup`: a group of campaigns created with POST op 2 and refreshed with GET op 19
 * (spec, Endpoints 2 and 19).
 *
 * The API has no update or delete for groups: any change replaces the group (a new one is created),
 * and destroying only removes it from the stack (a warning names the id that stays on the platform).
 * Refresh reads name, colour, size and timestamps; the view does not return campaign ids, so `items`
 * keeps the last known list (a warning shows when `size` disagrees); a group gone from the platform
 * leaves the state.
 */
import * as pulumi from "@pulumi/pulumi";
import { RESOURCE_MODULE } from "../../provider/resources/kinds";
import { importAsAdoption, logImportAsAdoption } from "./importOption";
import type { Account } from "../account";
import { accountInput, accountOptions } from "./accountInput";
import { PROVIDER_SHIMS } from "./providerShim";
import { acknowledgeCreated, identityInputs } from "./resourceIdentity";

/** The arguments of a `CampaignGroup`. Every change to them replaces the group. */
export interface CampaignGroupArgs {
  /** Name of the group. */
  name: pulumi.Input<string>;
  /** Colour as a hex string `#rrggbb` (either letter case; compared case-insensitively). */
  color: pulumi.Input<string>;
  /**
   * Ids of the campaigns that join the group (spec, rule 4). A set: order and a repeated id do not
   * matter.
   */
  items: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Id of an existing group to take over instead of creating one. It is read first (GET op 19); a
   * group whose name or colour differs from the declared ones is refused, since groups cannot be
   * updated. Only used when the resource is created.
   */
  adoptId?: pulumi.Input<string>;
  /**
   * The platform account the object belongs to (`new Account({ baseUrl, token })`); the stack
   * config or the environment when omitted. Moving the resource to another account replaces it.
   */
  account?: Account;
}

/** A campaign group on the platform. */
export class CampaignGroup extends pulumi.dynamic.Resource {
  /** Name of the group. */
  declare public readonly name: pulumi.Output<string>;
  /** Colour `#rrggbb`. */
  declare public readonly color: pulumi.Output<string>;
  /** Campaign ids of the group, as last declared (the API does not return them on read). */
  declare public readonly items: pulumi.Output<string[]>;
  /** The adopted group's id, when the resource was created by adopting. */
  declare public readonly adoptId: pulumi.Output<string | undefined>;
  /** Id of the company (account) that owns the group. */
  declare public readonly companyId: pulumi.Output<string | undefined>;
  /** Number of campaigns in the group as the platform counts them; known after adopting or a refresh. */
  declare public readonly size: pulumi.Output<number | undefined>;
  /** Creation time, `YYYY-MM-DD HH:MM:SS`; known after adopting or a refresh. */
  declare public readonly createTime: pulumi.Output<string | undefined>;
  /** Last update time, `YYYY-MM-DD HH:MM:SS`; known after adopting or a refresh. */
  declare public readonly updateTime: pulumi.Output<string | undefined>;

  /**
   * @param name the Pulumi resource name (not the group's name on the platform).
   * @param args the group's fields.
   * @param opts resource options; `customTimeouts` has no effect on dynamic resources, and
   *   `import: "<group id>"` is taken as `adoptId` (Pulumi's own import fails for dynamic resources).
   */
  constructor(name: string, args: CampaignGroupArgs, opts?: pulumi.CustomResourceOptions) {
    const imported = importAsAdoption("CampaignGroup", name, args, opts);
    super(
      PROVIDER_SHIMS.CampaignGroup,
      name,
      {
        name: imported.args.name,
        color: imported.args.color,
        items: imported.args.items,
        adoptId: imported.args.adoptId,
        companyId: undefined,
        size: undefined,
        createTime: undefined,
        updateTime: undefined,
        ...accountInput(imported.args.account),
        ...identityInputs("CampaignGroup", name, imported.opts),
      },
      accountOptions(imported.args.account, imported.opts),
      RESOURCE_MODULE,
      "CampaignGroup",
    );
    logImportAsAdoption(this, imported);
    acknowledgeCreated(this);
  }
}
