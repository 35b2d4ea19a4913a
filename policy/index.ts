/**
 * The adplatform policy pack: guardrails for ad changes, checked by `pulumi preview --policy-pack`
 * before anything reaches an account. The policies are in policies.ts; README.md lists them with
 * their defaults.
 */
import { PolicyPack } from "@pulumi/policy";
import { POLICIES } from "./policies";

new PolicyPack("adplatform", { policies: POLICIES });
