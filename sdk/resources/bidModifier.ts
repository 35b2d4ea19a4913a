/**
 * `BidModifier`: the settings of an existing bid modifier, named by its id, set with PATCH op 1
 * (spec, Endpoints 1).
 *
 * Creating the resource adopts the modifier and sends every declared field; updates send only the
 * changed fields; a different `bidModifierId` replaces the resource. The API cannot create, read or
 * delete bid modifiers and cannot unset a field: removing a field from the program leaves its value
 * on the platform, and destroying leaves the object with its last values (both with a warning).
 */
import * as pulumi from "@pulumi/pulumi";
import { RESOURCE_MODULE } from "../../provider/resources/kinds";
import { importAsAdoption, logImportAsAdoption } from "./importOption";
import type { Account } from "../account";
import { accountInput, accountOptions } from "./accountInput";
import { PROVIDER_SHIMS } from "./providerShim";

/** One targeting dimension of a bid modifier (spec, Bid modifier: `targeting`). */
export interface BidModifierTargetingDimensionArgs {
  /** The dimension's values, e.g. two-letter country codes for `countries`; may be empty. */
  items: pulumi.Input<pulumi.Input<string>[]>;
  /** How the items apply, e.g. `in` (the spec gives no list of allowed operators). */
  op: pulumi.Input<string>;
}

/** One targeting dimension as stored in the state. */
export interface BidModifierTargetingDimension {
  /** The dimension's values. */
  items: string[];
  /** How the items apply, e.g. `in`. */
  op: string;
}

/** The arguments of a `BidModifier`. At least one field besides `bidModifierId` must be set. */
export interface BidModifierArgs {
  /** Id of the existing bid modifier to manage. Changing it replaces the resource. */
  bidModifierId: pulumi.Input<string>;
  /** Name of the modifier. */
  name?: pulumi.Input<string>;
  /**
   * The modifier's value, a decimal (the API's sample has two decimal places). A number
   * or a decimal string such as `"1.50"`; sent as a decimal string, and `1.5` equals `"1.50"`.
   */
  value?: pulumi.Input<number | string>;
  /**
   * Upper bound, a decimal (the API's sample has four decimal places). A number or a
   * decimal string such as `"2.5000"`; sent as a decimal string.
   */
  maxValue?: pulumi.Input<number | string>;
  /**
   * Targeting by dimension: keys are wire dimension names such as `countries` or `device_types`
   * (kept as written), values are `{ items, op }`, e.g. `{ countries: { items: ["US"], op: "in" } }`.
   */
  targeting?: pulumi.Input<Record<string, pulumi.Input<BidModifierTargetingDimensionArgs>>>;
  /** Container ids. When both `containers` and `tags` are set, `containers` applies (spec, rule 2). */
  containers?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Tag ids.
   * @deprecated Deprecated by the API (spec, Versioning): use `containers`. Ignored by the API when
   * `containers` is also set.
   */
  tags?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * The platform account the object belongs to (`new Account({ baseUrl, token })`); the stack
   * config or the environment when omitted. Moving the resource to another account replaces it.
   */
  account?: Account;
}

/** The managed settings of an existing bid modifier. */
export class BidModifier extends pulumi.dynamic.Resource {
  /** Id of the managed bid modifier (also the resource's `id`). */
  declare public readonly bidModifierId: pulumi.Output<string>;
  /** Name, when declared. */
  declare public readonly name: pulumi.Output<string | undefined>;
  /** Value as the decimal string sent to the API, when declared. */
  declare public readonly value: pulumi.Output<string | undefined>;
  /** Upper bound as the decimal string sent to the API, when declared. */
  declare public readonly maxValue: pulumi.Output<string | undefined>;
  /** Targeting by dimension, when declared. */
  declare public readonly targeting: pulumi.Output<Record<string, BidModifierTargetingDimension> | undefined>;
  /** Container ids, when declared. */
  declare public readonly containers: pulumi.Output<string[] | undefined>;
  /**
   * Tag ids, when declared.
   * @deprecated Deprecated by the API: use `containers`.
   */
  declare public readonly tags: pulumi.Output<string[] | undefined>;

  /**
   * @param name the Pulumi resource name.
   * @param args the modifier's id and the fields to manage.
   * @param opts resource options; `customTimeouts` has no effect on dynamic resources, and `import`
   *   may only repeat `bidModifierId`, whose modifier is always taken over (Pulumi's own import fails
   *   for dynamic resources).
   */
  constructor(name: string, args: BidModifierArgs, opts?: pulumi.CustomResourceOptions) {
    const imported = importAsAdoption("BidModifier", name, args, opts);
    super(
      PROVIDER_SHIMS.BidModifier,
      name,
      {
        bidModifierId: imported.args.bidModifierId,
        name: imported.args.name,
        value: imported.args.value,
        maxValue: imported.args.maxValue,
        targeting: imported.args.targeting,
        containers: imported.args.containers,
        tags: imported.args.tags,
        ...accountInput(imported.args.account),
      },
      accountOptions(imported.args.account, imported.opts),
      RESOURCE_MODULE,
      "BidModifier",
    );
    logImportAsAdoption(this, imported);
  }
}
