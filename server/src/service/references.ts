// Where step ids, models and tools are written, once per analysis: the index behind hover, definition,
// references and rename.
//
// A step id occurs as a step's `id`, a `needs` entry, a decision `cases[k].to` / `default`, a parallel
// step's `fanIn.outputStep`, and as `steps.X` / `steps["X"]` in the strings of a step's `with` and
// `input`. Each occurrence is resolved the way the validator resolves it (catalog 3.4, 3.10, 3.11):
// needs and expressions in the step's own list first, then the external steps its parallel parent
// needs; decision targets in the own list only; outputStep in the parallel step's body. So the same
// id in two bodies names two different steps, and a body's reference to an external step names the
// top-level step.
//
// Offsets inside a string value are mapped to the document through service/stringSource.ts (JSON
// escapes; YAML plain, quoted and block scalars with line folding), used only where its decoding gives
// the parsed value; elsewhere the occurrence has no range (never a wrong one).
import type { LwirDocument } from "../document/types";
import { stepReferencesOf } from "../lwir/expressions";
import { forEachStepString, valueAt } from "../lwir/path";
import type { PathSegment } from "../lwir/types";
import { END, isObject } from "../lwir/validate";
import type { Analysis } from "./analysis";
import { factsOf, type ListFacts, type StepFacts, type WorkflowFacts } from "./stepFacts";
import { stringSource as scalarSource, valueIndexAt } from "./stringSource";

// ---- strings as written ------------------------------------------------------------------------------

export type ScalarStyle = "json" | "plain" | "single" | "double" | "literal" | "folded";

/** A string value at a path, with where each of its code units is written (service/stringSource.ts). */
export interface LocatedString {
  segments: PathSegment[];
  value: string;
  style: ScalarStyle;
  /** Per code unit of the value: the source offsets of its spelling, [starts[i], ends[i]). */
  starts: number[];
  ends: number[];
  /** Where the content starts and ends (inside the quotes, below a block header). */
  contentStart: number;
  contentEnd: number;
  /** The scalar as written, quotes or block header included. */
  start: number;
  end: number;
  /** YAML: the scalar sits in a flow collection (`[a, b]`, `{k: v}`). */
  flow: boolean;
}

/** The string at `segments` with its source map; undefined when it is not a string or the map disagrees with the value (a YAML alias, say). */
export function stringAt(doc: LwirDocument, segments: readonly PathSegment[]): LocatedString | undefined {
  const value = valueAt(doc.value, segments);
  if (typeof value !== "string") return undefined;
  const loc = doc.locate(segments);
  if (!loc) return undefined;
  const { valueStart: start, valueEnd: end } = loc;
  const map = scalarSource(doc.text, start, end, doc.format);
  if (!map || map.value !== value) return undefined;
  const c = doc.text[start];
  const style: ScalarStyle = doc.format === "json" ? "json" : c === '"' ? "double" : c === "'" ? "single" : c === "|" ? "literal" : c === ">" ? "folded" : "plain";
  return {
    segments: [...segments], value, style, starts: map.starts, ends: map.ends, contentStart: map.contentStart, contentEnd: map.contentEnd,
    start, end, flow: doc.format === "yaml" && inFlow(doc, segments),
  };
}

/** Document offsets of value[valueStart, valueEnd). */
export function sourceSpan(src: LocatedString, valueStart: number, valueEnd: number): { start: number; end: number } {
  const start = valueStart < src.starts.length ? src.starts[valueStart] : src.contentEnd;
  const end = valueEnd > valueStart ? src.ends[valueEnd - 1] : start;
  return { start, end };
}

/** The value offset of a document offset inside the string; undefined outside its content. */
export function valueOffsetOf(src: LocatedString, offset: number): number | undefined {
  if (offset < src.contentStart || offset > src.contentEnd) return undefined;
  return valueIndexAt({ value: src.value, starts: src.starts, ends: src.ends, contentStart: src.contentStart, contentEnd: src.contentEnd }, offset);
}

function inFlow(doc: LwirDocument, segments: readonly PathSegment[]): boolean {
  if (segments.length === 0) return false;
  const parent = doc.locate(segments.slice(0, -1));
  const c = parent ? doc.text[parent.valueStart] : "";
  return c === "[" || c === "{";
}

// ---- occurrences ---------------------------------------------------------------------------------------

/** Where a step id is written. */
export type StepOccurrenceKind = "id" | "needs" | "case" | "default" | "outputStep" | "expression";

export interface StepOccurrence {
  kind: StepOccurrenceKind;
  id: string;
  /** The string holding it. */
  segments: PathSegment[];
  /** The id's spelling in the string's value (bracket form: the literal's content, escapes included). */
  valueStart: number;
  valueEnd: number;
  /** Document offsets of the id's spelling; undefined when the string could not be mapped. */
  start?: number;
  end?: number;
  /** The step entry it is written in (its path), and that step when it is declared. */
  owner: PathSegment[];
  ownerStep: StepFacts | undefined;
  /** The list whose scope resolves it. */
  scope: ListFacts;
  /** The step it names, when one is in scope (for `id`: the step itself, unless it is a duplicate). */
  target: StepFacts | undefined;
  /** Expressions: `steps.X` or `steps["X"]` / `steps['X']`, and the property read after the id. */
  form?: "dot" | "bracket";
  quote?: '"' | "'";
  property?: string;
  /** Expressions: the reference `steps…` through its property, in the value. */
  refStart?: number;
  refEnd?: number;
}

/** Where a model or a tool is written: an allow-list entry in `permissions` or a use by a step. */
export interface NameOccurrence {
  kind: "model" | "tool";
  name: string;
  segments: PathSegment[];
  /** An entry of `permissions.models` / `permissions.tools`. */
  declaration: boolean;
  /** Uses: `with.model`, `with.tool` or `onFailure.fixer.model`. */
  field?: "with.model" | "with.tool" | "fixer.model";
  owner?: PathSegment[];
  ownerStep?: StepFacts;
  start?: number;
  end?: number;
}

export interface NavigationIndex {
  facts: WorkflowFacts;
  steps: StepOccurrence[];
  names: NameOccurrence[];
  /** Mapped strings by path, for features that look inside them. */
  strings: Map<string, LocatedString | null>;
}

const cache = new WeakMap<Analysis, NavigationIndex | undefined>();

/** The index of an analysis (computed once, cached on it); undefined when the document has no value. */
export function navigationIndex(analysis: Analysis): NavigationIndex | undefined {
  if (cache.has(analysis)) return cache.get(analysis);
  const facts = analysis.document.parseErrors.length === 0 ? factsOf(analysis) : undefined;
  const index = facts ? buildIndex(analysis.document, facts) : undefined;
  cache.set(analysis, index);
  return index;
}

/** The mapped string at a path, through the index's cache. */
export function cachedSource(index: NavigationIndex, doc: LwirDocument, segments: readonly PathSegment[]): LocatedString | undefined {
  const key = JSON.stringify(segments);
  if (!index.strings.has(key)) index.strings.set(key, stringAt(doc, segments) ?? null);
  return index.strings.get(key) ?? undefined;
}

function buildIndex(doc: LwirDocument, facts: WorkflowFacts): NavigationIndex {
  const index: NavigationIndex = { facts, steps: [], names: [], strings: new Map() };
  const text = doc.text;
  const yaml = doc.format === "yaml";
  /** Document offsets of value[vs, ve) of the string at `segments`: directly when it is written as is, else through its source map. */
  const span = (segments: PathSegment[], value: string, vs: number, ve: number): { start: number; end: number } | undefined => {
    const loc = doc.locate(segments);
    if (!loc) return undefined;
    const q = text[loc.valueStart];
    const quoted = q === '"' || (yaml && q === "'");
    const from = quoted ? loc.valueStart + 1 : loc.valueStart;
    const to = quoted ? loc.valueEnd - 1 : loc.valueEnd;
    // same length and same text: nothing is escaped or folded, so offsets carry over
    if (to - from === value.length && text.startsWith(value, from)) return { start: from + vs, end: from + ve };
    const s = cachedSource(index, doc, segments);
    return s ? sourceSpan(s, vs, ve) : undefined;
  };

  /** An occurrence that is a whole string (an id, a needs entry, a target). */
  const whole = (kind: StepOccurrenceKind, id: string, segments: PathSegment[], owner: PathSegment[], ownerStep: StepFacts | undefined,
    scope: ListFacts, target: StepFacts | undefined) => {
    const occ: StepOccurrence = { kind, id, segments, valueStart: 0, valueEnd: id.length, owner, ownerStep, scope, target };
    const at = span(segments, id, 0, id.length);
    if (at) { occ.start = at.start; occ.end = at.end; }
    index.steps.push(occ);
  };
  const name = (kind: "model" | "tool", value: unknown, segments: PathSegment[], extra: Partial<NameOccurrence>) => {
    if (typeof value !== "string" || value.length === 0) return;
    const occ: NameOccurrence = { kind, name: value, segments, declaration: false, ...extra };
    const at = span(segments, value, 0, value.length);
    if (at) { occ.start = at.start; occ.end = at.end; }
    index.names.push(occ);
  };

  const permissions = facts.root.permissions;
  if (isObject(permissions)) {
    for (const kind of ["model", "tool"] as const) {
      const list = permissions[`${kind}s`];
      if (Array.isArray(list)) list.forEach((v, i) => name(kind, v, ["permissions", `${kind}s`, i], { declaration: true }));
    }
  }

  const bodyOf = new Map<string, ListFacts>();
  for (const list of facts.lists) bodyOf.set(JSON.stringify(list.segments), list);
  const readable = (list: ListFacts, id: string) => list.byId.get(id) ?? list.external.get(id);

  for (const list of facts.lists) {
    const declared = new Map<unknown, StepFacts>();
    for (const s of list.steps) declared.set(s.step, s);
    list.entries.forEach((entry, i) => {
      if (!isObject(entry)) return;
      const owner = [...list.segments, i];
      const ownerStep = declared.get(entry);
      if (typeof entry.id === "string" && entry.id.length > 0) {
        whole("id", entry.id, [...owner, "id"], owner, ownerStep, list, ownerStep);
      }
      if (Array.isArray(entry.needs)) {
        entry.needs.forEach((n, k) => {
          if (typeof n === "string" && n.length > 0) whole("needs", n, [...owner, "needs", k], owner, ownerStep, list, readable(list, n));
        });
      }
      const w = entry.with;
      if (entry.uses === "decision" && isObject(w)) {
        if (Array.isArray(w.cases)) {
          w.cases.forEach((c, k) => {
            if (isObject(c) && typeof c.to === "string" && c.to.length > 0 && c.to !== END) {
              whole("case", c.to, [...owner, "with", "cases", k, "to"], owner, ownerStep, list, list.byId.get(c.to));
            }
          });
        }
        if (typeof w.default === "string" && w.default.length > 0 && w.default !== END) {
          whole("default", w.default, [...owner, "with", "default"], owner, ownerStep, list, list.byId.get(w.default));
        }
      }
      if (entry.uses === "parallel" && isObject(w) && isObject(w.fanIn) && typeof w.fanIn.outputStep === "string" && w.fanIn.outputStep.length > 0) {
        const body = bodyOf.get(JSON.stringify([...owner, "steps"]));
        if (body) whole("outputStep", w.fanIn.outputStep, [...owner, "with", "fanIn", "outputStep"], owner, ownerStep, body, body.byId.get(w.fanIn.outputStep));
      }
      for (const part of ["with", "input"] as const) {
        forEachStepString(entry[part], [...owner, part], (value, segments) => {
          const refs = stepReferencesOf(value);
          for (const r of refs) {
            const dot = value.charCodeAt(r.start + 5) === 46;
            const quote = dot ? undefined : (value[r.start + 6] as '"' | "'");
            const valueStart = r.start + (dot ? 6 : 7);
            const valueEnd = dot ? valueStart + r.stepId.length : literalEnd(value, valueStart, quote!);
            const occ: StepOccurrence = {
              kind: "expression", id: r.stepId, segments, valueStart, valueEnd, owner, ownerStep, scope: list,
              target: readable(list, r.stepId), form: dot ? "dot" : "bracket", refStart: r.start, refEnd: r.end,
            };
            if (quote) occ.quote = quote;
            if (r.property !== undefined) occ.property = r.property;
            const at = span(segments, value, valueStart, valueEnd);
            if (at) { occ.start = at.start; occ.end = at.end; }
            index.steps.push(occ);
          }
        });
      }
      if (entry.uses === "ai.generate" && isObject(w)) name("model", w.model, [...owner, "with", "model"], { field: "with.model", owner, ownerStep });
      if (entry.uses === "tool.call" && isObject(w)) name("tool", w.tool, [...owner, "with", "tool"], { field: "with.tool", owner, ownerStep });
      const onFailure = entry.onFailure;
      if (isObject(onFailure) && isObject(onFailure.fixer)) {
        name("model", onFailure.fixer.model, [...owner, "onFailure", "fixer", "model"], { field: "fixer.model", owner, ownerStep });
      }
    });
  }
  return index;
}

/** Index of the quote closing the expression string literal whose content starts at `from`. */
function literalEnd(s: string, from: number, quote: string): number {
  let i = from;
  while (i < s.length) {
    if (s[i] === "\\") i += 2;
    else if (s[i] === quote) return i;
    else i++;
  }
  return s.length;
}

// ---- lookups ---------------------------------------------------------------------------------------------

/** The step id occurrence at a document offset (its end included, so a cursor right after the id counts). */
export function stepOccurrenceAt(index: NavigationIndex, offset: number): StepOccurrence | undefined {
  let best: StepOccurrence | undefined;
  for (const o of index.steps) {
    if (o.start === undefined || o.end === undefined || offset < o.start || offset > o.end) continue;
    if (!best || o.end - o.start < best.end! - best.start!) best = o;
  }
  return best;
}

export function nameOccurrenceAt(index: NavigationIndex, offset: number): NameOccurrence | undefined {
  return index.names.find((o) => o.start !== undefined && o.end !== undefined && offset >= o.start && offset <= o.end);
}

/** Occurrences naming the same step as `occ`: by target, or for an unresolved id the same id unresolved in the same scope. */
export function sameStep(index: NavigationIndex, occ: StepOccurrence): StepOccurrence[] {
  if (occ.target) return index.steps.filter((o) => o.target === occ.target);
  return index.steps.filter((o) => !o.target && o.kind !== "id" && o.id === occ.id && o.scope === occ.scope);
}

/** Every occurrence of a step (its declaration first). */
export function occurrencesOfStep(index: NavigationIndex, step: StepFacts): StepOccurrence[] {
  return index.steps.filter((o) => o.target === step).sort((a, b) => Number(b.kind === "id") - Number(a.kind === "id"));
}

export function sameName(index: NavigationIndex, occ: NameOccurrence): NameOccurrence[] {
  return index.names.filter((o) => o.kind === occ.kind && o.name === occ.name);
}

/** The declaration occurrence of a step (its `id` value). */
export function declarationOf(index: NavigationIndex, step: StepFacts): StepOccurrence | undefined {
  return index.steps.find((o) => o.kind === "id" && o.target === step);
}
