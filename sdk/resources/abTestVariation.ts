/**
 * `AbTestVariation`: the settings of an existing variation of a campaign A/B test, named by the
 * test's id and the variation's id, set with PATCH op 4 (spec, Endpoints 4).
 *
 * Creating the resource adopts the variation and sends every declared field; updates send only the
 * changed fields; different ids replace the resource. The API cannot create, read or delete
 * variations and cannot unset a field: removing a field leaves its value on the platform, and
 * destroying leaves the variation with its last values (both with a warning).
 */
import * as pulumi from "@pulumi/pulumi";
import { RESOURCE_MODULE } from "../../provider/resources/kinds";
import { importAsAdoption, logImportAsAdoption } from "./importOption";
import type { Account } from "../account";
import { accountInput, accountOptions } from "./accountInput";
import { PROVIDER_SHIMS } from "./providerShim";

/** `settings` of a variation (spec, Campaign A/B test variation). */
export interface AbTestVariationSettingsArgs {
  /**
   * Image URL by language: keys are language codes such as `en` or `pt_BR` (kept as written),
   * values are absolute URLs (`https:` usually).
   */
  image: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/** `settings` as stored in the state. */
export interface AbTestVariationSettings {
  /** Image URL by language code. */
  image: Record<string, string>;
}

/** The arguments of an `AbTestVariation`. At least one of `name`, `settings` must be set. */
export interface AbTestVariationArgs {
  /** Id of the campaign A/B test. Changing it replaces the resource. */
  abTestId: pulumi.Input<string>;
  /** Id of the variation within the test. Changing it replaces the resource. */
  variationId: pulumi.Input<string>;
  /** Name of the variation. */
  name?: pulumi.Input<string>;
  /** Display settings; sent whole whenever they change. */
  settings?: pulumi.Input<AbTestVariationSettingsArgs>;
  /**
   * The platform account the object belongs to (`new Account({ baseUrl, token })`); the stack
   * config or the environment when omitted. Moving the resource to another account replaces it.
   */
  account?: Account;
}

/** The managed settings of an existing A/B test variation. Its `id` is `<abTestId>/<variationId>`. */
export class AbTestVariation extends pulumi.dynamic.Resource {
  /** Id of the campaign A/B test. */
  declare public readonly abTestId: pulumi.Output<string>;
  /** Id of the variation. */
  declare public readonly variationId: pulumi.Output<string>;
  /** Name, when declared. */
  declare public readonly name: pulumi.Output<string | undefined>;
  /** Display settings, when declared. */
  declare public readonly settings: pulumi.Output<AbTestVariationSettings | undefined>;

  /**
   * @param name the Pulumi resource name.
   * @param args the variation's ids and the fields to manage.
   * @param opts resource options; `customTimeouts` has no effect on dynamic resources, and `import`
   *   may only be the declared ids as `"<abTestId>/<variationId>"`, whose variation is always taken
   *   over (Pulumi's own import fails for dynamic resources).
   */
  constructor(name: string, args: AbTestVariationArgs, opts?: pulumi.CustomResourceOptions) {
    const imported = importAsAdoption("AbTestVariation", name, args, opts);
    super(
      PROVIDER_SHIMS.AbTestVariation,
      name,
      {
        abTestId: imported.args.abTestId,
        variationId: imported.args.variationId,
        name: imported.args.name,
        settings: imported.args.settings,
        ...accountInput(imported.args.account),
      },
      accountOptions(imported.args.account, imported.opts),
      RESOURCE_MODULE,
      "AbTestVariation",
    );
    logImportAsAdoption(this, imported);
  }
}
