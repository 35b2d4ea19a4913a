/** Where the journal lives (`provider/journal/journalDir.ts`): config, environment, Pulumi home. */
import * as os from "node:os";
import * as path from "node:path";
import { configureJournalDir, journalDir } from "../../../provider/journal";

afterEach(() => configureJournalDir(undefined));

it("uses the stack config first, then ADPLATFORM_JOURNAL_DIR, then the Pulumi home", () => {
  const env = { ADPLATFORM_JOURNAL_DIR: "/from/env", PULUMI_HOME: "/pulumi/home" };
  configureJournalDir("/from/config");
  expect(journalDir(env)).toBe("/from/config");
  configureJournalDir("  ");
  expect(journalDir(env)).toBe("/from/env");
  expect(journalDir({ PULUMI_HOME: "/pulumi/home" })).toBe(path.join("/pulumi/home", "adplatform", "create-journal"));
  expect(journalDir({})).toBe(path.join(os.homedir(), ".pulumi", "adplatform", "create-journal"));
});
