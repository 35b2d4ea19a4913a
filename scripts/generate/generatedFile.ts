/**
 * What a generator produces: files derived from the definitions, checked in, and compared with
 * their derivation by tests/scripts/generate/generators.test.ts, so an edit to a definition that
 * was not followed by `npm run generate` fails the tests.
 */

/** One derived file: its repository-relative path and its whole content. */
export interface GeneratedFile {
  readonly path: string;
  readonly content: string;
}

/** One kind of derived output. */
export interface Generator {
  /** What it writes, for messages (`"native schema"`). */
  readonly name: string;
  /**
   * Repository-relative directories every file of which this generator writes: a file there that
   * the generator no longer produces (a removed data source's page) is stale too, and is deleted.
   */
  readonly ownedDirectories?: readonly string[];
  files(): Promise<readonly GeneratedFile[]>;
}
