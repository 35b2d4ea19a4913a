/** `adplatform-left-behind`'s arguments, which objects a request selects, and how they are shown. */
import type { KnownStack, LeftBehindObject } from "../../resources";
import { isResourceKind, RESOURCE_KINDS, type ResourceKind } from "../../resources";

export interface ListRequest {
  /** One stack (`dev`, `app/dev` or `org/app/dev`), else every stack of the account. */
  readonly stack?: string;
  readonly json: boolean;
  readonly all: boolean;
  /** The id (or ambiguous record id) to mark cleaned up, and its kind when two kinds have it. */
  readonly cleaned?: string;
  readonly kind?: ResourceKind;
}

const FLAGS_WITH_VALUE = ["--stack", "--cleaned", "--kind"];

export function parseListArgs(args: readonly string[]): ListRequest | { readonly usage: string } {
  const values: Record<string, string> = {};
  const switches = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!;
    if (flag === "--json" || flag === "--all") {
      switches.add(flag);
      continue;
    }
    if (!FLAGS_WITH_VALUE.includes(flag)) return { usage: `unknown argument ${JSON.stringify(flag)}` };
    const value = args[i + 1];
    if (value === undefined || value.startsWith("--") || value.trim() === "") return { usage: `${flag} needs a value` };
    values[flag] = value.trim();
    i += 1;
  }
  const kind = values["--kind"];
  if (kind !== undefined && !isResourceKind(kind)) return { usage: `--kind ${JSON.stringify(kind)}: one of ${RESOURCE_KINDS.join(", ")}` };
  if (kind !== undefined && values["--cleaned"] === undefined) return { usage: "--kind goes with --cleaned <id>" };
  return {
    json: switches.has("--json"),
    all: switches.has("--all"),
    ...(values["--stack"] === undefined ? {} : { stack: values["--stack"] }),
    ...(values["--cleaned"] === undefined ? {} : { cleaned: values["--cleaned"] }),
    ...(kind === undefined ? {} : { kind }),
  };
}

/** Whether `wanted` (`<name>`, `<project>/<name>`, `<org>/<project>/<name>`) names `candidate`; URNs carry no organization. */
export function namesStack(wanted: string, candidate: Pick<KnownStack, "project" | "stack">): boolean {
  const [stack, project] = wanted.split("/").reverse();
  return stack === candidate.stack && (project === undefined || project === candidate.project);
}

/** The account's stacks `wanted` names (all when none). */
export function selectedStacks(stacks: readonly KnownStack[], account: string, wanted: string | undefined): KnownStack[] {
  return stacks.filter((stack) => stack.account === account && (wanted === undefined || namesStack(wanted, stack)));
}

/** The objects of `stacks`, without those marked cleaned up unless `all`. */
export function selectedObjects(objects: readonly LeftBehindObject[], stacks: readonly KnownStack[], all: boolean): LeftBehindObject[] {
  return objects.filter(
    (object) =>
      (all || object.cleanedUpAt === undefined) &&
      stacks.some((stack) => stack.account === object.account && stack.project === object.project && stack.stack === object.stack),
  );
}

export function objectsNamed(objects: readonly LeftBehindObject[], id: string, kind?: ResourceKind): LeftBehindObject[] {
  return objects.filter((object) => (object.id === id || object.record === id) && (kind === undefined || object.kind === kind));
}

const time = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

export function changeOf(object: LeftBehindObject): string {
  if (object.change === "replaced") return `replaced by ${object.replacedBy}`;
  if (object.change === "createdAgain") return `created again after ambiguous create ${object.record}; it may exist`;
  return "deleted from the stack";
}

/** One line per object, under a header naming where it was read. */
export function renderList(objects: readonly LeftBehindObject[], where: readonly string[], scope: string): string {
  const header = `${objects.length} object(s) ${scope} left on the platform (read from ${where.join(" and ")})`;
  if (objects.length === 0) return `${header}.\n`;
  const rows = objects.map((object) => [
    `${object.project}/${object.stack}`,
    object.kind,
    object.id ?? "(unknown id)",
    object.name === undefined ? "" : JSON.stringify(object.name),
    changeOf(object),
    time(object.leftAt),
    object.cleanedUpAt === undefined
      ? ""
      : `cleaned up ${time(object.cleanedUpAt)}${object.cleanedUpBy ? ` by ${object.cleanedUpBy}` : ""}`,
  ]);
  const table = [["STACK", "KIND", "ID", "NAME", "CHANGE", "LEFT AT", ""], ...rows];
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  const lines = table.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join("  ")
      .trimEnd(),
  );
  return `${header}:\n${lines.join("\n")}\n`;
}
