/**
 * Descriptions for the native schema, read from the JSDoc of the SDK's TypeScript declarations with
 * the TypeScript compiler API, so the schema's documentation is the SDK's, written once.
 *
 * Descriptions are keyed by a dotted path of property names from a named interface, class or type
 * alias (`GetZoneResult` + `targeting.countries.items`): arrays are transparent (an element's
 * properties sit under the array's path), `pulumi.Input<T>` / `pulumi.Output<T>` read as `T`.
 */
import * as path from "node:path";
import * as ts from "typescript";

/** Documentation of one declaration: its own text and its properties' by path. */
export interface DeclarationDocs {
  readonly description: string;
  readonly properties: ReadonlyMap<string, string>;
}

/** The SDK's documentation, looked up by declaration name. */
export interface SdkDocs {
  /** The docs of the interface, class, type alias or function `name` in `file` (repository-relative). */
  declaration(file: string, name: string): DeclarationDocs;
  /** The leading JSDoc of `file` (its header comment). */
  header(file: string): string;
}

const WRAPPERS = new Set(["Promise", "OutputInstance", "Output", "Input"]);

/** Reads the JSDoc of the given SDK files (repository-relative paths) below `root`. */
export function readSdkDocs(root: string, files: readonly string[]): SdkDocs {
  const program = ts.createProgram(
    files.map((f) => path.join(root, f)),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      strict: true,
      skipLibCheck: true,
      noEmit: true,
    },
  );
  const checker = program.getTypeChecker();
  // Line breaks inside a paragraph are the source's wrapping, not the text's: joined with a space.
  const unwrap = (text: string) => text.trim().replace(/([^\n])\n(?!\n)/g, "$1 ");
  const doc = (symbol: ts.Symbol): string => unwrap(ts.displayPartsToString(symbol.getDocumentationComment(checker)));

  function source(file: string): ts.SourceFile {
    const sf = program.getSourceFile(path.join(root, file));
    if (!sf) throw new Error(`${file} is not part of the documentation program`);
    return sf;
  }

  /** `T` of `pulumi.Input<T>`, `Output<T>`, `T | undefined`, `T[]`, ...; undefined when not one object type. */
  function plainObject(type: ts.Type, depth: number): ts.Type | undefined {
    if (depth > 6) return undefined;
    let t = checker.getNonNullableType(type);
    if (t.isUnion()) {
      const members = t.types.filter((m) => !WRAPPERS.has(m.getSymbol()?.getName() ?? m.aliasSymbol?.getName() ?? ""));
      const arrays = members.filter((m) => checker.isArrayType(m));
      const objects = members.filter((m) => !checker.isArrayType(m));
      if (arrays.length === 1) t = arrays[0]!;
      else if (objects.length === 1) t = objects[0]!;
      else return undefined;
    }
    if (t.isIntersection()) {
      const wrapped = t.types.find((m) => WRAPPERS.has(m.getSymbol()?.getName() ?? ""));
      if (wrapped) return plainObject(checker.getTypeArguments(wrapped as ts.TypeReference)[0] ?? wrapped, depth + 1);
    }
    if (checker.isArrayType(t)) return plainObject(checker.getTypeArguments(t as ts.TypeReference)[0]!, depth + 1);
    const name = t.getSymbol()?.getName() ?? "";
    if (WRAPPERS.has(name) && (t as ts.TypeReference).typeArguments?.length) {
      return plainObject(checker.getTypeArguments(t as ts.TypeReference)[0]!, depth + 1);
    }
    if (t.flags & ts.TypeFlags.Object && checker.getPropertiesOfType(t).length > 0) return t;
    return undefined;
  }

  function collect(type: ts.Type, prefix: string, out: Map<string, string>, depth: number): void {
    for (const property of checker.getPropertiesOfType(type)) {
      const key = prefix ? `${prefix}.${property.getName()}` : property.getName();
      const text = doc(property);
      if (text) out.set(key, text);
      const decl = property.valueDeclaration ?? property.declarations?.[0];
      if (!decl) continue;
      const inner = plainObject(checker.getTypeOfSymbolAtLocation(property, decl), 0);
      if (inner && depth < 6) collect(inner, key, out, depth + 1);
    }
  }

  return {
    declaration(file, name) {
      const sf = source(file);
      const moduleSymbol = checker.getSymbolAtLocation(sf);
      const symbol = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.getName() === name);
      if (!symbol) throw new Error(`${file} exports no ${name}`);
      const properties = new Map<string, string>();
      const decl = symbol.declarations?.[0];
      if (decl && (ts.isInterfaceDeclaration(decl) || ts.isClassDeclaration(decl) || ts.isTypeAliasDeclaration(decl))) {
        collect(checker.getDeclaredTypeOfSymbol(symbol), "", properties, 0);
      }
      return { description: doc(symbol), properties };
    },
    header(file) {
      const sf = source(file);
      const first = sf.statements[0];
      if (!first) return "";
      const jsdoc = ts.getJSDocCommentsAndTags(first).find(ts.isJSDoc) ?? (first as unknown as { jsDoc?: ts.JSDoc[] }).jsDoc?.[0];
      const comment = jsdoc?.comment;
      return unwrap(typeof comment === "string" ? comment : (ts.getTextOfJSDocComment(comment) ?? ""));
    },
  };
}
