// The checks that need no sample (server/src/run/checks, docs/run-time-checks.md) as editor notices:
// ranges, related places and the data their quick fix reads. Only a document the runtime accepts is
// checked: a run-time failure means nothing in a document that never starts.
import type { DiagnosticRelatedInformation, Range } from "vscode-languageserver-types";
import { pathOfSegments, pathString, valueAt } from "../lwir/path";
import type { PathSegment } from "../lwir/types";
import { ITEM_KEY_NOT_STRING, LOOP_READ_BEFORE_RUN, runChecks, type RunNotice } from "../run/checks";
import { declaredSchemaAt } from "./typeChecks";
import type { Analysis } from "./analysis";
import type { LwirDiagnosticData } from "./diagnostics";
import { replaceInString } from "./edits";
import { spanInString } from "./stringSource";
import type { Fix } from "./codeActions";

export interface PlacedRunNotice {
  code: string;
  message: string;
  range: Range;
  data: LwirDiagnosticData;
  related: Array<{ range: Range; message: string }>;
}

const cache = new WeakMap<Analysis, PlacedRunNotice[]>();

/** The run-time notices of a valid document, placed in its text (cached per analysis). */
export function runNotices(analysis: Analysis): PlacedRunNotice[] {
  let out = cache.get(analysis);
  if (!out) {
    out = [];
    try {
      if (analysis.valid) out = runChecks(analysis.document.value, (segments, node) => declaredSchemaAt(analysis, segments, node)).map((n) => place(analysis, n));
    } catch {
      // a convenience: an odd document must not cost the other diagnostics
      out = [];
    }
    cache.set(analysis, out);
  }
  return out;
}

/** Related information of a notice, for clients that show it. */
export function relatedOf(notice: PlacedRunNotice, uri: string): DiagnosticRelatedInformation[] {
  return notice.related.map((r) => ({ location: { uri, range: r.range }, message: r.message }));
}

function place(analysis: Analysis, n: RunNotice): PlacedRunNotice {
  const doc = analysis.document;
  const data: LwirDiagnosticData = { code: n.code, path: pathString(pathOfSegments(n.segments)), segments: n.segments };
  let range = nodeRange(analysis, n.segments, n.onKey === true);
  if (n.start !== undefined && n.end !== undefined) {
    const value = valueAt(doc.value, n.segments) as string;
    const span = spanInString(doc, n.segments, value, n.start, n.end);
    if (span) range = { start: doc.positionAt(span[0]), end: doc.positionAt(span[1]) };
    data.typed = { valueStart: n.start, valueEnd: n.end, ...(span ? { start: span[0], end: span[1], range } : {}) };
    if (n.replace) data.runFix = n.replace;
  }
  return { code: n.code, message: n.message, range, data, related: (n.related ?? []).map((r) => ({ range: nodeRange(analysis, r.segments), message: r.message })) };
}

/** The range of a node: its key's when the notice is about the key, else its value's. */
function nodeRange(analysis: Analysis, segments: PathSegment[], onKey = false): Range {
  const doc = analysis.document;
  const loc = doc.locate(segments);
  if (!loc) return doc.findingRange(segments);
  return onKey && loc.keyStart !== undefined && loc.keyEnd !== undefined ? doc.rangeAt(loc.keyStart, loc.keyEnd) : doc.rangeAt(loc.valueStart, loc.valueEnd);
}

/**
 * The replacement a notice carries: "Read steps.X.lastOutput… through coalesce" on
 * lwir.loop_read_before_run (the read becomes `coalesce(READ, "")`, "" on the first visit, runtime
 * semantics 5.2, 6.5) and "Use json(item.id) as the key" on lwir.item_key_not_string (a number as text).
 */
export function replacementFixes(analysis: Analysis, data: LwirDiagnosticData): Fix[] {
  const fix = data.runFix as RunNotice["replace"] | undefined;
  const typed = data.typed;
  if ((data.code !== LOOP_READ_BEFORE_RUN && data.code !== ITEM_KEY_NOT_STRING) || !fix || !typed) return [];
  const doc = analysis.document;
  const value = valueAt(doc.value, data.segments);
  if (typeof value !== "string" || value.slice(typed.valueStart, typed.valueEnd) !== fix.text) return [];
  // only a notice the current analysis still gives: a stale diagnostic must not edit what is there now
  const still = runNotices(analysis).some((n) => n.code === data.code && n.data.typed?.valueStart === typed.valueStart && n.data.path === data.path);
  if (!still) return [];
  const source = typed.start !== undefined && typed.end !== undefined ? { start: typed.start, end: typed.end } : undefined;
  const edits = replaceInString(doc, data.segments, typed.valueStart, typed.valueEnd, fix.replacement, source);
  return edits && edits.length > 0 ? [{ title: fix.title, edits }] : [];
}
