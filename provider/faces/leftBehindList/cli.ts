#!/usr/bin/env node
/**
 * `adplatform-left-behind` (package.json `bin`): lists the objects an account's stacks left on the
 * platform (provider/resources/journal/store/leftBehindList.ts), and marks one cleaned up. The places
 * and the account come from the environment as for the provider, never from a flag, which `ps` would
 * show. Bad input gets one line, exit 1, and changes nothing.
 */
import { userInfo } from "node:os";
import { resolveAccount } from "../../client";
import { resolveSettings } from "../../configuration";
import { closeRedisConnections, setFallbackWarningSink } from "../../infrastructure";
import { journalAccount, type KnownStack, leftBehindPlaces, readLeftBehind } from "../../resources";
import { objectsNamed, parseListArgs, renderList, selectedObjects, selectedStacks } from "./listing";

const COMMAND = "adplatform-left-behind";

const USAGE = `Usage: ${COMMAND} [--stack <stack>] [--all] [--json]
       ${COMMAND} --cleaned <id> [--kind <Kind>] [--stack <stack>]

Lists the objects this account's stacks left on the platform: the API deletes nothing, so every
replacement, destroy, or ambiguous create resolved with createAgain leaves an object live there.
Each row names the stack, kind, id, name, the change that left it and when.

  --stack <stack>  one stack: its name, <project>/<name> or <org>/<project>/<name>
  --all            also the objects marked cleaned up
  --json           a JSON array, for scripts
  --cleaned <id>   marks the object with this id (or ambiguous record id) cleaned up, once it is
                   dealt with on the platform; it is kept, and listed again with --all
  --kind <Kind>    with --cleaned, when objects of two kinds have the id

The list is where the provider keeps it: ADPLATFORM_JOURNAL_DIR (default ~/.pulumi/adplatform/
create-journal) and, when set, the Redis at ADPLATFORM_LIMITS_URL; the account is the one of
ADPLATFORM_BASE_URL and ADPLATFORM_TOKEN. Guide: docs/guarantees.md in the package.`;

/** Returns the exit code; every refusal is one line to `err`. */
export async function leftBehindCommand(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  out: (text: string) => void,
  err: (text: string) => void,
  now: number = Date.now(),
): Promise<number> {
  const fail = (line: string) => {
    err(`${COMMAND}: ${line}\n`);
    return 1;
  };
  if (args.includes("--help")) {
    out(`${USAGE}\n`);
    return 0;
  }
  const request = parseListArgs(args);
  if ("usage" in request) return fail(`${request.usage} (--help shows the usage)`);
  const settings = resolveSettings([], env);
  if (settings.token === undefined)
    return fail("set ADPLATFORM_TOKEN (and ADPLATFORM_BASE_URL) to the account's: the list is kept per account");
  let account: string;
  try {
    account = journalAccount(resolveAccount({ baseUrl: settings.baseUrl, token: settings.token }).key);
  } catch (error) {
    return fail((error as Error).message.split("\n")[0]!);
  }
  const places = leftBehindPlaces(settings);
  const reading = await readLeftBehind(places);
  if ("unreadable" in reading) return fail(`cannot read the list at ${reading.unreadable.where}: ${reading.unreadable.reason}`);

  // A stack is known once it ran with this list, or left something in it.
  const known = new Map<string, KnownStack>();
  for (const stack of [...reading.stacks, ...reading.objects]) {
    const { account: owner, project, stack: name } = stack;
    known.set(JSON.stringify([owner, project, name]), { account: owner, project, stack: name });
  }
  const stacks = selectedStacks([...known.values()], account, request.stack);
  if (request.stack !== undefined && stacks.length === 0) {
    const names = selectedStacks([...known.values()], account, undefined).map((s) => `${s.project}/${s.stack}`);
    return fail(
      `no stack ${JSON.stringify(request.stack)} of this account ran with the list at ${places.map((p) => p.where).join(" and ")} ` +
        `(known: ${names.length === 0 ? "none" : names.sort().join(", ")}); nothing changed`,
    );
  }
  const scope = request.stack === undefined ? "this account's stacks" : `stack ${request.stack}`;

  if (request.cleaned !== undefined) {
    const named = objectsNamed(selectedObjects(reading.objects, stacks, true), request.cleaned, request.kind);
    if (named.length === 0) return fail(`no object ${JSON.stringify(request.cleaned)} is listed for ${scope}; nothing changed`);
    if (named.length > 1)
      return fail(
        `${request.cleaned} names ${named.length} objects (${named.map((o) => `${o.kind} of ${o.project}/${o.stack}`).join(", ")}): give --kind or --stack; nothing changed`,
      );
    const object = named[0]!;
    const label = `${object.kind} ${object.id ?? `of ambiguous create ${object.record}`}${object.name === undefined ? "" : ` ${JSON.stringify(object.name)}`}`;
    if (object.cleanedUpAt !== undefined) {
      out(`${label} was marked cleaned up already (${new Date(object.cleanedUpAt).toISOString()}); nothing changed\n`);
      return 0;
    }
    const marked = { ...object, cleanedUpAt: now, cleanedUpBy: userInfo().username };
    for (const place of places) {
      try {
        await place.put(marked);
      } catch (error) {
        return fail(`cannot write the list at ${place.where}: ${(error as Error).message}`);
      }
    }
    out(`marked ${label} of stack ${object.project}/${object.stack} cleaned up\n`);
    return 0;
  }

  const objects = selectedObjects(reading.objects, stacks, request.all);
  const shown = objects.map(({ format: _format, account: _account, ...rest }) => rest);
  const where = places.map((place) => place.where);
  out(request.json ? `${JSON.stringify(shown, null, 2)}\n` : renderList(objects, where, scope));
  return 0;
}

if (require.main === module) {
  // A place that cannot be used is this command's one line (`cannot read the list at ...`), not a warning.
  setFallbackWarningSink(() => undefined);
  const writeTo = (stream: NodeJS.WriteStream) => (text: string) => void stream.write(text);
  leftBehindCommand(process.argv.slice(2), process.env, writeTo(process.stdout), writeTo(process.stderr)).then(
    (code) => {
      closeRedisConnections();
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${COMMAND}: ${(error as Error).message.split("\n")[0]}\n`);
      process.exit(1);
    },
  );
}
