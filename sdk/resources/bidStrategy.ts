/**
 * `BidStrategy`: a bid strategy created with POST op 3 (spec, Endpoints 3).
 *
 * The API has no update, read or delete for bid strategies: any change replaces the strategy (a new
 * one is created), refresh keeps the last written state, and destroying only removes it from the
 * stack (a warning names the id that stays on the platform).
 */
import * as pulumi from "@pulumi/pulumi";
import type { BidStrategyKind, PricingModel } from "../../provider/catalog/schemas/bidStrategy";
import { RESOURCE_MODULE } from "../../provider/resources/kinds";
import { importAsAdoption, logImportAsAdoption } from "./importOption";
import type { Account } from "../account";
import { accountInput, accountOptions } from "./accountInput";
import { PROVIDER_SHIMS } from "./providerShim";
import { acknowledgeCreated, identityInputs } from "./resourceIdentity";

/** The arguments of a `BidStrategy`. Every change to them replaces the strategy. */
export interface BidStrategyArgs {
  /** Name of the strategy. */
  name: pulumi.Input<string>;
  /**
   * Pricing model: `cpc`, the only value the API documents and the default, or another the
   * platform offers (sent as written).
   * @default "cpc"
   */
  pricingModel?: pulumi.Input<PricingModel>;
  /**
   * How `value` adjusts the bid (spec, rule 3): one of `exact`, `price_add`, `price_sub`,
   * `percent_add`, `percent_sub`.
   */
  strategy: pulumi.Input<BidStrategyKind>;
  /**
   * The strategy's value: a price for `exact`/`price_*`, a percentage for `percent_*`. A finite
   * number, or a decimal string such as `"0.25"` (sent as a number).
   */
  value: pulumi.Input<number | string>;
  /** Upper bound of the resulting bid. A finite number or decimal string (sent as a number). */
  maxValue: pulumi.Input<number | string>;
  /**
   * Id of an existing bid strategy to take over instead of creating one. The API cannot read bid
   * strategies, so the declared values are trusted (a warning says so) and must match the platform.
   * Only used when the resource is created.
   */
  adoptId?: pulumi.Input<string>;
  /**
   * The platform account the object belongs to (`new Account({ baseUrl, token })`); the stack
   * config or the environment when omitted. Moving the resource to another account replaces it.
   */
  account?: Account;
}

/** A bid strategy on the platform. */
export class BidStrategy extends pulumi.dynamic.Resource {
  /** Name of the strategy. */
  declare public readonly name: pulumi.Output<string>;
  /** Pricing model (`cpc` unless another was set). */
  declare public readonly pricingModel: pulumi.Output<PricingModel>;
  /** One of `exact`, `price_add`, `price_sub`, `percent_add`, `percent_sub`. */
  declare public readonly strategy: pulumi.Output<BidStrategyKind>;
  /** The strategy's value, as the number sent to the API. */
  declare public readonly value: pulumi.Output<number>;
  /** Upper bound of the resulting bid, as the number sent to the API. */
  declare public readonly maxValue: pulumi.Output<number>;
  /** The adopted strategy's id, when the resource was created by adopting. */
  declare public readonly adoptId: pulumi.Output<string | undefined>;

  /**
   * @param name the Pulumi resource name (not the strategy's name on the platform).
   * @param args the strategy's fields.
   * @param opts resource options; `customTimeouts` has no effect on dynamic resources, and
   *   `import: "<strategy id>"` is taken as `adoptId` (Pulumi's own import fails for dynamic resources).
   */
  constructor(name: string, args: BidStrategyArgs, opts?: pulumi.CustomResourceOptions) {
    const imported = importAsAdoption("BidStrategy", name, args, opts);
    super(
      PROVIDER_SHIMS.BidStrategy,
      name,
      {
        name: imported.args.name,
        pricingModel: imported.args.pricingModel,
        strategy: imported.args.strategy,
        value: imported.args.value,
        maxValue: imported.args.maxValue,
        adoptId: imported.args.adoptId,
        ...accountInput(imported.args.account),
        ...identityInputs("BidStrategy", name, imported.opts),
      },
      accountOptions(imported.args.account, imported.opts),
      RESOURCE_MODULE,
      "BidStrategy",
    );
    logImportAsAdoption(this, imported);
    acknowledgeCreated(this);
  }
}
