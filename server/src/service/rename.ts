// Rename a step id: its `id`, the `needs` entries, decision targets, `fanIn.outputStep` and the
// `steps.X` / `steps["X"]` references that name the same step (scopes respected, see references.ts),
// as minimal text edits that keep each string's spelling (JSON escapes, YAML quote and block styles).
//
// Refused, with a message: a cursor on no step id (or one that names no step), a new id the validator
// would refuse (catalog 3.3) or one already used in the list, an id the renamed step would shadow or be
// shadowed by, and anything that would make the validator report a problem it did not report before.
// The edited text is parsed again and must give the expected value, so an edit never silently changes
// something else (a YAML plain scalar that stops being one, say).
import type { Position, Range, TextEdit, WorkspaceEdit } from "vscode-languageserver-types";
import { parseDocument } from "../document/document";
import { pathOfSegments, pathString, valueAt } from "../lwir/path";
import type { PathSegment } from "../lwir/types";
import { END, isObject, stepIdProblem, validateLwir } from "../lwir/validate";
import type { Analysis } from "./analysis";
import { applyEdits, setValue, type OffsetEdit } from "./edits";
import type { StepFacts } from "./stepFacts";
import {
  cachedSource,
  nameOccurrenceAt,
  navigationIndex,
  occurrencesOfStep,
  sourceSpan,
  stepOccurrenceAt,
  type NavigationIndex,
  type StepOccurrence,
  type LocatedString,
} from "./references";
import { doubleQuotedInner, fitsSingleQuoted, singleQuotedInner, yamlScalar } from "../document/yamlQuote";

export type PrepareRenameResult = { range: Range; placeholder: string } | { refused: string };
export type RenameResult = { edit: WorkspaceEdit } | { refused: string };

/** A step id that is written as a dot segment in expressions (`steps.X`); others need `steps["X"]`. */
const SEGMENT = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

const ONLY_STEP_IDS =
  "Only step ids can be renamed: put the cursor on a step's id, a needs entry, a decision target, fanIn.outputStep or a steps.X reference.";

interface Target {
  index: NavigationIndex;
  occ: StepOccurrence;
  step: StepFacts;
}

function targetAt(analysis: Analysis, position: Position): Target | { refused: string } {
  const doc = analysis.document;
  if (doc.parseErrors.length > 0 || doc.tooDeep || doc.value === undefined) {
    return { refused: "The document does not parse: fix its syntax errors before renaming." };
  }
  const index = navigationIndex(analysis);
  if (!index) return { refused: ONLY_STEP_IDS };
  const offset = doc.offsetAt(position);
  const occ = stepOccurrenceAt(index, offset);
  if (!occ) {
    const name = nameOccurrenceAt(index, offset);
    if (name) return { refused: `Only step ids can be renamed; the ${name.kind} "${name.name}" is not a step id.` };
    const at = doc.pathAt(offset);
    if (at && !at.inKey && valueAt(doc.value, at.segments) === END && (at.segments.includes("default") || at.segments.includes("to"))) {
      return { refused: `"end" is not a step: as a decision target it finishes the current scope.` };
    }
    return { refused: ONLY_STEP_IDS };
  }
  if (!occ.target) {
    if (occ.kind === "id") {
      return { refused: occ.scope.byId.has(occ.id)
        ? `Another step earlier in this list already has the id "${occ.id}" (step.duplicate_id): rename the first one, or give this one a new id by editing it.`
        : `"${occ.id}" is not a valid step id, so nothing refers to it.` };
    }
    return { refused: `No step "${occ.id}" is in scope here, so there is nothing to rename.` };
  }
  const step = occ.target;
  const twins = step.list.entries.filter((e) => isObject(e) && e.id === step.id).length;
  if (twins > 1) {
    return { refused: `Several steps in this list have the id "${step.id}" (step.duplicate_id): give the later ones new ids first.` };
  }
  return { index, occ, step };
}

/** The range of the id under the cursor and its text, or why it cannot be renamed. */
export function providePrepareRename(analysis: Analysis, position: Position): PrepareRenameResult {
  const t = targetAt(analysis, position);
  if ("refused" in t) return t;
  const { occ } = t;
  return { range: analysis.document.rangeAt(occ.start!, occ.end!), placeholder: occ.id };
}

/** The edits renaming the step under the cursor to `newName`, or why it cannot be done. */
export function provideRename(analysis: Analysis, position: Position, newName: string, uri: string): RenameResult {
  const t = targetAt(analysis, position);
  if ("refused" in t) return t;
  const { index, step } = t;
  const doc = analysis.document;
  const oldName = step.id;
  if (newName === oldName) return { edit: { changes: { [uri]: [] } } };
  const problem = stepIdProblem(newName);
  if (problem) return { refused: `Cannot rename to ${JSON.stringify(newName)}: ${problem}` };
  const occurrences = occurrencesOfStep(index, step);

  // scopes: the new id must be free where the step is declared and wherever it is read
  if (step.list.entries.some((e) => isObject(e) && e.id === newName)) {
    return { refused: `A step "${newName}" already exists in this list; step ids must be unique in their list.` };
  }
  if (step.list.external.has(newName)) {
    return { refused: `"${newName}" is the id of a step this body reads from outside it; the renamed step would hide it.` };
  }
  for (const o of occurrences) {
    if (o.scope !== step.list && o.scope.byId.has(newName)) {
      const parent = o.scope.parent;
      return { refused: `The body of ${parent ? `"${parent.id}"` : "a parallel step"} reads "${oldName}" and has its own step "${newName}": after the rename its references would name that step instead.` };
    }
  }
  if (newName === END && occurrences.some((o) => o.kind === "case" || o.kind === "default")) {
    return { refused: `A decision routes to "${oldName}", and "end" as a decision target means "finish this scope": choose another id.` };
  }
  if (/[{}]/.test(newName) && occurrences.some((o) => o.kind === "expression")) {
    return { refused: `"${oldName}" is read in {{ }} expressions, which cannot hold "{" or "}": choose an id without braces.` };
  }

  // the edits, string by string
  const byString = new Map<string, StepOccurrence[]>();
  for (const o of occurrences) {
    const key = JSON.stringify(o.segments);
    const list = byString.get(key);
    if (list) list.push(o);
    else byString.set(key, [o]);
  }
  const edits: OffsetEdit[] = [];
  const expected: Array<{ segments: PathSegment[]; value: string }> = [];
  for (const group of byString.values()) {
    const segments = group[0].segments;
    const value = valueAt(doc.value, segments) as string;
    const replacements = group.map((o) => replacementFor(o, newName)).sort((a, b) => a.start - b.start);
    let newValue = "";
    let at = 0;
    for (const r of replacements) {
      newValue += value.slice(at, r.start) + r.text;
      at = r.end;
    }
    newValue += value.slice(at);
    expected.push({ segments, value: newValue });
    const src = cachedSource(index, doc, segments);
    const local = src ? inPlace(src, doc.text, replacements, group[0].kind !== "expression") : undefined;
    const written = local ?? setValue(doc, segments, newValue);
    if (!written) {
      return { refused: `"${oldName}" is also written at ${pathString(pathOfSegments(segments))}, which cannot be edited in place (a YAML alias or merged key): rename it by hand.` };
    }
    edits.push(...written);
  }

  // no overlaps (a YAML anchor reached through two paths gives the same edit twice)
  const unique = new Map<string, OffsetEdit>();
  for (const e of edits) unique.set(`${e.start}:${e.end}:${e.newText}`, e);
  const sorted = [...unique.values()].sort((a, b) => a.start - b.start || a.end - b.end);
  for (let k = 1; k < sorted.length; k++) {
    if (sorted[k].start < sorted[k - 1].end) return { refused: `"${oldName}" is written in shared YAML nodes that cannot be renamed consistently: rename it by hand.` };
  }

  // check: the edited text reads back as the expected value, and the validator reports nothing new
  const newText = applyEdits(doc.text, sorted);
  const reparsed = parseDocument(newText, doc.format);
  const expectedValue = structuredClone(doc.value);
  for (const e of expected) setAt(expectedValue, e.segments, e.value);
  if (reparsed.parseErrors.length > 0 || !sameValue(reparsed.value, expectedValue)) {
    return { refused: `The rename could not be written without changing something else in the document; rename "${oldName}" by hand.` };
  }
  const before = new Map<string, number>();
  for (const f of analysis.findings) before.set(`${f.code} ${f.path}`, (before.get(`${f.code} ${f.path}`) ?? 0) + 1);
  for (const f of validateLwir(reparsed.value).findings) {
    const k = `${f.code} ${f.path}`;
    const n = before.get(k) ?? 0;
    if (n === 0) return { refused: `Renaming "${oldName}" to "${newName}" would add a problem: ${f.code} at ${f.path} (${f.message})` };
    before.set(k, n - 1);
  }

  const textEdits: TextEdit[] = sorted.map((e) => ({ range: doc.rangeAt(e.start, e.end), newText: e.newText }));
  return { edit: { changes: { [uri]: textEdits } } };
}

interface Replacement {
  /** Offsets in the string's value. */
  start: number;
  end: number;
  text: string;
}

/** What replaces the occurrence in its string's value. */
function replacementFor(o: StepOccurrence, newName: string): Replacement {
  if (o.kind !== "expression") return { start: 0, end: o.valueEnd, text: newName };
  if (o.form === "bracket") return { start: o.valueStart, end: o.valueEnd, text: escapeLiteral(newName, o.quote ?? '"') };
  if (SEGMENT.test(newName)) return { start: o.valueStart, end: o.valueEnd, text: newName };
  // `steps.old` → `steps["new id"]`: the dot goes with the id
  return { start: o.valueStart - 1, end: o.valueEnd, text: `[${'"'}${escapeLiteral(newName, '"')}${'"'}]` };
}

/** An expression string literal's content: a backslash escapes the next character. */
function escapeLiteral(s: string, quote: string): string {
  return s.replace(/\\/g, "\\\\").split(quote).join("\\" + quote);
}

const RISKY_PLAIN = /: |:\t| #|\t#|:$/g;
const count = (s: string, re: RegExp) => (s.match(re) ?? []).length;

/**
 * Edits of just the replaced text, spelled in the scalar's own style; undefined when that style cannot
 * hold it (the caller then rewrites the whole string). `whole`: the string is the id itself.
 */
function inPlace(src: LocatedString, text: string, replacements: Replacement[], whole: boolean): OffsetEdit[] | undefined {
  const edits: OffsetEdit[] = [];
  for (const r of replacements) {
    const { start, end } = sourceSpan(src, r.start, r.end);
    let spelled: string;
    switch (src.style) {
      case "json":
      case "double":
        spelled = doubleQuotedInner(r.text);
        break;
      case "single":
        if (!fitsSingleQuoted(r.text)) return undefined;
        spelled = singleQuotedInner(r.text);
        break;
      case "plain":
        if (whole) {
          // the id is the whole scalar: keep it plain when it reads back the same, else quote it
          return [{ start: src.start, end: src.end, newText: yamlScalar(r.text) }];
        }
        if (/[\r\n]/.test(r.text) || (src.flow && /[,[\]{}]/.test(r.text))) return undefined;
        spelled = r.text;
        break;
      default: // literal, folded
        if (/[\r\n]/.test(r.text)) return undefined;
        spelled = r.text;
    }
    edits.push({ start, end, newText: spelled });
  }
  if (src.style === "plain") {
    // a plain scalar must stay one: no new `: ` or ` #`, no trailing blank
    const before = text.slice(src.start, src.end);
    const after = applyEdits(before, edits.map((e) => ({ ...e, start: e.start - src.start, end: e.end - src.start })));
    if (count(after, RISKY_PLAIN) > count(before, RISKY_PLAIN) || /\s$/.test(after)) return undefined;
  }
  return edits;
}

function setAt(root: unknown, segments: readonly PathSegment[], value: string): void {
  const parent = valueAt(root, segments.slice(0, -1));
  if (typeof parent === "object" && parent !== null) (parent as Record<string | number, unknown>)[segments[segments.length - 1]] = value;
}

/** Structural equality of parsed values (YAML values may be cyclic). */
function sameValue(a: unknown, b: unknown): boolean {
  const seen = new Map<object, object>();
  const stack: Array<[unknown, unknown]> = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (typeof x !== "object" || x === null || typeof y !== "object" || y === null) {
      if (!Object.is(x, y)) return false;
      continue;
    }
    if (seen.get(x) === y) continue;
    seen.set(x, y);
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    const kx = Object.keys(x);
    const ky = Object.keys(y);
    if (kx.length !== ky.length) return false;
    for (let i = 0; i < kx.length; i++) {
      if (kx[i] !== ky[i]) return false;
      stack.push([(x as Record<string, unknown>)[kx[i]], (y as Record<string, unknown>)[ky[i]]]);
    }
  }
  return true;
}
