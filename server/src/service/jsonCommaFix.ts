// "Insert the missing comma": the fix of a JSON syntax error where a comma is expected between two
// members or elements (jsonc-parser's CommaExpected, reported on the token after the gap). The comma goes
// right after the value before it, so the line break and indentation stay as written. Offered only when
// the text then has fewer syntax errors and none at that place: the one edit the error names, so
// `lwir validate --fix` and "LWIR: Fix all in file" apply it too (autofix.ts).
import { parseJson } from "../document/json";
import type { LwirDocument, ParseProblem } from "../document/types";
import type { Fix } from "./codeActions";
import { applyEdits, type OffsetEdit } from "./edits";

export const MISSING_COMMA = "CommaExpected";

/** The missing-comma fixes of a JSON document (of the errors `wanted` picks), each with the syntax error it fixes. */
export function missingCommaFixes(doc: Pick<LwirDocument, "format" | "text" | "parseErrors" | "offsetAt">,
  wanted: (problem: ParseProblem) => boolean = () => true): Array<{ problem: ParseProblem; fix: Fix }> {
  if (doc.format !== "json") return [];
  const out: Array<{ problem: ParseProblem; fix: Fix }> = [];
  for (const problem of doc.parseErrors) {
    // (each candidate costs a parse of the text: only the errors asked about)
    if (problem.code !== MISSING_COMMA || !wanted(problem)) continue;
    const at = doc.offsetAt(problem.range.start);
    const edit = commaEdit(doc.text, at);
    if (!edit) continue;
    const after = parseJson(applyEdits(doc.text, [edit]));
    const errors = after.parseErrors;
    // Fewer errors, or (the parser reports the first one) the first one now further on; never the same
    // error again (the token it was on moved one character right).
    if (errors.some((p) => p.code === MISSING_COMMA && after.offsetAt(p.range.start) === at + 1)) continue;
    if (errors.length >= doc.parseErrors.length && !errors.every((p) => after.offsetAt(p.range.start) > at + 1)) continue;
    out.push({ problem, fix: { title: "Insert the missing comma", edits: [edit], preferred: true, auto: true } });
  }
  return out;
}

/** A comma right after the last non-blank character before the token at `offset` (a value's end). */
function commaEdit(text: string, offset: number): OffsetEdit | undefined {
  let i = offset;
  while (i > 0 && /[ \t\r\n]/.test(text[i - 1])) i--;
  if (i === 0) return undefined;
  const before = text[i - 1];
  // After a value: a string, a number, a literal, or a closed object or array.
  if (!/["\]}0-9a-z]/.test(before)) return undefined;
  return { start: i, end: i, newText: "," };
}
