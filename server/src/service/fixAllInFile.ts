// "Fix all in file": the code action of kind `source.fixAll.lwir` behind the command "LWIR: Fix all in
// file" and `editor.codeActionsOnSave`. It is `lwir validate --fix` on the document's text (autofix.ts:
// the same fixes, those that need no choice, applied in rounds), sent back as one edit so the editor
// undoes it in one step. Both kinds of fixes: the runtime's problems and our own notices that are on
// (`--fix-type all`); a notice turned off in lwir.lint.rules is left alone, as the command line does.
import type { Analysis } from "./analysis";
import { autofixText, ALL_FIX_KINDS } from "./autofix";
import type { Fix } from "./codeActions";
import type { OffsetEdit } from "./edits";
import type { RuleLevels } from "./rules";
import { isEmptyDocument } from "./diagnostics";

export const FIX_ALL_IN_FILE_TITLE = "Fix all in file";

const cache = new WeakMap<Analysis, Map<string, Fix | undefined>>();

/** The fix, or undefined when nothing in the document has a fix that needs no choice. */
export function fixAllInFile(analysis: Analysis, rules?: RuleLevels): Fix | undefined {
  const doc = analysis.document;
  if (doc.tooDeep || isEmptyDocument(doc)) return undefined;
  const key = JSON.stringify(rules ?? {});
  let byRules = cache.get(analysis);
  if (byRules?.has(key)) return byRules.get(key);
  const result = autofixText(doc.text, doc.format, { kinds: ALL_FIX_KINDS, ...(rules ? { rules } : {}) });
  const fix = result.fixed > 0 && result.text !== doc.text ? { title: FIX_ALL_IN_FILE_TITLE, edits: [changedSpan(doc.text, result.text)] } : undefined;
  if (!byRules) cache.set(analysis, (byRules = new Map()));
  byRules.set(key, fix);
  return fix;
}

/** One edit from `before` to `after`: the span between their common start and common end. */
export function changedSpan(before: string, after: string): OffsetEdit {
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  return { start, end: before.length - end, newText: after.slice(start, after.length - end) };
}
