/** The JSDoc blocks both SDK generators write. */
import { COMMENT_WIDTH, jsdoc, jsdocLines, wrap } from "../../../scripts/generate/jsdoc";

describe("wrap", () => {
  it("fills lines up to the width and keeps paragraphs", () => {
    expect(wrap("one two three\nfour\n\nfive", 9)).toEqual(["one two", "three", "four", "", "five"]);
  });

  it("never breaks a code span, even one longer than the width", () => {
    expect(wrap('set `import: "<group id>"` here', 10)).toEqual(["set", '`import: "<group id>"`', "here"]);
  });
});

describe("jsdoc", () => {
  it("is one line when the text fits at its indent", () => {
    expect(jsdoc("Name of the modifier.", { indent: "  " })).toBe("  /** Name of the modifier. */\n");
  });

  it("wraps a long text inside the comment width, every line at the indent", () => {
    const text = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    const block = jsdoc(text, { indent: "    " });
    const lines = block.trimEnd().split("\n");
    expect(lines[0]).toBe("    /**");
    expect(lines.at(-1)).toBe("     */");
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(COMMENT_WIDTH);
    expect(
      lines
        .slice(1, -1)
        .map((line) => line.replace(/^ {5}\* /, ""))
        .join(" "),
    ).toBe(text);
  });

  it("indents a tag's continuation lines under the tag", () => {
    const block = jsdoc("", { tags: [`@param opts ${"long ".repeat(30).trim()}`] });
    const lines = block.trimEnd().split("\n").slice(1, -1);
    expect(lines[0]).toMatch(/^ \* @param opts long/);
    expect(lines.slice(1).every((line) => line.startsWith(" *   long"))).toBe(true);
  });

  it("escapes a comment terminator in the text", () => {
    expect(jsdocLines(["a */ b"])).toBe("/** a *\\/ b */\n");
  });
});
