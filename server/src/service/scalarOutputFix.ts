// "Use steps.classify.output": the fix of `lwir.property_of_scalar_output` (`.label`, or any property,
// read from a step whose output is text or one of its choice values). The value itself is what the
// step gives, so the property and whatever follows it in the path are removed. One fix, nothing to
// choose: `lwir validate --fix --fix-type lint` applies it too.
import { valueAt } from "../lwir/path";
import type { Analysis } from "./analysis";
import type { Fix } from "./codeActions";
import type { LwirDiagnosticData } from "./diagnostics";
import { replaceInString } from "./edits";
import { spanInString } from "./stringSource";
import { PROPERTY_OF_SCALAR_OUTPUT, findTypeNotices } from "./typeChecks";

export function scalarOutputFixes(analysis: Analysis, data: LwirDiagnosticData): Fix[] {
  if (data.code !== PROPERTY_OF_SCALAR_OUTPUT || !data.typed) return [];
  const doc = analysis.document;
  const start = data.typed.valueStart;
  // The notice as the current text gives it (a stale diagnostic edits nothing).
  const notice = findTypeNotices(analysis).find((n) => n.code === PROPERTY_OF_SCALAR_OUTPUT && n.start === start
    && n.segments.length === data.segments.length && n.segments.every((s, i) => s === data.segments[i]));
  const rest = notice?.rest;
  const value = valueAt(doc.value, data.segments);
  if (!rest || typeof value !== "string") return [];
  const at = spanInString(doc, data.segments, value, rest.start, rest.end);
  const edits = replaceInString(doc, data.segments, rest.start, rest.end, "", at ? { start: at[0], end: at[1] } : undefined);
  if (!edits || edits.length === 0) return [];
  return [{ title: `Use ${rest.base}`, edits, preferred: true, auto: true }];
}
