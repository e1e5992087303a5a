// Quick fixes of the type checks (service/typeChecks.ts): "Change "sumary" to "summary"" for a property name the
// schema does not declare when a declared one is one or two edits away, and for a compared literal
// that is close to one of the declared values. Registered as a fix producer in codeActions.ts, so the
// editor and `lwir validate --fix` apply the same edit.
import { checkTemplateString } from "../lwir/expressions";
import { valueAt } from "../lwir/path";
import { analyzeText, type Analysis } from "./analysis";
import type { LwirDiagnosticData } from "./diagnostics";
import { applyEdits, replaceInString, type OffsetEdit } from "./edits";
import { IMPOSSIBLE_COMPARISON, UNKNOWN_PROPERTY, findTypeNotices } from "./typeChecks";

/** A name the dot form of a path can hold (expressions grammar, 5.4). */
const SEGMENT = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** A fix as the code actions module writes them: offset edits into the document's text. */
export interface TypeFix {
  title: string;
  edits: OffsetEdit[];
  preferred?: boolean;
  /** Safe to apply unasked (`lwir validate --fix`): exactly one declared name is close, so nothing is chosen. */
  auto?: boolean;
}

/**
 * The "Change "WORD" to "NAME"" fixes of a `lwir.unknown_property` or `lwir.impossible_comparison` diagnostic's
 * data (from toDiagnostics): one per close declared name, the nearest preferred. Empty when the data is
 * not current (the text changed since) or no suggestion keeps the template accepted. This has the shape
 * of a fix producer (codeActions.ts), so the editor and `lwir validate --fix` make the same edit.
 */
export function didYouMeanPropertyFixes(analysis: Analysis, data: LwirDiagnosticData): TypeFix[] {
  if (data.code !== UNKNOWN_PROPERTY && data.code !== IMPOSSIBLE_COMPARISON) return [];
  const typed = data.typed;
  if (!typed || typed.word === undefined || !typed.suggestions || typed.suggestions.length === 0) return [];
  const doc = analysis.document;
  const value = valueAt(doc.value, data.segments);
  if (typeof value !== "string" || value.slice(typed.valueStart, typed.valueEnd) !== typed.word) return [];
  // Only a notice the current analysis still gives: a stale diagnostic must not edit what is there now.
  const still = findTypeNotices(analysis).some((n) => n.code === data.code && n.start === typed.valueStart && sameSegments(n.segments, data.segments));
  if (!still) return [];
  const fixes: TypeFix[] = [];
  for (const name of typed.suggestions) {
    if (data.code === UNKNOWN_PROPERTY && !SEGMENT.test(name)) continue;
    if (data.code === IMPOSSIBLE_COMPARISON && /["'\\]/.test(name)) continue;
    const changed = value.slice(0, typed.valueStart) + name + value.slice(typed.valueEnd);
    // A name the safety screen refuses (`new`, `global`, …) would turn a warning into a finding.
    if (checkTemplateString(changed, true).status !== "ok") continue;
    const source = typed.start !== undefined && typed.end !== undefined ? { start: typed.start, end: typed.end } : undefined;
    const edits = replaceInString(doc, data.segments, typed.valueStart, typed.valueEnd, name, source);
    if (!edits || edits.length === 0) continue;
    fixes.push({ title: `Change "${typed.word}" to "${name}"`, edits, ...(fixes.length === 0 ? { preferred: true } : {}) });
  }
  // Applied unasked only when nothing is chosen (one close name) and the changed path then resolves: a
  // name that is close but leads nowhere (`input.candidate.id` → `candidates.id`, an array) is a guess.
  if (fixes.length === 1 && typed.suggestions.length === 1) {
    const after = analyzeText(applyEdits(doc.text, fixes[0].edits), doc.format);
    if (after.document.parseErrors.length === 0 && !findTypeNotices(after).some((n) => sameSegments(n.segments, data.segments))) fixes[0].auto = true;
  }
  return fixes;
}

function sameSegments(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}
