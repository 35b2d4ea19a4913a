/**
 * Routes a method and path to a catalog operation by reading the catalog's path templates; no route
 * is written by hand.
 */
import type { OperationSpec } from "../provider/catalog";

/** Outcome of routing one request. */
export type RouteMatch =
  | { kind: "operation"; op: OperationSpec; params: Record<string, string> }
  /** The path is an operation's, the method is not: `allow` lists the methods that are. */
  | { kind: "methodNotAllowed"; allow: string[] }
  /** A path segment is not valid percent-encoding. */
  | { kind: "badPath" }
  | { kind: "notFound" };

interface CompiledRoute {
  readonly op: OperationSpec;
  /** Literal segment, or null for a parameter (named by `op.pathParams` in order). */
  readonly segments: readonly (string | null)[];
}

function compile(op: OperationSpec): CompiledRoute {
  return {
    op,
    segments: op.path
      .slice(1)
      .split("/")
      .map((s) => (s.startsWith("{") ? null : s)),
  };
}

/** Matches `segments` against one route; the raw (still encoded) parameter values, or undefined. */
function matchSegments(route: CompiledRoute, segments: readonly string[]): string[] | undefined {
  if (route.segments.length !== segments.length) return undefined;
  const values: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const literal = route.segments[i];
    if (literal === null) {
      if (segments[i] === "") return undefined;
      values.push(segments[i]);
    } else if (literal !== segments[i]) {
      return undefined;
    }
  }
  return values;
}

/** The catalog's operations as routes. */
export class Router {
  private readonly routes: readonly CompiledRoute[];

  constructor(operations: readonly OperationSpec[]) {
    this.routes = operations.map(compile);
  }

  /** Routes `method` and `pathname` (the URL path without query, still percent-encoded). */
  match(method: string, pathname: string): RouteMatch {
    const segments = pathname.slice(1).split("/");
    const allow: string[] = [];
    for (const route of this.routes) {
      const raw = matchSegments(route, segments);
      if (!raw) continue;
      if (route.op.method !== method) {
        allow.push(route.op.method);
        continue;
      }
      try {
        const params = Object.fromEntries(route.op.pathParams.map((name, i) => [name, decodeURIComponent(raw[i])]));
        return { kind: "operation", op: route.op, params };
      } catch {
        return { kind: "badPath" };
      }
    }
    return allow.length > 0 ? { kind: "methodNotAllowed", allow } : { kind: "notFound" };
  }
}
