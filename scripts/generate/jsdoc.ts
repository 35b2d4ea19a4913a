/**
 * JSDoc blocks of the generated SDK files (`resourceSdk.ts`, `dataSourceSdk.ts`): descriptions
 * written as markdown in the definitions, wrapped to the width of the hand-written source, so that
 * what a program's editor shows reads the same whichever file it comes from.
 */

/** Comment lines wrap here (the source's width, narrower than prettier's for code). */
export const COMMENT_WIDTH = 104;

/**
 * `text` as words filling lines of `width`: paragraphs (blank lines) kept, a single line break read
 * as a space, as markdown reads it. A code span (`import: "<group id>"`) is one word: a line break
 * inside it would show in the editor.
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const [i, paragraph] of text.split(/\n\s*\n/).entries()) {
    if (i > 0) lines.push("");
    let line = "";
    for (const word of paragraph.match(/(?:`[^`]*`|\S)+/g) ?? []) {
      if (line !== "" && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line === "" ? word : `${line} ${word}`;
    }
    lines.push(line);
  }
  return lines;
}

/** The width of a comment line's text at `indent` (after ` * `). */
export const textWidth = (indent: string) => COMMENT_WIDTH - indent.length - 3;

/**
 * Lines (already wrapped; "" for a blank one) as a JSDoc block at `indent`: one line when there is
 * one and it fits. A `*\/` in the text is escaped so it cannot end the comment.
 */
export function jsdocLines(lines: readonly string[], indent = ""): string {
  const safe = lines.map((line) => line.replace(/\*\//g, "*\\/"));
  if (safe.length === 1 && indent.length + safe[0]!.length + 7 <= COMMENT_WIDTH) return `${indent}/** ${safe[0]} */\n`;
  return `${indent}/**\n${safe.map((line) => (line === "" ? `${indent} *` : `${indent} * ${line}`)).join("\n")}\n${indent} */\n`;
}

/**
 * `text` as a JSDoc block at `indent`, then tags (`@default`, `@deprecated`, `@param`) whose
 * continuation lines are indented further.
 */
export function jsdoc(text: string, options: { indent?: string; tags?: readonly string[] } = {}): string {
  const { indent = "", tags = [] } = options;
  const width = textWidth(indent);
  const body = text === "" ? [] : wrap(text, width);
  const tagLines = tags.flatMap((tag) => wrap(tag, width - 2).map((line, i) => (i === 0 ? line : `  ${line}`)));
  return jsdocLines([...body, ...tagLines], indent);
}
