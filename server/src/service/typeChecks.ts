// Type-aware checks of expressions against the data a workflow declares (issue #17): `input.schema`,
// each step's output (text, choice `values`, a json/object/array `schema`) and the element schema of
// a parallel step's `items`. The runtime accepts `{{ steps.summarize.output.sumary }}` and fails (or, in
// coalesce, silently skips it) when the workflow runs; these warnings say so while the text is written.
//
// Never findings: they do not change `valid` or the WorkflowVersion. Only strings the runtime
// evaluates as templates, and only templates it accepts (a string with a finding gets nothing more);
// whenever a schema does not decide (anyOf with an open branch, a free-form object, no schema) nothing
// is said (lwir/dataTypes.ts).
import type { PathSegment } from "../lwir/types";
import { checkTemplateString, checkWholeTemplate, parseExpression, scanTemplates, type ExprNode, type PathSegmentNode, type TemplateMatch } from "../lwir/expressions";
import { canBeArray, lookupIndex, lookupProperty, possibleValues, typesOf, type Lookup } from "../lwir/dataTypes";
import { isObject } from "../lwir/validate";
import type { Analysis } from "./analysis";
import { factsOf, type ListFacts, type StepFacts } from "./stepFacts";
import { closeNames } from "./didYouMean";
import { forEachWithString, walkStrings } from "./evaluatedStrings";

export const UNKNOWN_PROPERTY = "lwir.unknown_property";
export const PROPERTY_OF_SCALAR_OUTPUT = "lwir.property_of_scalar_output";
export const IMPOSSIBLE_COMPARISON = "lwir.impossible_comparison";
export const ITEMS_NOT_ARRAY = "lwir.items_not_array";

export const TYPE_CHECK_CODES: readonly string[] = [UNKNOWN_PROPERTY, PROPERTY_OF_SCALAR_OUTPUT, IMPOSSIBLE_COMPARISON, ITEMS_NOT_ARRAY];

export interface TypeNotice {
  code: string;
  /** The string holding the expression. */
  segments: PathSegment[];
  /** The offending text's offsets in the string's value: a property name, a compared literal, the items path. */
  start: number;
  end: number;
  message: string;
  /** What was written at [start, end) and the declared names close to it, nearest first (the quick fix's choices). */
  word?: string;
  suggestions?: string[];
  /** PROPERTY_OF_SCALAR_OUTPUT: the path from the offending segment (with its dot or bracket) to its end, and the value read without it. */
  rest?: { start: number; end: number; base: string };
  /** UNKNOWN_PROPERTY on `input.NAME`: the workflow input declares no such property (declareInputFix.ts). */
  inputProperty?: string;
}

/** Where an expression is evaluated: the step list it is in (which steps it reads, what `item` is). */
export interface ExpressionScope {
  list: ListFacts;
  step: StepFacts | undefined;
  itemAllowed: boolean;
  /** The workflow's `input.schema`, when declared. */
  inputSchema: unknown;
  /** The element schema of the enclosing parallel step's items, when known. */
  itemSchema: unknown;
}

/** A resolved path prefix: the schema of its value and, for outputs without properties, which mode. */
export interface Resolved {
  schema: unknown;
  /** `text` or `choice` when the value is such a step output (its properties are PROPERTY_OF_SCALAR_OUTPUT). */
  scalarMode?: "text" | "choice";
  /** The text of the path so far, e.g. `steps.review.output`. */
  text: string;
}

/** Schemas made up for output modes (text, choice) and allVisits arrays: what they stand for. */
const madeUp = new WeakMap<object, "text" | "choice">();

const cache = new WeakMap<Analysis, TypeNotice[]>();

/** All type notices of a document, in document order (cached per analysis). */
export function findTypeNotices(analysis: Analysis): TypeNotice[] {
  let out = cache.get(analysis);
  if (!out) {
    try {
      out = computeNotices(analysis);
    } catch {
      // a convenience: an odd document must not cost the diagnostics
      out = [];
    }
    cache.set(analysis, out);
  }
  return out;
}

function computeNotices(analysis: Analysis): TypeNotice[] {
  const out: TypeNotice[] = [];
  const doc = analysis.document;
  if (doc.parseErrors.length > 0 || !isObject(doc.value)) return out;
  const facts = factsOf(analysis);
  if (!facts) return out;
  // Strings the runtime already refuses get no second word.
  const refused = new Set<string>();
  for (const f of analysis.findings) {
    refused.add(key(f.segments));
    const d = f.details as { stringPath?: PathSegment[] } | undefined;
    if (d && Array.isArray(d.stringPath)) refused.add(key(d.stringPath));
  }
  // The validator checks every template of these strings and reports a refused one on the string
  // itself, unless it stopped early (a document it cannot canonicalise): then screen them here.
  const screened = !analysis.findings.some((f) => f.code === "lwir.non_hashable");
  for (const list of facts.lists) {
    const declared = new Map<unknown, StepFacts>(list.steps.map((s) => [s.step, s]));
    // the list's scope once (a body's `item` resolves its parallel step's items)
    const listScope = scopeOf(analysis, list, undefined);
    list.entries.forEach((entry, i) => {
      if (!isObject(entry)) return;
      const stepSegments = [...list.segments, i];
      const scope: ExpressionScope = { ...listScope, step: declared.get(entry) };
      const visit = (value: unknown, segments: PathSegment[], whole: boolean, within = scope) => {
        if (typeof value !== "string" || value.indexOf("{{") < 0 || !MAY_CHECK.test(value) || refused.has(key(segments))) return;
        if (whole && checkWholeTemplate(value, within.itemAllowed) !== undefined) return;
        if (screened) {
          // no finding on this string: the validator scanned and screened it and accepted every template
          const scan = scanTemplates(value);
          if (scan.malformedAt === undefined) checkString(within, scan.matches, segments, out);
          return;
        }
        const check = checkTemplateString(value, within.itemAllowed);
        if (check.status === "ok") checkString(within, check.matches, segments, out);
      };
      const w = isObject(entry.with) ? entry.with : undefined;
      forEachWithString(entry, stepSegments, (value, segments, role) => {
        // itemKey is evaluated once per element: `item` is this step's own element
        if (role === "itemKey") visit(value, segments, true, { ...scope, itemAllowed: true, itemSchema: elementOf(scope, w?.items) });
        else visit(value, segments, role !== "text");
      });
      if (entry.uses === "parallel" && w && typeof w.items === "string" && !refused.has(key([...stepSegments, "with", "items"])) && checkWholeTemplate(w.items, scope.itemAllowed) === undefined) {
        itemsCheck(scope, w.items, [...stepSegments, "with", "items"], out);
      }
      walkStrings(entry.input, [...stepSegments, "input"], (v, s) => visit(v, s, false));
    });
  }
  return out;
}

/** The scope of expressions in a step of `list`. */
export function scopeOf(analysis: Analysis, list: ListFacts, step: StepFacts | undefined): ExpressionScope {
  const root = analysis.document.value;
  const input = isObject(root) && isObject(root.input) ? root.input : undefined;
  const inputSchema = input && Object.prototype.hasOwnProperty.call(input, "schema") ? input.schema : undefined;
  const parent = list.parent;
  const itemSchema = parent && isObject(parent.step.with) ? elementOf(scopeOf(analysis, parent.list, parent), parent.step.with.items) : undefined;
  return { list, step, itemAllowed: list.parent !== undefined || list.segments.length > 1, inputSchema, itemSchema };
}

/** The declared element schema of a parallel step's `items` (read in `scope`), when it is a path to a declared array. */
function elementOf(scope: ExpressionScope, items: unknown): unknown {
  if (typeof items !== "string") return undefined;
  const resolved = resolveWholeTemplate(scope, items);
  if (!resolved) return undefined;
  const element = lookupIndex(resolved.schema, 0);
  return element.kind === "found" ? element.schema : undefined;
}

/** The value of a whole-string template that is a single path, resolved to its end; undefined when undecided. */
function resolveWholeTemplate(scope: ExpressionScope, s: string): Resolved | undefined {
  const m = /^\{\{([^{}]+)\}\}$/.exec(s);
  if (!m) return undefined;
  const { node, errors } = parseExpression(m[1].trim());
  if (!node || errors.length > 0 || node.kind !== "path") return undefined;
  const r = resolvePath(scope, node);
  return r.problem === undefined && r.resolved.length === node.segments.length + 1 - r.rootSegments ? r.resolved[r.resolved.length - 1] : undefined;
}

/**
 * The declared schema of a path read in the string at `segments` (a parallel step's `itemKey` reads its
 * own element as `item`), when the schemas decide it to its end; undefined otherwise. The run-time
 * checks (run/checks) read declared types through this.
 */
export function declaredSchemaAt(analysis: Analysis, segments: readonly PathSegment[], node: Extract<ExprNode, { kind: "path" }>): unknown {
  const at = stepScopes(analysis).get(key(segments.slice(0, segments.length >= 4 && segments[2] === "steps" && typeof segments[3] === "number" ? 4 : 2)));
  if (!at) return undefined;
  const rest = segments.slice(at.step.segments.length);
  const scope = rest.length === 2 && rest[0] === "with" && rest[1] === "itemKey" ? at.itemKeyScope() : at.scope;
  const r = resolvePath(scope, node);
  return r.problem === undefined && r.resolved.length === node.segments.length + 1 - r.rootSegments ? r.resolved[r.resolved.length - 1].schema : undefined;
}

/** Each declared step's expression scope by its path, once per analysis (a parallel step's itemKey scope when asked). */
const scopeCache = new WeakMap<Analysis, Map<string, { step: StepFacts; scope: ExpressionScope; itemKeyScope: () => ExpressionScope }>>();

function stepScopes(analysis: Analysis): Map<string, { step: StepFacts; scope: ExpressionScope; itemKeyScope: () => ExpressionScope }> {
  let out = scopeCache.get(analysis);
  if (out) return out;
  out = new Map();
  for (const list of factsOf(analysis)?.lists ?? []) {
    const listScope = scopeOf(analysis, list, undefined);
    for (const step of list.steps) {
      const scope = { ...listScope, step };
      const w = isObject(step.step.with) ? step.step.with : undefined;
      out.set(key(step.segments), { step, scope, itemKeyScope: () => ({ ...scope, itemAllowed: true, itemSchema: elementOf(scope, w?.items) }) });
    }
  }
  scopeCache.set(analysis, out);
  return out;
}

export interface PathResolution {
  /** How many segments the root took (`steps.x.output`: 2; `input`: 0). */
  rootSegments: number;
  /** The resolved prefixes: the root's value, then one per further segment while the schemas decide. */
  resolved: Resolved[];
  /** The segment whose name the schema rules out, and what it says. */
  problem?: { segment: PathSegmentNode; name: string; at: Resolved; lookup: Lookup };
}

/** A path resolved as far as the declared schemas go. */
export function resolvePath(scope: ExpressionScope, node: Extract<ExprNode, { kind: "path" }>): PathResolution {
  const none: PathResolution = { rootSegments: 0, resolved: [] };
  const root = rootOf(scope, node);
  if (!root) return none;
  const out: PathResolution = { rootSegments: root.segments, resolved: [root.value] };
  let current = root.value;
  for (let k = root.segments; k < node.segments.length; k++) {
    const seg = node.segments[k];
    const text = current.text + pathSuffix(seg);
    let lookup: Lookup;
    if (current.scalarMode) {
      if (seg.kind === "index" && !seg.quoted) break;
      lookup = { kind: "noProperties", type: current.scalarMode };
    } else if (seg.kind === "name" || (seg.kind === "index" && seg.quoted)) {
      lookup = lookupProperty(current.schema, String(seg.kind === "name" ? seg.name : seg.value));
    } else {
      lookup = lookupIndex(current.schema, Number(seg.value));
    }
    if (lookup.kind === "found") {
      current = { schema: lookup.schema, text, ...(isObject(lookup.schema) && madeUp.has(lookup.schema) ? { scalarMode: madeUp.get(lookup.schema) } : {}) };
      out.resolved.push(current);
      continue;
    }
    if (lookup.kind !== "unknown") out.problem = { segment: seg, name: String(seg.kind === "name" ? seg.name : seg.value), at: current, lookup };
    break;
  }
  return out;
}

function pathSuffix(seg: PathSegmentNode): string {
  return seg.kind === "name" ? `.${seg.name}` : seg.quoted ? `[${JSON.stringify(seg.value)}]` : `[${seg.value}]`;
}

/** The declared value at the start of a path: `input`, `item`, or a step's output, lastOutput or allVisits. */
function rootOf(scope: ExpressionScope, node: Extract<ExprNode, { kind: "path" }>): { value: Resolved; segments: number } | undefined {
  if (node.root === "input") return scope.inputSchema === undefined ? undefined : { value: { schema: scope.inputSchema, text: "input" }, segments: 0 };
  if (node.root === "item") return scope.itemAllowed && scope.itemSchema !== undefined ? { value: { schema: scope.itemSchema, text: "item" }, segments: 0 } : undefined;
  if (node.root !== "steps" || node.segments.length < 2) return undefined;
  const [idSeg, propSeg] = node.segments;
  const id = idSeg.kind === "name" ? idSeg.name : idSeg.quoted ? String(idSeg.value) : undefined;
  if (id === undefined || propSeg.kind !== "name") return undefined;
  // its own list first, then the steps a body reads through its parallel step's needs (stepFacts.ts readableSteps)
  const target = scope.list.byId.get(id) ?? scope.list.external.get(id);
  if (!target) return undefined;
  const output = outputValue(target);
  if (!output) return undefined;
  const text = `steps${pathSuffix(idSeg)}.${propSeg.name}`;
  if (propSeg.name === "output" || propSeg.name === "lastOutput") return { value: { ...output, text }, segments: 2 };
  if (propSeg.name === "allVisits") {
    const visits = { type: "array", items: output.schema };
    return { value: { schema: visits, text }, segments: 2 };
  }
  return undefined;
}

type OutputValue = { schema: unknown; scalarMode?: "text" | "choice" } | undefined;
const outputs = new WeakMap<object, OutputValue>();

/** What a step's output is, from its declared mode (once per step object). */
export function outputValue(step: StepFacts): OutputValue {
  if (outputs.has(step.step)) return outputs.get(step.step);
  const value = computeOutputValue(step);
  outputs.set(step.step, value);
  return value;
}

function computeOutputValue(step: StepFacts): OutputValue {
  if (step.uses === "decision") return undefined;
  const output = step.step.output;
  if (!isObject(output)) return undefined;
  if (output.mode === "text") return { schema: madeUpSchema({ type: "string" }, "text"), scalarMode: "text" };
  if (output.mode === "choice") {
    if (!Array.isArray(output.values) || !output.values.every((v) => typeof v === "string")) return undefined;
    return { schema: madeUpSchema({ type: "string", enum: output.values }, "choice"), scalarMode: "choice" };
  }
  if ((output.mode === "object" || output.mode === "array" || output.mode === "json") && Object.prototype.hasOwnProperty.call(output, "schema")) {
    return { schema: output.schema };
  }
  return undefined;
}

function madeUpSchema(schema: object, mode: "text" | "choice"): object {
  madeUp.set(schema, mode);
  return schema;
}

// ---- the checks --------------------------------------------------------------------------------------

/**
 * The cheap gate before a string is parsed: something the checks can speak about, a property read after
 * `input`, `item` or a step's result, or an equality comparison.
 */
const MAY_CHECK = /(?:input|item|utput|allVisits)\s*[.[]|[=!]=/;

function checkString(scope: ExpressionScope, matches: readonly TemplateMatch[], segments: PathSegment[], out: TypeNotice[]): void {
  for (const m of matches) {
    const { node, errors } = parseExpression(m.body);
    if (!node || errors.length > 0) continue;
    const stack: ExprNode[] = [node];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n.kind === "path") propertyCheck(scope, n, m.bodyStart, segments, out);
      else if (n.kind === "call") for (let k = n.args.length - 1; k >= 0; k--) stack.push(n.args[k]);
      else if (n.kind === "binary") {
        if (n.op === "==" || n.op === "!=" || n.op === "===" || n.op === "!==") comparisonCheck(scope, n, m.bodyStart, segments, out);
        stack.push(n.right, n.left);
      }
    }
  }
}

function propertyCheck(scope: ExpressionScope, node: Extract<ExprNode, { kind: "path" }>, offset: number, segments: PathSegment[], out: TypeNotice[]): void {
  const { problem } = resolvePath(scope, node);
  if (!problem) return;
  const { segment, name, at, lookup } = problem;
  // The name itself, without its dot or brackets (a quoted index keeps its quotes).
  const start = offset + segment.start + 1;
  const end = offset + segment.end - (segment.kind === "name" ? 0 : 1);
  if (at.scalarMode) {
    const what = at.scalarMode === "text" ? "the text of a step with output mode text" : `one of the choice values (${valuesText(at.schema)})`;
    out.push({
      code: PROPERTY_OF_SCALAR_OUTPUT, segments, start, end, message: `${at.text} is ${what}: it has no property "${name}". Use ${at.text} itself.`,
      rest: { start: offset + segment.start, end: offset + node.end, base: at.text },
    });
    return;
  }
  if (lookup.kind === "noProperties") {
    out.push({ code: UNKNOWN_PROPERTY, segments, start, end, message: `${at.text} is declared as ${article(lookup.type)}: it has no property "${name}".` });
    return;
  }
  if (lookup.kind !== "undeclared") return;
  const suggestions = segment.kind === "name" ? closeNames(name, lookup.declared, 3).map((s) => s.name) : [];
  const listed = lookup.declared.length === 0 ? "declares no properties" : `declares ${shortList(lookup.declared)}`;
  const mean = suggestions.length > 0 ? ` Did you mean "${suggestions[0]}"?` : "";
  // A step that declares its own `input` with this name and reads `{{ input.name }}` (runtime semantics 7
  // and 8.2): the expression root is the workflow's input; the step's input goes to its model or tool.
  const own = at.text === "input" ? scope.step?.step.input : undefined;
  const message = own !== null && typeof own === "object" && !Array.isArray(own) && Object.prototype.hasOwnProperty.call(own, name)
    ? `"${name}" is not a declared property of input: in an expression, input is the workflow's input, and its schema ${listed}. ` +
      `The "${name}" of this step's own input is not read there: ${stepInputGoesTo(scope.step?.uses)}.${mean}`
    : `"${name}" is not a declared property of ${at.text}: its schema ${listed}.${mean}`;
  out.push({
    code: UNKNOWN_PROPERTY, segments, start, end,
    message,
    ...(segment.kind === "name" ? { word: name, suggestions } : {}),
    ...(node.root === "input" && at.text === "input" ? { inputProperty: name } : {}),
  });
}

/** Where the runtime sends a step's own `input` (runtime semantics 7, 8.2). */
function stepInputGoesTo(uses: unknown): string {
  if (uses === "ai.generate") return 'the runtime sends the step\'s input to the model after the prompt, under "Input:"';
  if (uses === "tool.call") return "the runtime passes the step's input to the tool";
  return "the runtime hands the step's input to the step";
}

function comparisonCheck(scope: ExpressionScope, node: Extract<ExprNode, { kind: "binary" }>, offset: number, segments: PathSegment[], out: TypeNotice[]): void {
  const [path, literal] = node.left.kind === "path" && node.right.kind === "literal" ? [node.left, node.right]
    : node.right.kind === "path" && node.left.kind === "literal" ? [node.right, node.left] : [undefined, undefined];
  if (!path || !literal || literal.type === "null") return;
  const r = resolvePath(scope, path);
  if (r.problem || r.resolved.length !== path.segments.length + 1 - r.rootSegments) return;
  const at = r.resolved[r.resolved.length - 1];
  const values = possibleValues(at.schema);
  if (!values || values.length === 0) return;
  const strict = node.op === "===" || node.op === "!==";
  // Loose equality converts between types; only same-typed values are decided.
  if (!strict && values.some((v) => typeof v !== typeof literal.value)) return;
  if (values.some((v) => v === literal.value)) return;
  const always = node.op === "!=" || node.op === "!==" ? "is always true" : "can never be true";
  const written = String(literal.value);
  const inner = literal.type === "string";
  const suggestions = inner && typeof literal.value === "string" ? closeNames(literal.value, values.filter((v): v is string => typeof v === "string"), 3).map((s) => s.name) : [];
  const mean = suggestions.length > 0 ? ` Did you mean "${suggestions[0]}"?` : "";
  // The string literal's text without its quotes (the quick fix replaces that), else the whole literal.
  const start = offset + literal.start + (inner ? 1 : 0);
  const end = offset + literal.end - (inner ? 1 : 0);
  out.push({
    code: IMPOSSIBLE_COMPARISON, segments, start, end,
    message: `${at.text} is one of ${valuesText(at.schema, values)}, so ${node.op} ${JSON.stringify(literal.value)} ${always}.${mean}`,
    ...(inner && !/\\/.test(written) ? { word: written, suggestions } : {}),
  });
}

function itemsCheck(scope: ExpressionScope, items: string, segments: PathSegment[], out: TypeNotice[]): void {
  const m = /^\{\{([^{}]+)\}\}$/.exec(items);
  if (!m) return;
  const body = m[1].trim();
  const bodyStart = 2 + m[1].indexOf(body);
  const { node, errors } = parseExpression(body);
  if (!node || errors.length > 0 || node.kind !== "path") return;
  const r = resolvePath(scope, node);
  if (r.problem || r.resolved.length !== node.segments.length + 1 - r.rootSegments) return;
  const at = r.resolved[r.resolved.length - 1];
  if (!at.scalarMode && canBeArray(at.schema) !== false) return;
  const type = at.scalarMode ?? (typesOf(at.schema)?.join(" or ") ?? "something other than an array");
  out.push({
    code: ITEMS_NOT_ARRAY, segments, start: bodyStart + node.start, end: bodyStart + node.end,
    message: `A parallel step runs once per element of an array, but ${at.text} is declared as ${at.scalarMode === "text" ? "text" : at.scalarMode === "choice" ? "a choice" : article(type)}.`,
  });
}

// ---- helpers ----------------------------------------------------------------------------------------

function key(segments: readonly PathSegment[]): string {
  return segments.join("\u0000");
}

function valuesText(schema: unknown, values = possibleValues(schema) ?? []): string {
  return shortList(values.map((v) => JSON.stringify(v)), false);
}

function shortList(names: readonly string[], quote = true): string {
  const shown = names.slice(0, 8).map((n) => (quote ? `"${n}"` : n));
  return shown.join(", ") + (names.length > 8 ? `, … (${names.length} in all)` : "");
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
