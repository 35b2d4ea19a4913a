/**
 * The resource's identity for the create journal (provider/resources/journal), on
 * the program's side.
 *
 * - `identityInputs(kind, name, opts)`: the hidden input holding the resource's URN, computed the
 *   way the engine computes it (`pulumi.createUrn`: stack, project, parent, type, name). The
 *   dynamic-provider plugin gives `create` only inputs, so this is how the journal learns which
 *   resource a create is for.
 * - `acknowledgeCreated(resource, kind)`: once the engine answers the registration with an id, the
 *   engine has recorded the object, so its journal entry has done its job and is removed here. This
 *   is what keeps a later replacement with equal inputs (`pulumi up --target-replace`) from taking
 *   the replaced object over: no provider call names the id in between.
 */
import * as pulumi from "@pulumi/pulumi";
import { settleRecorded } from "../../provider/resources/journal";
import { IDENTITY_INPUT } from "../../provider/faces/dynamic/identityInput";
import { RESOURCE_MODULE, type ResourceKind } from "../../provider/resources/kinds";
import { programSettings } from "../config";

/** The hidden input of `kind`'s resource `name`: `{ __adplatformUrn: <its URN> }`. */
export function identityInputs(
  kind: ResourceKind,
  name: string,
  opts?: pulumi.CustomResourceOptions,
): Record<string, pulumi.Input<string>> {
  return { [IDENTITY_INPUT]: pulumi.createUrn(name, `pulumi-nodejs:dynamic/${RESOURCE_MODULE}:${kind}`, opts?.parent) };
}

/** Removes the journal entry of `resource` once the engine has answered with its id (not in previews). */
export function acknowledgeCreated(resource: pulumi.CustomResource): void {
  pulumi.all([resource.urn, resource.id]).apply(async ([urn, id]) => {
    if (pulumi.runtime.isDryRun() || !id) return;
    try {
      // Where the plugin journals: the same settings, resolved from this program's stack config.
      await settleRecorded(programSettings(), urn, id);
    } catch {
      // The journal is an aid: settings that cannot be resolved must not fail the program.
    }
  });
}
