/**
 * The definition zod v4 keeps behind every schema (`schema._zod.def`). Its public API has no walk
 * over a schema's structure, and the casing walk, the native schema generator and the reader's
 * property test all need one; this is the one place that reaches in.
 */
import type { z } from "zod";

/** The fields of a definition that the walks read; which are set depends on `type`. */
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
