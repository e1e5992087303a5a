// Semantic tokens for what TextMate cannot know: which step ids resolve in their scope.
// Tokens sit on the id text only (no quotes, no `steps.` prefix) of: step `id` values (declarations),
// `needs` entries, decision targets (`with.default`, `with.cases[].to`; `end` is built in), a parallel
// step's `with.fanIn.outputStep`, and `steps.X` / `steps["X"]` in the templates of `with` and `input`.
// Scopes follow the validator (stepFacts.ts): a body step reads its own list and what its parallel step needs.
import type { SemanticTokens, SemanticTokensLegend } from "vscode-languageserver-types";
import type { LwirDocument } from "../document/types";
import { stepReferencesOf } from "../lwir/expressions";
import { forEachStepString, valueAt } from "../lwir/path";
import type { PathSegment } from "../lwir/types";
import { END, isObject, stepIdProblem } from "../lwir/validate";
import type { Analysis } from "./analysis";
import { factsOf, type ListFacts } from "./stepFacts";
import { spanInString } from "./stringSource";

/** Token types: a step id that resolves (or declares a step), and one that names no step in scope. */
export const TOKEN_TYPES = ["function", "variable"] as const;
/** `unresolved` comes with the `variable` type, so themes can style it without knowing the modifier. */
export const TOKEN_MODIFIERS = ["declaration", "defaultLibrary", "unresolved"] as const;
export const SEMANTIC_TOKENS_LEGEND: SemanticTokensLegend = { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] };

export type StepOccurrenceKind = "declaration" | "needs" | "target" | "outputStep" | "expression";

/** A step id written in the document, with where its text is. */
export interface StepOccurrence {
  id: string;
  kind: StepOccurrenceKind;
  /** The id names a step in scope (declarations always do). */
  resolved: boolean;
  /** The decision target `end`. */
  builtin?: boolean;
  /** Source offsets of the id's text. */
  start: number;
  end: number;
}

const cache = new WeakMap<Analysis, SemanticTokens>();

export function provideSemanticTokens(analysis: Analysis): SemanticTokens {
  let tokens = cache.get(analysis);
  if (!tokens) {
    tokens = encodeTokens(analysis.document, stepOccurrences(analysis));
    cache.set(analysis, tokens);
  }
  return tokens;
}

/** Every step id occurrence of the document, in source order, without overlaps. */
export function stepOccurrences(analysis: Analysis): StepOccurrence[] {
  const facts = factsOf(analysis);
  if (!facts) return [];
  const doc = analysis.document;
  const out: StepOccurrence[] = [];
  const bodyOf = new Map<string, ListFacts>();
  for (const list of facts.lists) bodyOf.set(JSON.stringify(list.segments), list);
  for (const list of facts.lists) {
    const inScope = (id: string) => list.byId.has(id) || list.external.has(id);
    list.entries.forEach((entry, i) => {
      if (!isObject(entry)) return;
      const at = [...list.segments, i];
      const whole = (segments: PathSegment[], id: unknown, kind: StepOccurrenceKind, resolved: boolean, builtin = false) => {
        if (typeof id !== "string" || id.length === 0) return;
        const span = spanInString(doc, segments, id, 0, id.length);
        if (span) out.push({ id, kind, resolved, ...(builtin ? { builtin } : {}), start: span[0], end: span[1] });
      };
      if (stepIdProblem(entry.id) === undefined) whole([...at, "id"], entry.id, "declaration", true);
      if (Array.isArray(entry.needs)) {
        entry.needs.forEach((need, k) => {
          if (typeof need === "string") whole([...at, "needs", k], need, "needs", inScope(need));
        });
      }
      const w = entry.with;
      if (entry.uses === "decision" && isObject(w)) {
        const target = (segments: PathSegment[], id: unknown) => {
          if (typeof id === "string") whole(segments, id, "target", id === END || list.byId.has(id), id === END);
        };
        target([...at, "with", "default"], w.default);
        if (Array.isArray(w.cases)) {
          w.cases.forEach((c, k) => { if (isObject(c)) target([...at, "with", "cases", k, "to"], c.to); });
        }
      }
      if (entry.uses === "parallel" && isObject(w) && isObject(w.fanIn) && typeof w.fanIn.outputStep === "string") {
        const id = w.fanIn.outputStep;
        const body = bodyOf.get(JSON.stringify([...at, "steps"]));
        const resolved = body !== undefined && body.entries.some((s) => isObject(s) && s.id === id);
        whole([...at, "with", "fanIn", "outputStep"], id, "outputStep", resolved);
      }
      for (const part of ["with", "input"] as const) {
        forEachStepString(entry[part], [...at, part], (s, segments) => {
          for (const ref of stepReferencesOf(s)) {
            const idAt = idOffsetInReference(s, ref.start, ref.stepId);
            if (idAt === undefined) continue;
            const span = spanInString(doc, segments, s, idAt, idAt + ref.stepId.length);
            if (span) out.push({ id: ref.stepId, kind: "expression", resolved: inScope(ref.stepId), start: span[0], end: span[1] });
          }
        });
      }
    });
  }
  out.sort((a, b) => a.start - b.start || a.end - b.end);
  return out.filter((o, k) => k === 0 || o.start >= out[k - 1].end);
}

/** Where the id starts in a reference `steps.X…` or `steps["X"]…` at `start` of the string. */
function idOffsetInReference(s: string, start: number, id: string): number | undefined {
  const after = start + 5; // "steps"
  let at: number;
  if (s[after] === ".") at = after + 1;
  else if (s[after] === "[" && (s[after + 1] === '"' || s[after + 1] === "'")) {
    at = after + 2;
    if (s[at + id.length] !== s[after + 1]) return undefined; // an id written with escapes
  } else return undefined;
  return s.startsWith(id, at) ? at : undefined;
}

/** LSP's relative encoding: line delta, start delta, length, type, modifier bits. */
export function encodeTokens(doc: LwirDocument, occurrences: readonly StepOccurrence[]): SemanticTokens {
  const data: number[] = [];
  let line = 0;
  let character = 0;
  for (const o of occurrences) {
    const p = doc.positionAt(o.start);
    const type = o.resolved ? 0 : 1;
    let modifiers = 0;
    if (o.kind === "declaration") modifiers |= 1 << 0;
    if (o.builtin) modifiers |= 1 << 1;
    if (!o.resolved) modifiers |= 1 << 2;
    data.push(p.line - line, p.line === line ? p.character - character : p.character, o.end - o.start, type, modifiers);
    line = p.line;
    character = p.character;
  }
  return { data };
}
