/**
 * Property values to and from the engine, which sends secrets wrapped to a provider that accepts them
 * (`@pulumi/pulumi`'s server does). Inbound, secrets are unwrapped (we declare no secret input and the
 * engine keeps a program's secrets in the state itself); the unknown sentinel stays
 * (`provider/resources/inputs/unknowns.ts`). Outbound, `undefined` is dropped: `Struct` refuses it.
 */
import { UNKNOWN_VALUE } from "../../resources";

/** The key that marks a special value (secret, resource reference, output) in a property map. */
export const SIGNATURE_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";
export const OUTPUT_SIGNATURE = "d0e6a833031e9bbcd3f4e8bde6ca49a4";

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `value` marked secret. */
export const secretOf = (value: unknown): Record<string, unknown> => ({ [SIGNATURE_KEY]: SECRET_SIGNATURE, value });

/** A property value with secrets (and known output values) unwrapped, at any depth. */
export function fromEngine(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromEngine);
  if (!isPlainObject(value)) return value;
  const signature = value[SIGNATURE_KEY];
  if (signature === SECRET_SIGNATURE) return fromEngine(value.value);
  // An output value without `value` is one the engine does not know yet.
  if (signature === OUTPUT_SIGNATURE) return "value" in value ? fromEngine(value.value) : UNKNOWN_VALUE;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = fromEngine(v);
  return out;
}

/** A property map from the engine, unwrapped (an absent map reads as empty). */
export function propertiesFromEngine(props: unknown): Record<string, unknown> {
  const value = fromEngine(props ?? {});
  return isPlainObject(value) ? value : {};
}

/** A value the engine can take: `undefined` fields and elements dropped, at any depth. */
export function toEngine(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(toEngine);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = toEngine(v);
  return out;
}
