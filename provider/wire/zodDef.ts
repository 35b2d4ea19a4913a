/** The definition zod v4 keeps behind every schema: its public API has no walk over a schema, so this is the one place that reaches in. */
import type { z } from "zod";

/** The fields the walks read; which are set depends on `type`. */
export interface ZodDef {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  getter?: () => z.ZodType;
  shape?: Record<string, z.ZodType>;
  values?: unknown[];
}

export const zodDef = (schema: z.ZodType): ZodDef => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
