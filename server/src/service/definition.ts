// Go to definition and find references, for step ids and for models and tools.
// - From any occurrence of a step id (needs entry, decision target, fanIn.outputStep, `steps.X`) to the
//   step's `id`; references list every occurrence of that step (scopes respected, see references.ts).
// - From `with.model`, `with.tool` or `onFailure.fixer.model` to its entry in `permissions`; references
//   list the entries (the declarations) and every use.
import { DocumentHighlightKind, type DocumentHighlight, type Location, type Position, type Range } from "vscode-languageserver-types";
import type { LwirDocument } from "../document/types";
import type { PathSegment } from "../lwir/types";
import type { Analysis } from "./analysis";
import {
  declarationOf,
  nameOccurrenceAt,
  navigationIndex,
  sameName,
  sameStep,
  stepOccurrenceAt,
  type NameOccurrence,
  type StepOccurrence,
} from "./references";

/** Where the thing under the cursor is declared; null when the cursor is on no step id, model or tool (or it names nothing). */
export function provideDefinition(analysis: Analysis, position: Position, uri: string): Location[] | null {
  const index = navigationIndex(analysis);
  if (!index) return null;
  const doc = analysis.document;
  const offset = doc.offsetAt(position);
  const step = stepOccurrenceAt(index, offset);
  if (step) {
    if (!step.target) return null;
    const decl = declarationOf(index, step.target);
    const range = decl ? occurrenceRange(doc, decl) : valueRange(doc, [...step.target.segments, "id"]);
    return range ? [{ uri, range }] : null;
  }
  const name = nameOccurrenceAt(index, offset);
  if (name) {
    const decls = sameName(index, name).filter((o) => o.declaration);
    const out = decls.map((o) => occurrenceRange(doc, o)).filter((r): r is Range => r !== undefined).map((range) => ({ uri, range }));
    return out.length ? out : null;
  }
  return null;
}

/** Every occurrence of the step, model or tool under the cursor; the declaration only when asked for. */
export function provideReferences(analysis: Analysis, position: Position, uri: string, includeDeclaration: boolean): Location[] | null {
  const found = occurrencesAt(analysis, position);
  if (!found) return null;
  return found.filter((o) => includeDeclaration || !o.declaration).map(({ range }) => ({ uri, range }));
}

/**
 * The same occurrences, marked in the editor when the cursor rests on one: the declaration as a write, the
 * references as reads. Without it VS Code marks every equal word, prose and comments included.
 */
export function provideDocumentHighlights(analysis: Analysis, position: Position): DocumentHighlight[] | null {
  const found = occurrencesAt(analysis, position);
  if (!found) return null;
  return found.map(({ range, declaration }) => ({ range, kind: declaration ? DocumentHighlightKind.Write : DocumentHighlightKind.Read }));
}

/** The occurrences of what is under the cursor, in document order, with their ranges. */
function occurrencesAt(analysis: Analysis, position: Position): Array<{ range: Range; declaration: boolean }> | undefined {
  const index = navigationIndex(analysis);
  if (!index) return undefined;
  const doc = analysis.document;
  const offset = doc.offsetAt(position);
  let found: Array<{ occurrence: StepOccurrence | NameOccurrence; declaration: boolean }> | undefined;
  const step = stepOccurrenceAt(index, offset);
  if (step) {
    if (step.kind === "id" && !step.target) return undefined; // a duplicate or invalid id names no step
    found = sameStep(index, step).map((o) => ({ occurrence: o, declaration: o.kind === "id" }));
  } else {
    const name = nameOccurrenceAt(index, offset);
    if (name) found = sameName(index, name).map((o) => ({ occurrence: o, declaration: o.declaration }));
  }
  if (!found) return undefined;
  return found
    .map(({ occurrence, declaration }) => ({ range: occurrenceRange(doc, occurrence), declaration }))
    .filter((o): o is { range: Range; declaration: boolean } => o.range !== undefined)
    .sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

/** The occurrence's own text, else the whole value holding it. */
export function occurrenceRange(doc: LwirDocument, o: { start?: number; end?: number; segments: PathSegment[] }): Range | undefined {
  if (o.start !== undefined && o.end !== undefined) return doc.rangeAt(o.start, o.end);
  return valueRange(doc, o.segments);
}

function valueRange(doc: LwirDocument, segments: PathSegment[]): Range | undefined {
  const loc = doc.locate(segments);
  return loc ? doc.rangeAt(loc.valueStart, loc.valueEnd) : undefined;
}
