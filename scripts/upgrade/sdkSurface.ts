/**
 * The dynamic SDK's public surface, read from the declarations the build emits (bin/sdk/index.d.ts
 * and what it re-exports) with the TypeScript compiler: every export, and every declaration of ours
 * an export's types name, with its members and signatures as declared (types as written, comments
 * dropped). `tests/upgrade/sdk-surface.json` is this surface of the current build
 * (`npm run upgrade:surface`; a test fails when it is stale), and each release keeps a copy
 * (tests/upgrade/releases/<version>/) that `npm run upgrade:check` compares it with.
 *
 * Why our own reader and not API Extractor: its report is text made for reading, not for rules, and
 * the rules here (compatibility.ts) need to know which interfaces a program passes in (inputs) and
 * which it reads (outputs), which this reader records.
 */
import * as path from "node:path";
import ts from "typescript";

/** One call signature: its parameters as `name: type` (`name?: type` when optional) and its return type. */
export interface SurfaceSignature {
  readonly parameters: readonly string[];
  readonly returns: string;
}

/** One declaration of the surface. */
export interface SurfaceEntry {
  readonly kind: "class" | "interface" | "function" | "type" | "variable";
  /** Not exported itself, but named by an export's types. */
  readonly internal?: true;
  /** An interface or type alias a program passes in (what parameters name, and what those name). */
  readonly input?: true;
  /** Properties and methods by name (`name?` when optional), each with its type as declared. */
  readonly members?: Readonly<Record<string, string>>;
  readonly signatures?: readonly SurfaceSignature[];
  /** A type alias or variable's type; a union alias as its members. */
  readonly type?: string;
  readonly union?: readonly string[];
}

/** Declarations by name. */
export type SdkSurface = Readonly<Record<string, SurfaceEntry>>;

/** A member or parameter key: its name, and whether it is optional. */
export function parseKey(key: string): { name: string; optional: boolean } {
  return key.endsWith("?") ? { name: key.slice(0, -1), optional: true } : { name: key, optional: false };
}

/** A parameter of a signature: name, optional, type. */
export function parseParameter(parameter: string): { name: string; optional: boolean; type: string } {
  const colon = parameter.indexOf(": ");
  return { ...parseKey(parameter.slice(0, colon)), type: parameter.slice(colon + 2) };
}

const printer = ts.createPrinter({ removeComments: true });

/** A type node as written, on one line. */
function text(node: ts.Node | undefined): string {
  if (node === undefined) return "any";
  return printer.printNode(ts.EmitHint.Unspecified, node, node.getSourceFile()).replace(/\s+/g, " ").trim();
}

/** The surface of the declarations `entry` (a .d.ts file) exports. */
export function readSdkSurface(entry: string): SdkSurface {
  const ownRoot = path.dirname(path.dirname(path.resolve(entry))); // bin/: the package's own declarations
  const program = ts.createProgram([entry], { noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (moduleSymbol === undefined) throw new Error(`${entry}: not a module (run npm run build first)`);

  const own = (declaration: ts.Declaration) => path.resolve(declaration.getSourceFile().fileName).startsWith(ownRoot + path.sep);
  const resolve = (symbol: ts.Symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  const ownDeclarations = (symbol: ts.Symbol) => (symbol.declarations ?? []).filter(own);

  /** Our declarations a node's type references name. */
  const referencedIn = (node: ts.Node, found: Map<string, ts.Symbol>): Map<string, ts.Symbol> => {
    if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node)) {
      const target = ts.isTypeReferenceNode(node) ? node.typeName : node.expression;
      const symbol = checker.getSymbolAtLocation(ts.isQualifiedName(target) ? target.right : target);
      const resolved = symbol === undefined ? undefined : resolve(symbol);
      if (resolved !== undefined && ownDeclarations(resolved).length > 0) found.set(resolved.name, resolved);
    }
    if (ts.isTypeQueryNode(node)) {
      // `typeof BID_STRATEGIES`: the constant whose type the union is made of.
      const symbol = checker.getSymbolAtLocation(ts.isQualifiedName(node.exprName) ? node.exprName.right : node.exprName);
      const resolved = symbol === undefined ? undefined : resolve(symbol);
      if (resolved !== undefined && ownDeclarations(resolved).length > 0) found.set(resolved.name, resolved);
    }
    node.forEachChild((child) => void referencedIn(child, found));
    return found;
  };
  const signaturesIn = (declaration: ts.Declaration): ts.SignatureDeclaration[] =>
    ts.isClassDeclaration(declaration) || ts.isInterfaceDeclaration(declaration)
      ? (declaration.members as ts.NodeArray<ts.Node>).filter(
          (m): m is ts.SignatureDeclaration => ts.isConstructorDeclaration(m) || ts.isMethodDeclaration(m) || ts.isMethodSignature(m),
        )
      : ts.isFunctionDeclaration(declaration)
        ? [declaration]
        : [];
  /** What an input declaration passes on as input: its members' types, its heritage, an alias's body. */
  const inputPartsOf = (declaration: ts.Declaration): ts.Node[] =>
    ts.isInterfaceDeclaration(declaration)
      ? [...declaration.members, ...(declaration.heritageClauses ?? [])]
      : ts.isTypeAliasDeclaration(declaration)
        ? [declaration.type]
        : [];

  // Every export, and every declaration of ours the surface's types name.
  const symbols = new Map<string, { symbol: ts.Symbol; internal: boolean }>();
  const pending: [string, ts.Symbol, boolean][] = checker.getExportsOfModule(moduleSymbol).map((s) => [s.name, resolve(s), false]);
  while (pending.length > 0) {
    const [name, symbol, internal] = pending.shift()!;
    if (symbols.has(name) || ownDeclarations(symbol).length === 0) continue;
    symbols.set(name, { symbol, internal });
    for (const declaration of ownDeclarations(symbol)) {
      for (const [refName, ref] of referencedIn(declaration, new Map())) if (!symbols.has(refName)) pending.push([refName, ref, true]);
    }
  }

  // Inputs: what parameters name, and what inputs' members, heritage and bodies name, transitively.
  const inputs = new Set<string>();
  const inputQueue: string[] = [];
  for (const { symbol } of symbols.values()) {
    for (const signature of ownDeclarations(symbol).flatMap(signaturesIn)) {
      for (const parameter of signature.parameters) for (const name of referencedIn(parameter, new Map()).keys()) inputQueue.push(name);
    }
  }
  while (inputQueue.length > 0) {
    const name = inputQueue.shift()!;
    if (inputs.has(name)) continue;
    inputs.add(name);
    const symbol = symbols.get(name)?.symbol;
    for (const part of ownDeclarations(symbol ?? ({} as ts.Symbol)).flatMap(inputPartsOf))
      inputQueue.push(...referencedIn(part, new Map()).keys());
  }

  const signatureOf = (declaration: ts.SignatureDeclaration): SurfaceSignature => ({
    parameters: declaration.parameters.map(
      (p) => `${p.dotDotDotToken ? "..." : ""}${p.name.getText()}${p.questionToken || p.initializer ? "?" : ""}: ${text(p.type)}`,
    ),
    returns: text(declaration.type),
  });

  /** Members declared in our files, those inherited from our own interfaces included. */
  const membersOf = (type: ts.Type): Record<string, string> => {
    const members: Record<string, string> = {};
    for (const property of checker.getPropertiesOfType(type)) {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      if (declaration === undefined || !own(declaration) || property.name === "prototype") continue;
      const modifiers = ts.canHaveModifiers(declaration) ? (ts.getModifiers(declaration) ?? []) : [];
      if (modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword)) continue;
      const has = (kind: ts.SyntaxKind) => modifiers.some((m) => m.kind === kind);
      const prefix = `${has(ts.SyntaxKind.StaticKeyword) ? "static " : ""}${has(ts.SyntaxKind.ReadonlyKeyword) ? "readonly " : ""}`;
      let typeText: string;
      if ((property.declarations?.length ?? 0) > 1) {
        // A member an intersection declares more than once has the type they meet at (`code` of
        // `DataSourceError & { readonly code: "ADP_ERR_NOT_FOUND" }`), not any one written.
        typeText = checker.typeToString(checker.getTypeOfSymbol(property), undefined, ts.TypeFormatFlags.NoTruncation);
      } else if (ts.isMethodDeclaration(declaration) || ts.isMethodSignature(declaration)) {
        const signature = signatureOf(declaration);
        typeText = `(${signature.parameters.join(", ")}) => ${signature.returns}`;
      } else {
        typeText = text((declaration as ts.PropertyDeclaration | ts.PropertySignature).type);
      }
      // The name as written: a symbol-keyed member's own name (`__@custom@512`) changes from build to build.
      const name = ts.getNameOfDeclaration(declaration)?.getText() ?? property.name;
      members[(property.flags & ts.SymbolFlags.Optional) !== 0 ? `${name}?` : name] = prefix + typeText;
    }
    return Object.fromEntries(Object.entries(members).sort(([a], [b]) => a.localeCompare(b)));
  };

  /** A construct signature of a value's type, its rest tuples spread into the parameters they name. */
  const constructSignatureOf = (signature: ts.Signature): SurfaceSignature => ({
    parameters: signature.getParameters().flatMap((parameter) => {
      const declaration = parameter.valueDeclaration;
      if (declaration === undefined || !ts.isParameter(declaration)) return [];
      const type = checker.getTypeOfSymbol(parameter);
      const elements =
        declaration.dotDotDotToken && checker.isTupleType(type)
          ? (type as ts.TupleTypeReference).target.labeledElementDeclarations
          : undefined;
      if (elements === undefined)
        return [`${declaration.name.getText()}${declaration.questionToken ? "?" : ""}: ${text(declaration.type)}`];
      return elements.flatMap((element) =>
        element !== undefined && ts.isNamedTupleMember(element)
          ? [`${element.name.getText()}${element.questionToken ? "?" : ""}: ${text(element.type)}`]
          : [],
      );
    }),
    returns: "any", // as a class's constructor, whose return is not written
  });

  const describe = (symbol: ts.Symbol): Omit<SurfaceEntry, "internal" | "input"> | undefined => {
    const declarations = ownDeclarations(symbol);
    const first = declarations[0];
    if (first === undefined) return undefined;
    // A class is a type and a value constructing it under one name. `class` declares both at once; a
    // type alias beside a constant whose type constructs declares them apart, and reads the same to a
    // program (`new`, `instanceof`, a type annotation).
    const constructs = declarations.some(ts.isVariableDeclaration) ? checker.getTypeOfSymbol(symbol).getConstructSignatures() : [];
    if (ts.isTypeAliasDeclaration(first) && constructs.length > 0)
      return {
        kind: "class",
        members: membersOf(checker.getDeclaredTypeOfSymbol(symbol)),
        signatures: constructs.map(constructSignatureOf),
      };
    if (ts.isClassDeclaration(first)) {
      const members = { ...membersOf(checker.getDeclaredTypeOfSymbol(symbol)), ...membersOf(checker.getTypeOfSymbol(symbol)) };
      const sortedMembers = Object.fromEntries(Object.entries(members).sort(([a], [b]) => a.localeCompare(b)));
      return { kind: "class", members: sortedMembers, signatures: first.members.filter(ts.isConstructorDeclaration).map(signatureOf) };
    }
    if (ts.isInterfaceDeclaration(first)) return { kind: "interface", members: membersOf(checker.getDeclaredTypeOfSymbol(symbol)) };
    if (ts.isFunctionDeclaration(first))
      return { kind: "function", signatures: declarations.filter(ts.isFunctionDeclaration).map(signatureOf) };
    if (ts.isTypeAliasDeclaration(first)) {
      if (ts.isUnionTypeNode(first.type)) return { kind: "type", union: first.type.types.map(text).sort() };
      // An alias computed to a union of literals (`Extract<Codes, ...>`) is its members, as a program sees it.
      const resolved = checker.getDeclaredTypeOfSymbol(symbol);
      if (ts.isTypeReferenceNode(first.type) && resolved.isUnion() && resolved.types.every((member) => member.isLiteral()))
        return { kind: "type", union: resolved.types.map((member) => checker.typeToString(member)).sort() };
      return { kind: "type", type: text(first.type) };
    }
    if (ts.isVariableDeclaration(first)) return { kind: "variable", type: text(first.type) };
    return undefined;
  };

  const surface: Record<string, SurfaceEntry> = {};
  for (const name of [...symbols.keys()].sort()) {
    const { symbol, internal } = symbols.get(name)!;
    const entry = describe(symbol);
    if (entry === undefined) continue;
    const input = inputs.has(name) && (entry.kind === "interface" || entry.kind === "type");
    surface[name] = { ...entry, ...(internal ? { internal: true as const } : {}), ...(input ? { input: true as const } : {}) };
  }
  return surface;
}

/** The surface as the committed file holds it. */
export function surfaceText(surface: SdkSurface): string {
  return `${JSON.stringify(surface, null, 2)}\n`;
}
