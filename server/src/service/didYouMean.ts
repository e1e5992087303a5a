// "Did you mean …": for a finding about a name the runtime checks against a known set (a step id in
// `needs`, a decision target, `fanIn.outputStep`, a step id or root in an expression, an output mode,
// `uses`, a model or tool missing from `permissions`), where the name is written, the names the
// runtime would accept in that position, and how to write one of them instead.
//
// Candidates are ranked by a plain edit distance (optimal string alignment: insertions, deletions,
// substitutions, and swaps of two neighbours), then by their order in the document. A replacement is
// offered only when it leaves the document cleaner, checked by validating the changed value: the
// finding gone and no new one (the one exception: a step type or output mode that becomes known may
// ask for more inside its own step, e.g. a schema for `object`). That costs one validation per
// candidate tried, and is done only when fixes are asked for on such a finding.
import type { Range } from "vscode-languageserver-types";
import { checkTemplateString, EXPRESSION_ROOTS, FORBIDDEN_SEGMENTS, stepReferencesOf } from "../lwir/expressions";
import { needsToAdd } from "../lwir/needs";
import { valueAt } from "../lwir/path";
import type { Finding, PathSegment } from "../lwir/types";
import { END, OUTPUT_MODES, STEP_TYPES, isObject, validateLwir } from "../lwir/validate";
import type { Analysis, RangedFinding } from "./analysis";
import { addNeedsEntries, replaceInString, setValue, type OffsetEdit } from "./edits";
import { readableSteps, stepAtPath, factsOf } from "./stepFacts";
import { spanInString } from "./stringSource";

/** At most this many suggestions per finding. */
export const MAX_SUGGESTIONS = 3;
/** At most this many candidates are validated per finding (some may be rejected). */
const MAX_TRIED = 6;

// ---- distance ------------------------------------------------------------------------------------

/**
 * Edit distance with adjacent swaps (optimal string alignment), by UTF-16 code unit. Stops early and
 * returns `limit + 1` once the distance must exceed `limit`.
 */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const n = b.length;
  // Three rows (two back for swaps), reused between calls: ranking scans every candidate of a list.
  if (rows[0].length < n + 1) rows = [0, 1, 2].map(() => new Uint32Array(2 * (n + 1)));
  let [before, prev, cur] = rows;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) d = Math.min(d, before[j - 2] + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > limit) return limit + 1;
    [before, prev, cur] = [prev, cur, before];
  }
  return prev[n];
}
let rows: Uint32Array[] = [0, 1, 2].map(() => new Uint32Array(64));

/** How far a name may be from what was written: 2 edits for names of 5 characters or more, else 1. */
export function maxDistance(word: string): number {
  return word.length >= 5 ? 2 : 1;
}

export interface Suggestion {
  name: string;
  distance: number;
}

/** The candidates close to `word` (never `word` itself), nearest first, then in the order given. */
export function closeNames(word: string, candidates: readonly string[], max = Infinity): Suggestion[] {
  if (word.length === 0) return [];
  const limit = maxDistance(word);
  const seen = new Set<string>();
  const out: Suggestion[] = [];
  for (const name of candidates) {
    if (name === word || seen.has(name)) continue;
    seen.add(name);
    const distance = editDistance(word, name, limit);
    if (distance <= limit) out.push({ name, distance });
  }
  // Array.prototype.sort is stable: equal distances keep the candidates' order.
  return out.sort((x, y) => x.distance - y.distance).slice(0, max);
}

// ---- where a finding's name is -------------------------------------------------------------------

/** A replacement: the text edits, and the document value they produce (for re-validation). */
export interface Replacement {
  edits: OffsetEdit[];
  value: unknown;
  /** Step ids added to the step's needs by the same fix (a reference to a step it did not read before). */
  addedNeeds: string[];
}

export interface NameSite {
  /** The name as written (decoded). */
  word: string;
  /** What the name is, for titles: "model", "tool" or "name". */
  what: "model" | "tool" | "name";
  /** Where the editor squiggles: the name as written (the first place, when the fix replaces several). */
  range?: Range;
  /** The names the runtime accepts in this position, in document order. */
  candidates: string[];
  /** New findings below this path do not count against a replacement (a known step type or mode asks for more). */
  allowWithin?: PathSegment[];
  replace(name: string): Replacement | undefined;
}

const sites = new WeakMap<Finding, NameSite | null>();

/** The name a finding is about, when it is one the runtime checks against a known set (cached per finding). */
export function nameSiteOf(analysis: Analysis, finding: RangedFinding): NameSite | undefined {
  let site = sites.get(finding);
  if (site === undefined) {
    try {
      site = findSite(analysis, finding) ?? null;
    } catch {
      // A suggestion is a convenience: an odd document must not cost the diagnostic.
      site = null;
    }
    sites.set(finding, site);
  }
  return site ?? undefined;
}

/** The misspelt name inside a finding's node, where the editor shows it (diagnostics.ts editorRange), else the node's range. */
export function nameRange(analysis: Analysis, finding: RangedFinding): Range {
  return nameSiteOf(analysis, finding)?.range ?? finding.range;
}

/** A message, then "Did you mean "x"?" as a sentence of its own (the message ends with its full stop). */
export function withSuggestion(message: string, name: string): string {
  return `${/[.?!]$/.test(message) ? message : `${message}.`} Did you mean ${JSON.stringify(name)}?`;
}

/** The message with "Did you mean …?" when a name close to the one written is accepted there. */
export function messageWithSuggestion(analysis: Analysis, finding: RangedFinding): string {
  const site = nameSiteOf(analysis, finding);
  const best = site ? closeNames(site.word, site.candidates, 1)[0] : undefined;
  return best ? withSuggestion(finding.message, best.name) : finding.message;
}

const CODES_WITH_NAMES = new Set([
  "step.missing_dependency", "decision.target_not_in_scope", "parallel.fan_in_output_step_invalid", "expression.invalid",
  "output.invalid", "step.invalid_type", "model.disallowed", "fixer.model.disallowed", "tool.disallowed",
]);

function findSite(analysis: Analysis, f: RangedFinding): NameSite | undefined {
  if (!CODES_WITH_NAMES.has(f.code)) return undefined;
  const doc = analysis.document;
  const root = doc.value;
  const at = (segments: PathSegment[]): Range | undefined => (doc.locate(segments) ? doc.findingRange(segments) : undefined);
  const set = (segments: PathSegment[], name: string): Replacement | undefined => {
    const edits = setValue(doc, segments, name);
    return edits ? { edits, value: withValueAt(root, segments, name), addedNeeds: [] } : undefined;
  };
  const step = stepPrefix(f.segments);
  const d = f.details;
  switch (f.code) {
    case "step.missing_dependency": {
      if (!step) return undefined;
      const scope = stepScope(analysis, step);
      if (!scope) return undefined;
      if (d?.kind === "needsEntry") {
        const entry = [...step, "needs", d.needsIndex];
        if (valueAt(root, entry) !== d.stepId) return undefined;
        return { word: d.stepId, what: "name", range: at(entry), candidates: scope.readable, replace: (name) => set(entry, name) };
      }
      if (d?.kind === "reference") return referenceSite(analysis, step, scope.readable, d.stringPath, d.stepId, d.start, d.end);
      return undefined;
    }
    case "decision.target_not_in_scope": {
      if (!step || d?.kind !== "decisionTarget") return undefined;
      const scope = stepScope(analysis, step);
      const w = valueAt(root, [...step, "with"]);
      if (!scope || !isObject(w)) return undefined;
      // Every place this decision names the target: the fix replaces them all, or the finding stays.
      const places: PathSegment[][] = [];
      if (Array.isArray(w.cases)) {
        w.cases.forEach((c, k) => { if (isObject(c) && c.to === d.target) places.push([...step, "with", "cases", k, "to"]); });
      }
      if (w.default === d.target) places.push([...step, "with", "default"]);
      if (places.length === 0) return undefined;
      return {
        word: d.target, what: "name", range: at(places[0]), candidates: [...scope.local, END],
        replace: (name) => {
          let value = root;
          const edits: OffsetEdit[] = [];
          for (const p of places) {
            const e = setValue(doc, p, name);
            if (!e) return undefined;
            edits.push(...e);
            value = withValueAt(value, p, name);
          }
          return { edits, value, addedNeeds: [] };
        },
      };
    }
    case "parallel.fan_in_output_step_invalid": {
      const word = valueAt(root, f.segments);
      const body = step ? valueAt(root, [...step, "steps"]) : undefined;
      if (typeof word !== "string" || !Array.isArray(body)) return undefined;
      // As the validator looks it up: the first body entry with the id, which must not be a decision.
      const candidates: string[] = [];
      const seen = new Set<string>();
      for (const s of body) {
        if (!isObject(s) || typeof s.id !== "string" || seen.has(s.id)) continue;
        seen.add(s.id);
        if (s.uses !== "decision") candidates.push(s.id);
      }
      return { word, what: "name", range: at(f.segments), candidates, replace: (name) => set(f.segments, name) };
    }
    case "expression.invalid":
      return rootSite(analysis, f);
    case "output.invalid": {
      const modePath = [...f.segments, "mode"];
      const mode = valueAt(root, modePath);
      if (typeof mode !== "string" || !step) return undefined;
      return { word: mode, what: "name", range: at(modePath), candidates: [...OUTPUT_MODES], allowWithin: step, replace: (name) => set(modePath, name) };
    }
    case "step.invalid_type": {
      const uses = valueAt(root, f.segments);
      if (typeof uses !== "string" || !step) return undefined;
      return { word: uses, what: "name", range: at(f.segments), candidates: [...STEP_TYPES], allowWithin: step, replace: (name) => set(f.segments, name) };
    }
    case "model.disallowed":
    case "fixer.model.disallowed":
    case "tool.disallowed": {
      const word = d?.kind === "name" ? d.name : valueAt(root, f.segments);
      if (typeof word !== "string") return undefined;
      const what = f.code === "tool.disallowed" ? "tool" : "model";
      const permissions = isObject(root) && isObject(root.permissions) ? root.permissions : {};
      const list = permissions[`${what}s`];
      // The validator reads the list only when every entry is a string.
      const candidates = Array.isArray(list) && list.every((e) => typeof e === "string") ? (list as string[]) : [];
      return { word, what, range: at(f.segments), candidates, replace: (name) => set(f.segments, name) };
    }
  }
  return undefined;
}

/** `steps.<id>` in a string: the id's place, and a replacement that also adds the needs entry it then requires. */
function referenceSite(analysis: Analysis, step: PathSegment[], readable: string[], stringPath: PathSegment[], word: string, start: number, end: number): NameSite | undefined {
  const doc = analysis.document;
  const text = valueAt(doc.value, stringPath);
  if (typeof text !== "string") return undefined;
  const ref = text.slice(start, end);
  // `steps.id…` or `steps["id"]…` / `steps['id']…` spelled without escapes.
  let idStart: number;
  let quote: string | undefined;
  if (ref.startsWith(`steps.${word}`)) idStart = start + 6;
  else if ((ref.startsWith(`steps["${word}"]`) || ref.startsWith(`steps['${word}']`))) {
    idStart = start + 7;
    quote = ref[6];
  } else return undefined;
  const idEnd = idStart + word.length;
  const span = spanInString(doc, stringPath, text, idStart, idEnd);
  return {
    word, what: "name", candidates: readable,
    ...(span ? { range: doc.rangeAt(span[0], span[1]) } : {}),
    replace: (name) => {
      if (FORBIDDEN_SEGMENTS.has(name)) return undefined;
      let from = idStart;
      const to = idEnd;
      let spelled = name;
      if (quote === undefined && !/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(name)) {
        // Not writable after a dot: `steps["name"]` instead.
        if (/["\\]/.test(name)) return undefined;
        from = idStart - 1;
        spelled = `["${name}"]`;
      } else if (quote !== undefined && (name.includes(quote) || name.includes("\\"))) {
        return undefined;
      }
      const edits = replaceInString(doc, stringPath, from, to, spelled, span && from === idStart ? { start: span[0], end: span[1] } : undefined);
      if (!edits) return undefined;
      const value = withValueAt(doc.value, stringPath, text.slice(0, from) + spelled + text.slice(to));
      return withNeeds(analysis, step, value, edits, [name]);
    },
  };
}

/** An unknown root in a template (`teps.x`, `inpt.x`): every occurrence of it in the string is replaced. */
function rootSite(analysis: Analysis, f: RangedFinding): NameSite | undefined {
  const doc = analysis.document;
  const text = valueAt(doc.value, f.segments);
  if (typeof text !== "string") return undefined;
  const step = stepPrefix(f.segments);
  // Inside a parallel body `item` is a root too (the validator's itemAllowed).
  const inBody = step !== undefined && step.length > 2;
  const unknown = unknownRoot(text, inBody);
  if (!unknown) return undefined;
  const span = spanInString(doc, f.segments, text, unknown.start, unknown.end);
  const candidates = EXPRESSION_ROOTS.map((r) => r.name).filter((r) => inBody || r !== "item");
  return {
    word: unknown.word, what: "name", candidates,
    ...(span ? { range: doc.rangeAt(span[0], span[1]) } : {}),
    replace: (name) => {
      let next = text;
      let occurrences = 0;
      let first: [number, number] | undefined;
      for (let u = unknownRoot(next, inBody); u && u.word === unknown.word && occurrences < 50; u = unknownRoot(next, inBody)) {
        next = next.slice(0, u.start) + name + next.slice(u.end);
        first ??= [u.start, u.end];
        occurrences++;
      }
      const edits = occurrences === 1 && first
        ? replaceInString(doc, f.segments, first[0], first[1], name, span ? { start: span[0], end: span[1] } : undefined)
        : setValue(doc, f.segments, next);
      if (!edits) return undefined;
      // `teps.x` → `steps.x` makes a step reference: the step may need a needs entry for it.
      const before = new Set(stepReferencesOf(text).map((r) => r.stepId));
      const added = stepReferencesOf(next).map((r) => r.stepId).filter((id) => !before.has(id));
      const value = withValueAt(doc.value, f.segments, next);
      return step ? withNeeds(analysis, step, value, edits, added) : { edits, value, addedNeeds: [] };
    },
  };
}

/** The first problem of a template string when it is an unknown root: the word and its offsets. */
function unknownRoot(text: string, itemAllowed: boolean): { word: string; start: number; end: number } | undefined {
  const check = checkTemplateString(text, itemAllowed);
  if (check.errorStart === undefined || check.errorEnd === undefined || !/: unknown root "/.test(check.message ?? "")) return undefined;
  const word = text.slice(check.errorStart, check.errorEnd);
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(word) ? { word, start: check.errorStart, end: check.errorEnd } : undefined;
}

/** Adds the needs entries a changed step now requires (those the needs rules allow) to a replacement. */
function withNeeds(analysis: Analysis, step: PathSegment[], value: unknown, edits: OffsetEdit[], ids: string[]): Replacement | undefined {
  const add = [...new Set(ids)].filter((id) => needsToAdd(value, step, id, { allowExternal: true }).add);
  if (add.length === 0) return { edits, value, addedNeeds: [] };
  const needsEdits = addNeedsEntries(analysis.document, step, add);
  if (!needsEdits) return undefined;
  const needs = valueAt(value, [...step, "needs"]);
  const next = withValueAt(value, [...step, "needs"], [...(Array.isArray(needs) ? needs : []), ...add]);
  return { edits: [...edits, ...needsEdits], value: next, addedNeeds: add };
}

/** Ids a step may name: in `needs` and expressions (its list and what its parallel step needs), and in decision targets (its list). */
function stepScope(analysis: Analysis, step: PathSegment[]): { readable: string[]; local: string[] } | undefined {
  const facts = factsOf(analysis);
  const at = facts ? stepAtPath(facts, step) : undefined;
  if (!at || at.rest.length !== 0) return undefined;
  const own = at.step?.id;
  return {
    readable: readableSteps(at.list).map((s) => s.id).filter((id) => id !== own),
    local: at.list.steps.map((s) => s.id).filter((id) => id !== own),
  };
}

/** The segments of the innermost step a path is in. */
function stepPrefix(segments: readonly PathSegment[]): PathSegment[] | undefined {
  let k = 0;
  while (segments[k] === "steps" && typeof segments[k + 1] === "number") k += 2;
  return k > 0 ? segments.slice(0, k) : undefined;
}

/** A copy of `root` with the value at `segments` replaced; only the containers on the path are copied. */
export function withValueAt(root: unknown, segments: readonly PathSegment[], value: unknown): unknown {
  if (segments.length === 0) return value;
  const [head, ...rest] = segments;
  if (Array.isArray(root) && typeof head === "number") {
    const copy = root.slice();
    copy[head] = withValueAt(root[head], rest, value);
    return copy;
  }
  if (isObject(root) && typeof head === "string") {
    const copy: Record<string, unknown> = {};
    // defineProperty, so a key such as "__proto__" stays an own data property as the parser made it.
    for (const k of Object.keys(root)) Object.defineProperty(copy, k, { value: root[k], writable: true, enumerable: true, configurable: true });
    Object.defineProperty(copy, head, { value: withValueAt(root[head], rest, value), writable: true, enumerable: true, configurable: true });
    return copy;
  }
  return root;
}

// ---- the suggestions a fix offers -----------------------------------------------------------------

export interface NameFix {
  name: string;
  distance: number;
  replacement: Replacement;
}

/**
 * The accepted names close to the one written, nearest first, at most MAX_SUGGESTIONS: each a
 * replacement that removes `target` (the finding, or another one the same typo causes) and adds no
 * finding.
 */
export function nameFixes(analysis: Analysis, site: NameSite, target: { code: string; path: string }): NameFix[] {
  const out: NameFix[] = [];
  let tried = 0;
  for (const s of closeNames(site.word, site.candidates)) {
    if (out.length >= MAX_SUGGESTIONS || tried >= MAX_TRIED) break;
    tried++;
    const replacement = site.replace(s.name);
    if (!replacement || replacement.edits.length === 0) continue;
    if (!cleaner(analysis, replacement.value, target, site.allowWithin)) continue;
    out.push({ ...s, replacement });
  }
  return out;
}

/** Validating the changed value: `target` is gone and no finding appears (below `allowWithin` excepted). */
function cleaner(analysis: Analysis, value: unknown, target: { code: string; path: string }, allowWithin?: PathSegment[]): boolean {
  const key = (f: { code: string; path: string }) => `${f.code} ${f.path}`;
  const before = new Map<string, number>();
  for (const f of analysis.findings) before.set(key(f), (before.get(key(f)) ?? 0) + 1);
  const after = new Map<string, { n: number; segments: PathSegment[] }>();
  for (const f of validateLwir(value, { plainData: true }).findings) {
    const e = after.get(key(f));
    if (e) e.n++;
    else after.set(key(f), { n: 1, segments: f.segments });
  }
  if ((after.get(key(target))?.n ?? 0) >= (before.get(key(target)) ?? 0)) return false;
  for (const [k, { n, segments }] of after) {
    if (n <= (before.get(k) ?? 0)) continue;
    if (allowWithin && allowWithin.every((s, i) => segments[i] === s)) continue;
    return false;
  }
  return true;
}
