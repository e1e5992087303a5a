// A document in which nothing has been written yet: where the editor offers "New workflow" (the
// `lwir.empty_document` notice, its quick fix, and first in completion) instead of the errors the runtime
// gives it. Besides white space, that is what an editor leaves after the first keys of a new file: `{}`
// in JSON (`{` auto-closed, maybe with Enter between), `---` or `{}` in YAML, and comments. The CLI is not
// concerned: it reports the runtime's findings for such a file (docs/rules/lwir.empty_document.md).
import type { Position, Range } from "vscode-languageserver-types";

const JSON_COMMENT = /\/\/[^\r\n]*|\/\*[\s\S]*?\*\//g;
/** A YAML line kept when a workflow replaces the document: blank, a comment, or a document start marker. */
const YAML_KEPT = /^[ \t]*(?:---[ \t]*)?(?:#.*)?$/;
/** A YAML line holding an empty flow mapping (the one `{}` a YAML document may hold and still be empty). */
const YAML_BRACES = /^[ \t]*\{[ \t]*\}[ \t]*(?:#.*)?$/;

/** The lines of `text` with their offsets (line break excluded); a text ending with a line break ends with an empty line. */
function lines(text: string): Array<{ start: number; end: number; text: string }> {
  const out: Array<{ start: number; end: number; text: string }> = [];
  const breaks = /\r\n|\r|\n/g;
  let start = 0;
  for (const m of text.matchAll(breaks)) {
    out.push({ start, end: m.index!, text: text.slice(start, m.index!) });
    start = m.index! + m[0].length;
  }
  out.push({ start, end: text.length, text: text.slice(start) });
  return out;
}

/**
 * Nothing written yet: white space; in JSON `{}` with white space and comments around or inside; in
 * YAML comments, `---` lines and at most one `{}` line.
 */
export function isEmptyText(text: string, format: "json" | "yaml"): boolean {
  if (text.trim() === "") return true;
  // (the first tests are cheap: most documents fail them at their first characters)
  if (format === "json") {
    if (!/^\s*[{/]/.test(text) || text.length > 4096) return false;
    const bare = text.replace(JSON_COMMENT, "").replace(/\s+/g, "");
    return bare === "{}";
  }
  if (!/^\s*[#{-]/.test(text) || text.length > 4096) return false;
  let braces = 0;
  for (const line of lines(text)) {
    if (YAML_KEPT.test(line.text)) continue;
    if (YAML_BRACES.test(line.text) && ++braces === 1) continue;
    return false;
  }
  return true;
}

/** One edit of the text, in offsets. */
export interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
}

/**
 * The edits that make an empty document hold `workflow` (text ending with a line break): in JSON it
 * replaces everything; in YAML comments and `---` lines stay above it and a `{}` goes.
 */
export function newWorkflowEdits(text: string, format: "json" | "yaml", workflow: string): OffsetEdit[] {
  const crlf = text.includes("\r\n");
  const body = crlf ? workflow.replace(/\r?\n/g, "\r\n") : workflow;
  if (format === "json" || text.trim() === "") return [{ start: 0, end: text.length, newText: body }];
  const kept = lines(text).filter((l) => YAML_KEPT.test(l.text) && l.text.trim() !== "").map((l) => l.text);
  const eol = crlf ? "\r\n" : "\n";
  return [{ start: 0, end: text.length, newText: kept.map((l) => l + eol).join("") + body }];
}

/**
 * Where the "New workflow" completion goes when asked for at `offset`: the main edit (the cursor's
 * whole line, so the editor's range is on one line and holds the cursor) and the edits of the rest of the
 * document (JSON: everything else; YAML: a `{}` line elsewhere). Undefined where it is not offered: the
 * cursor on a YAML comment or `---` line.
 */
export function newWorkflowCompletionEdits(
  text: string, format: "json" | "yaml", offset: number, positionAt: (offset: number) => Position,
): { main: Range; others: Array<{ range: Range; newText: string }> } | undefined {
  const all = lines(text);
  const line = all.find((l) => offset >= l.start && offset <= l.end) ?? all[all.length - 1];
  if (format === "yaml" && line.text.trim() !== "" && !YAML_BRACES.test(line.text)) return undefined;
  const range = (start: number, end: number): Range => ({ start: positionAt(start), end: positionAt(end) });
  const others: Array<{ range: Range; newText: string }> = [];
  if (format === "json") {
    if (line.start > 0) others.push({ range: range(0, line.start), newText: "" });
    if (line.end < text.length) others.push({ range: range(line.end, text.length), newText: "" });
  } else {
    for (const l of all) if (l !== line && YAML_BRACES.test(l.text)) others.push({ range: range(l.start, l.end), newText: "" });
  }
  return { main: range(line.start, line.end), others };
}
