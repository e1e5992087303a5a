// Hover: what is under the cursor, explained in Markdown.
// - a step id anywhere (declaration, needs entry, decision target, fanIn.outputStep, `steps.X`): the
//   step's type, model or tool, output mode and schema in short, maxVisits, needs and scope;
// - a model or tool (a step's `with.model` / `with.tool` / `onFailure.fixer.model`, or a
//   `permissions` entry): whether it is allowed and which steps use it;
// - inside `{{ }}`: functions, roots, step properties and schema properties;
// - keys and keyword values (`uses`, `output.mode`, `failureMode`, …);
// - a finding's range: what the rule is and how to fix it.
import { propertiesOf, schemaAt } from "./schemaInfo";
import { resolvePath, scopeOf } from "./typeChecks";
import { possibleValues } from "../lwir/dataTypes";
import { MarkupKind, type Hover, type Position, type Range } from "vscode-languageserver-types";
import { RULES } from "../lwir/codes";
import { ruleDocsUrl } from "./ruleDocs";
import { EXPRESSION_FUNCTIONS, EXPRESSION_ROOTS, STEP_PROPERTIES, parseExpression, templateAt, type ExprNode } from "../lwir/expressions";
import { valueAt } from "../lwir/path";
import type { PathSegment } from "../lwir/types";
import { API_VERSION, END, KIND, isObject } from "../lwir/validate";
import type { Analysis } from "./analysis";
import { editorRange } from "./diagnostics";
import { isMultiVisit, outputOf, stepAtPath, type ListFacts, type StepFacts, type WorkflowFacts } from "./stepFacts";
import {
  cachedSource,
  nameOccurrenceAt,
  navigationIndex,
  sameName,
  sourceSpan,
  stepOccurrenceAt,
  valueOffsetOf,
  type NameOccurrence,
  type NavigationIndex,
  type StepOccurrence,
} from "./references";
import { FAILURE_MODE_DOCS, FAN_IN_ORDER_DOCS, OUTPUT_MODE_DOCS, STEP_KEYS, STEP_TYPE_DOCS, withKeys } from "./snippets";

type Obj = Record<string, unknown>;

export function provideHover(analysis: Analysis, position: Position): Hover | null {
  const doc = analysis.document;
  const offset = doc.offsetAt(position);
  const index = navigationIndex(analysis);
  // The problems under the cursor come first: the editor shows a diagnostic's message just above the
  // hover, so its explanation and rule link belong right after it; what the word is follows, apart.
  const parts: string[] = [];
  let findingRange: Range | undefined;
  for (const f of analysis.findings) {
    // Where the editor shows it: a misspelt name inside the finding's node, a cycle on the edge closing it.
    const at = editorRange(analysis, f);
    if (!contains(at, position)) continue;
    const markdown = findingMarkdown(f.code);
    if (!parts.includes(markdown)) parts.push(markdown);
    findingRange ??= at;
  }
  let range: Range | undefined;
  if (index) {
    // With a problem shown above, the word's hover does not say it again (the id is unknown, repeated…).
    const found = stepHover(index, offset, parts.length > 0) ?? nameHover(index, offset) ?? expressionHover(index, analysis, offset) ?? keywordHover(index, analysis, offset, parts.length > 0);
    if (found) {
      if (found.markdown !== "") parts.push(found.markdown);
      range = doc.rangeAt(found.start, found.end);
    }
  }
  range ??= findingRange;
  if (parts.length === 0) return null;
  return { contents: { kind: MarkupKind.Markdown, value: parts.join("\n\n---\n\n") }, ...(range ? { range } : {}) };
}

interface Found {
  markdown: string;
  start: number;
  end: number;
}

function contains(range: Range, p: Position): boolean {
  const after = p.line > range.start.line || (p.line === range.start.line && p.character >= range.start.character);
  const before = p.line < range.end.line || (p.line === range.end.line && p.character <= range.end.character);
  return after && before;
}

const code = (s: string) => "`" + s.replace(/`/g, "'").replace(/[\r\n]+/g, " ") + "`";

// ---- steps -----------------------------------------------------------------------------------------

const KIND_WORDS: Record<StepOccurrence["kind"], string> = {
  id: "declaration",
  needs: "needs entry",
  case: "decision case target",
  default: "decision default target",
  outputStep: "fanIn.outputStep",
  expression: "expression reference",
};

function stepHover(index: NavigationIndex, offset: number, problemShown: boolean): Found | undefined {
  const occ = stepOccurrenceAt(index, offset);
  if (!occ || occ.start === undefined || occ.end === undefined) return undefined;
  // An id that names no step: the problem above says so, and there is no step to describe.
  if (problemShown && !occ.target && !(occ.kind === "id" && occ.scope.byId.has(occ.id))) return { markdown: "", start: occ.start, end: occ.end };
  const lines: string[] = [];
  if (occ.target) {
    lines.push(stepCard(occ.target, index.facts));
    if (occ.kind !== "id" && occ.target.list !== occ.scope) {
      const parent = occ.scope.parent;
      lines.push(`External step: this body reads it because ${parent ? `the parallel step ${code(parent.id)}` : "its parallel step"} needs it.`);
    }
    if (!problemShown && occ.kind === "expression" && occ.property === "output" && isMultiVisit(occ.target)) {
      lines.push(`${code(occ.target.id)} can run more than once: read ${code("lastOutput")} or ${code("allVisits")} instead of ${code("output")}.`);
    }
  } else if (occ.kind === "id") {
    const first = occ.scope.byId.get(occ.id);
    if (first) lines.push(problemShown ? `The first step with this id:\n\n${stepCard(first, index.facts)}` : `**${code(occ.id)}** repeats the id of an earlier step in this list; the first one wins every lookup.\n\n${stepCard(first, index.facts)}`);
    else if (!problemShown) lines.push(`**${code(occ.id)}** is not a valid step id.`);
  } else {
    const where = occ.kind === "case" || occ.kind === "default"
      ? "a step of this decision's list (or `end`)"
      : occ.kind === "outputStep"
        ? "a step of this parallel body"
        : occ.scope.parent || occ.scope.external.size > 0 ? "a step of this body or one its parallel step needs" : "a step of this list";
    lines.push(`**${code(occ.id)}**: no step with this id is in scope here. It must name ${where}.`);
  }
  lines.push(`*${KIND_WORDS[occ.kind]}*`);
  return { markdown: lines.join("\n\n"), start: occ.start, end: occ.end };
}

/** The step in short: type, model or tool, output, maxVisits, needs, scope. */
export function stepCard(step: StepFacts, facts: WorkflowFacts): string {
  const s = step.step;
  const uses = typeof s.uses === "string" ? s.uses : undefined;
  const w: Obj = isObject(s.with) ? s.with : {};
  const head = `**step ${code(step.id)}**${uses ? ` · ${code(uses)}` : ""}`;
  const items: string[] = [];
  if (uses === "ai.generate" && typeof w.model === "string") items.push(`model: ${code(w.model)}${facts.models.includes(w.model) ? "" : " (not in permissions.models)"}`);
  if (uses === "tool.call" && typeof w.tool === "string") items.push(`tool: ${code(w.tool)}${facts.tools.includes(w.tool) ? "" : " (not in permissions.tools)"}`);
  if (uses === "code.run" && typeof w.entrypoint === "string") items.push(`entrypoint: ${code(w.entrypoint)}`);
  if (uses === "parallel") {
    if (typeof w.items === "string") items.push(`items: ${code(w.items)}`);
    if (step.body) items.push(`body: ${step.body.steps.map((b) => code(b.id)).join(", ") || "(empty)"}`);
  }
  if (uses === "decision") {
    const targets: string[] = [];
    if (Array.isArray(w.cases)) for (const c of w.cases) if (isObject(c) && typeof c.to === "string") targets.push(c.to);
    if (typeof w.default === "string") targets.push(`${w.default} (default)`);
    items.push(targets.length ? `routes to: ${targets.map(code).join(", ")}` : "routes nowhere yet");
    items.push("output: none (a decision only routes)");
  } else {
    const out = outputOf(step);
    const mode = out && typeof out.mode === "string" ? out.mode : undefined;
    if (!mode) items.push("output: missing or without a mode");
    else {
      const schema = out && "schema" in out ? schemaSummary(out.schema) : "";
      items.push(`output: ${code(mode)}${schema ? ` — ${code(schema)}` : ""}`);
      if (mode === "choice" && Array.isArray(out!.values)) items.push(`values: ${out!.values.map((v) => code(String(v))).join(" | ")}`);
    }
  }
  const visits = s.maxVisits;
  items.push(visits === undefined ? "maxVisits: 1 (default: runs once)"
    : `maxVisits: ${String(visits)}${isMultiVisit(step) ? ` (may run again: read it with ${code("lastOutput")} or ${code("allVisits")})` : ""}`);
  if (step.needs.length) items.push(`needs: ${step.needs.map(code).join(", ")}`);
  const parent = step.list.parent;
  items.push(step.list.segments.length === 1 ? "scope: top level" : `scope: body of ${parent ? `parallel step ${code(parent.id)}` : "a parallel step"}`);
  const out = outputOf(step);
  const description = out && typeof out.description === "string" ? `\n\n${out.description}` : "";
  return `${head}\n\n${items.map((i) => `- ${i}`).join("\n")}${description}`;
}

// ---- models and tools ---------------------------------------------------------------------------------

function nameHover(index: NavigationIndex, offset: number): Found | undefined {
  const occ = nameOccurrenceAt(index, offset);
  if (!occ || occ.start === undefined || occ.end === undefined) return undefined;
  return { markdown: nameMarkdown(index, occ), start: occ.start, end: occ.end };
}

function nameMarkdown(index: NavigationIndex, occ: NameOccurrence): string {
  const all = sameName(index, occ);
  const list = `permissions.${occ.kind}s`;
  const allowed = all.some((o) => o.declaration);
  const uses = all.filter((o) => !o.declaration).sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
  const lines = [`**${occ.kind} ${code(occ.name)}**`];
  lines.push(allowed ? `Allowed: listed in ${code(list)}.`
    : `Not listed in ${code(list)}: every step using it is refused (${occ.kind === "tool" ? "tool.disallowed" : "model.disallowed"}).`);
  if (uses.length === 0) lines.push("No step uses it.");
  else {
    const by = uses.map((u) => `${u.ownerStep ? code(u.ownerStep.id) : "a step"}${u.field === "fixer.model" ? " (onFailure.fixer)" : ""}`);
    lines.push(`Used by ${by.join(", ")}.`);
  }
  return lines.join("\n\n");
}

// ---- expressions ---------------------------------------------------------------------------------------

function expressionHover(index: NavigationIndex, analysis: Analysis, offset: number): Found | undefined {
  const doc = analysis.document;
  const at = doc.pathAt(offset);
  if (!at || at.inKey || at.between) return undefined;
  const where = stepAtPath(index.facts, at.segments);
  if (!where || (where.rest[0] !== "with" && where.rest[0] !== "input")) return undefined;
  const src = cachedSource(index, doc, at.segments);
  if (!src) return undefined;
  const d = valueOffsetOf(src, offset);
  if (d === undefined) return undefined;
  const tmpl = templateAt(src.value, d);
  if (!tmpl) return undefined;
  const lead = tmpl.body.length - tmpl.body.trimStart().length;
  const base = tmpl.bodyStart + lead;
  const rel = d - base;
  const { node } = parseExpression(tmpl.body.trim());
  const hit = nodeAt(node, rel);
  if (!hit) return undefined;
  const span = (s: number, e: number) => sourceSpan(src, base + s, base + e);
  if (hit.kind === "function") {
    const f = EXPRESSION_FUNCTIONS.find((x) => x.name === hit.name);
    if (!f) return { markdown: `**${code(hit.name)}** · not an expression function\n\nThe functions: ${EXPRESSION_FUNCTIONS.map((x) => code(x.name)).join(", ")}.`, ...span(hit.start, hit.end) };
    const arity = f.maxArgs === undefined ? `${f.minArgs} or more arguments` : f.minArgs === f.maxArgs ? `${f.minArgs} argument${f.minArgs === 1 ? "" : "s"}` : `${f.minArgs}–${f.maxArgs} arguments`;
    return { markdown: `\`\`\`\n${f.signature}\n\`\`\`\n\n${f.doc}\n\n*function · ${arity}*`, ...span(hit.start, hit.end) };
  }
  if (hit.kind === "root") {
    const r = EXPRESSION_ROOTS.find((x) => x.name === hit.name);
    return r ? { markdown: `**${code(r.name)}** · expression root\n\n${r.doc}`, ...span(hit.start, hit.end) } : undefined;
  }
  // a segment after the root
  const path = hit.path;
  const names = path.segments.map((s) => (s.kind === "name" ? s.name : String(s.value)));
  const k = hit.segment;
  if (path.root === "steps") {
    const occ = index.steps.find((o) => o.kind === "expression" && o.refStart === base + path.start && sameSegments(o.segments, src.segments));
    const target = occ?.target;
    if (k === 1) {
      const prop = STEP_PROPERTIES.find((p) => p.name === names[1]);
      const text = prop ? `**${code(prop.name)}** · step property\n\n${prop.doc}` : `**${code(names[1])}**: not one of ${STEP_PROPERTIES.map((p) => code(p.name)).join(", ")}.`;
      const schema = target ? outputSchemaOf(target) : undefined;
      const shape = schema !== undefined && names[1] !== "allVisits" ? `\n\nShape: ${code(schemaSummary(schema))}` : "";
      return { markdown: text + shape, ...span(path.segments[1].start, path.segments[1].end) };
    }
    if (k >= 2 && target) {
      const rest = names[1] === "allVisits" ? names.slice(3) : names.slice(2);
      if (names[1] === "allVisits" && k === 2) return undefined;
      const declared = resolvedSchemaAt(analysis, where, path, k);
      const sub = declared !== undefined ? declared : schemaAt(outputSchemaOf(target), rest);
      return schemaHover(sub, rest, `${target.id} output`, span(path.segments[k].start, path.segments[k].end));
    }
    return undefined;
  }
  if (path.root === "input") {
    const input = index.facts.root.input;
    const declared = resolvedSchemaAt(analysis, where, path, k);
    const sub = declared !== undefined ? declared : schemaAt(isObject(input) ? input.schema : undefined, names.slice(0, k + 1));
    return schemaHover(sub, names.slice(0, k + 1), "workflow input", span(path.segments[k].start, path.segments[k].end));
  }
  if (path.root === "item") {
    const sub = resolvedSchemaAt(analysis, where, path, k);
    return schemaHover(sub, names.slice(0, k + 1), "items of the parallel step", span(path.segments[k].start, path.segments[k].end));
  }
  return undefined;
}

/**
 * The declared schema of a path up to its segment k, followed as the type checks follow it
 * (service/typeChecks.ts: lastOutput, allVisits[i], item, records, unions); undefined when undecided.
 */
function resolvedSchemaAt(analysis: Analysis, where: { list: ListFacts; step: StepFacts | undefined }, path: PathNode, k: number): unknown {
  try {
    const r = resolvePath(scopeOf(analysis, where.list, where.step), path);
    if (r.resolved.length === 0) return undefined;
    const i = k + 1 - r.rootSegments;
    return i >= 1 && i < r.resolved.length ? r.resolved[i].schema : undefined;
  } catch {
    return undefined;
  }
}

function sameSegments(a: readonly PathSegment[], b: readonly PathSegment[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

type PathNode = Extract<ExprNode, { kind: "path" }>;
type Hit =
  | { kind: "function"; name: string; start: number; end: number }
  | { kind: "root"; name: string; start: number; end: number }
  | { kind: "segment"; path: PathNode; segment: number };

/** The function name, root or path segment at `rel` (offsets within the trimmed body). */
function nodeAt(node: ExprNode | undefined, rel: number): Hit | undefined {
  let n = node;
  for (let guard = 0; n && guard < 400; guard++) {
    if (rel < n.start || rel > n.end) return undefined;
    switch (n.kind) {
      case "call":
        if (rel >= n.nameStart && rel <= n.nameEnd) return { kind: "function", name: n.name, start: n.nameStart, end: n.nameEnd };
        n = n.args.find((a) => rel >= a.start && rel <= a.end);
        break;
      case "binary":
        n = rel <= n.left.end ? n.left : n.right;
        break;
      case "error":
        n = n.partial;
        break;
      case "path": {
        if (rel >= n.rootStart && rel <= n.rootEnd) return { kind: "root", name: n.root, start: n.rootStart, end: n.rootEnd };
        const k = n.segments.findIndex((s) => rel >= s.start && rel <= s.end);
        return k >= 0 ? { kind: "segment", path: n, segment: k } : undefined;
      }
      default:
        return undefined;
    }
  }
  return undefined;
}

function outputSchemaOf(step: StepFacts): unknown {
  const out = outputOf(step);
  return out ? out.schema : undefined;
}

/** A property's card: its declared type, title, description and listed values. */
function schemaHover(sub: unknown, names: readonly string[], what: string, span: { start: number; end: number }): Found | undefined {
  if (sub === undefined) return undefined;
  const name = names[names.length - 1] ?? what;
  const lines = [`**${code(name)}**: ${code(schemaSummary(sub) || "any")}`];
  if (isObject(sub) && typeof sub.title === "string") lines.push(sub.title);
  if (isObject(sub) && typeof sub.description === "string") lines.push(sub.description);
  const values = possibleValues(sub);
  if (values && values.length > 0) lines.push(`Values: ${values.slice(0, 20).map((v) => code(JSON.stringify(v))).join(", ")}${values.length > 20 ? ", …" : ""}`);
  lines.push(`*in the ${what}*`);
  return { markdown: lines.join("\n\n"), ...span };
}

// ---- schemas in short ------------------------------------------------------------------------------------



const MAX_SUMMARY = 240;

/** A one-line TypeScript-like view of a schema: `{ summary: string, severity?: "low" | "high" }`. */
export function schemaSummary(schema: unknown): string {
  const text = summary(schema, 0);
  return text.length > MAX_SUMMARY ? text.slice(0, MAX_SUMMARY - 1) + "…" : text;
}

function summary(schema: unknown, depth: number): string {
  if (schema === true) return "any";
  if (schema === false) return "never";
  if (!isObject(schema)) return "";
  if (Array.isArray(schema.enum)) return schema.enum.slice(0, 8).map((v) => JSON.stringify(v)).join(" | ") + (schema.enum.length > 8 ? " | …" : "");
  if ("const" in schema) return JSON.stringify(schema.const);
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (union) return union.map((b) => summary(b, depth + 1) || "?").join(" | ");
  const t = schema.type;
  if (t === "array" || (t === undefined && schema.items !== undefined)) {
    const inner = depth < 3 ? summary(schema.items, depth + 1) : "…";
    return inner ? `${/[ |]/.test(inner) && !inner.startsWith("{") ? `(${inner})` : inner}[]` : "array";
  }
  if (t === "object" || (t === undefined && isObject(schema.properties))) {
    const props = propertiesOf(schema);
    if (props.length === 0) return isObject(schema.additionalProperties) ? `{ [key: string]: ${summary(schema.additionalProperties, depth + 1) || "any"} }` : "object";
    if (depth >= 3) return "{ … }";
    const shown = props.slice(0, 8).map((p) => `${p.name}${p.required ? "" : "?"}: ${summary(p.schema, depth + 1) || "any"}`);
    return `{ ${shown.join(", ")}${props.length > 8 ? ", …" : ""} }`;
  }
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return t.join(" | ");
  return "";
}

// ---- keys and keyword values ---------------------------------------------------------------------------

const TOP_KEYS: Record<string, string> = {
  apiVersion: `The LWIR version: always ${code(API_VERSION)}.`,
  kind: `The document kind: always ${code(KIND)}.`,
  metadata: "About the workflow: `name` (required), `version`, `description`.",
  input: "The workflow input contract: `schema`, a JSON Schema of the LWIR subset (`true` accepts anything). Read it with `{{ input.… }}`.",
  output: "The workflow output contract: `schema`. The one final top-level step produces the output.",
  permissions: "Allow-lists: the `models` and `tools` steps may use. `secrets` and `network` must stay empty in the alpha runtime.",
  steps: "The steps. A step runs once the steps in its `needs` have run; decisions route between them. Exactly one top-level step may be final.",
};
const METADATA_KEYS: Record<string, string> = {
  name: "The workflow name (required, non-empty).",
  version: "The author's version label (not checked).",
  description: "What the workflow does (not checked).",
};
const PERMISSION_KEYS: Record<string, string> = {
  models: "Model slot ids the steps may use (`with.model` of ai.generate, `onFailure.fixer.model`).",
  tools: "Tools the steps may call (`with.tool` of tool.call).",
  secrets: "Not implemented by the alpha runtime: must be empty.",
  network: "Not implemented by the alpha runtime: must be empty.",
};
const OUTPUT_KEYS: Record<string, string> = {
  mode: "How the result is read: `text`, `object`, `array`, `choice` or `json`.",
  schema: "A JSON Schema of the LWIR subset for the result (required for object and array).",
  values: "The strings a `choice` output picks from.",
  name: "A name for the output (a string).",
  description: "What the output holds (a string).",
};
const ON_FAILURE_KEYS: Record<string, string> = {
  repair: "ai.generate only: retry the generation until the output fits its schema (`mode: self`, `maxAttempts`).",
  fixer: "code.run only: a fixer model session repairs failing code for this run (`model`, `maxAttempts`, `system`).",
};
const REPAIR_KEYS: Record<string, string> = {
  mode: "`self`: repair on the step's own model (`escalate` is not implemented).",
  maxAttempts: "How many repair attempts (an integer of at least 1).",
  model: "Not implemented by the alpha runtime: remove it.",
};
const FIXER_KEYS: Record<string, string> = {
  model: "The fixer's model: one of `permissions.models`.",
  maxAttempts: "How many fix attempts (an integer of at least 1).",
  system: "Instructions for the fixer model (required).",
};
const FAN_IN_KEYS: Record<string, string> = {
  order: "The order of the fan-in array: `input` (as the items) or `itemKey`.",
  output: "Always `array`.",
  outputStep: "The body step whose `lastOutput` is each branch's result (not a decision). Default: the last non-decision step that ran.",
};
const SANDBOX_KEYS: Record<string, string> = {
  network: "Must be `deny` (or false): code.run gets no network.",
  env: "When given, `deny` (or false).",
  fs: "When given, `deny` (or false).",
};
const CASE_KEYS: Record<string, string> = {
  when: "A whole-string `{{ }}` template; the first case that holds wins.",
  to: "Where to go: a step of the decision's own list, or `end`.",
};
const FILE_KEYS: Record<string, string> = {
  content: "The file's source text.",
  sha256: "`sha256:` + the 64 lower-case hex digits of the SHA-256 of the content (UTF-8).",
};
const END_DOC = `${code(END)} finishes the current scope: the workflow at top level, the branch inside a parallel body.`;

function keywordHover(index: NavigationIndex, analysis: Analysis, offset: number, problemShown = false): Found | undefined {
  const doc = analysis.document;
  const at = doc.pathAt(offset);
  if (!at || at.between || at.segments.length === 0) return undefined;
  const segments = at.segments;
  const loc = doc.locate(segments);
  if (!loc) return undefined;
  const onKey = at.inKey;
  if (onKey && (loc.keyStart === undefined || loc.keyEnd === undefined)) return undefined;
  const start = onKey ? loc.keyStart! : loc.valueStart;
  const end = onKey ? loc.keyEnd! : loc.valueEnd;
  const key = segments[segments.length - 1];
  const value = valueAt(index.facts.root, segments);
  const result = (markdown: string | undefined): Found | undefined => (markdown ? { markdown, start, end } : undefined);

  const where = stepAtPath(index.facts, segments);
  if (!where) {
    if (segments.length === 1) {
      const docText = TOP_KEYS[String(key)];
      if (onKey) return result(docText && `**${code(String(key))}**\n\n${docText}`);
      if (key === "apiVersion" || key === "kind") return result(docText);
      return undefined;
    }
    if (onKey && segments.length === 2 && segments[0] === "metadata") return result(keyDoc(key, METADATA_KEYS[String(key)]));
    if (onKey && segments.length === 2 && segments[0] === "permissions") return result(keyDoc(key, PERMISSION_KEYS[String(key)]));
    if (onKey && segments.length === 2 && (segments[0] === "input" || segments[0] === "output") && key === "schema") {
      return result(keyDoc(key, `A JSON Schema of the LWIR subset for the workflow ${segments[0]} (\`true\` accepts anything).`));
    }
    return undefined;
  }
  const entry = isObject(where.entry) ? where.entry : undefined;
  const uses = entry?.uses;
  const rest = where.rest;
  const r = rest.map(String);
  const is = (...p: Array<string | number | null>) => rest.length === p.length && p.every((x, i) => x === null || rest[i] === x);
  if (onKey) {
    if (rest.length === 1) return result(keyDoc(key, STEP_KEYS.find((k) => k.key === r[0])?.doc));
    if (is("with", null)) {
      const w = withKeys(uses, { models: index.facts.models, tools: index.facts.tools, takenIds: new Set(), listIds: [] }).find((k) => k.key === r[1]);
      return result(keyDoc(key, w?.doc));
    }
    if (is("output", null)) return result(keyDoc(key, OUTPUT_KEYS[r[1]]));
    if (is("onFailure", null)) return result(keyDoc(key, ON_FAILURE_KEYS[r[1]]));
    if (is("onFailure", "repair", null)) return result(keyDoc(key, REPAIR_KEYS[r[2]]));
    if (is("onFailure", "fixer", null)) return result(keyDoc(key, FIXER_KEYS[r[2]]));
    if (is("with", "fanIn", null)) return result(keyDoc(key, FAN_IN_KEYS[r[2]]));
    if (is("with", "sandbox", null)) return result(keyDoc(key, SANDBOX_KEYS[r[2]]));
    if (is("with", "cardinality", "kind")) return result(keyDoc(key, "Always `matches_items`: one branch per item."));
    if (uses === "decision" && is("with", "cases", null, null)) return result(keyDoc(key, CASE_KEYS[r[3]]));
    if (uses === "code.run" && is("with", "files", null)) return result(keyDoc(key, "A pinned source file: `content` and its `sha256`. The name is a safe relative path."));
    if (uses === "code.run" && is("with", "files", null, null)) return result(keyDoc(key, FILE_KEYS[r[3]]));
    return undefined;
  }
  if (typeof value !== "string") return undefined;
  if (is("uses")) {
    const d = (STEP_TYPE_DOCS as Record<string, string>)[value];
    // (an unknown type has its problem above, which lists the types)
    return result(d ? `**${code(value)}** · step type\n\n${d}` : problemShown ? undefined : `${code(value)} is not a step type: use one of ${Object.keys(STEP_TYPE_DOCS).map(code).join(", ")}.`);
  }
  if (is("output", "mode")) {
    const d = (OUTPUT_MODE_DOCS as Record<string, string>)[value];
    return result(d ? `**${code(value)}** · output mode\n\n${d}` : undefined);
  }
  if (uses === "parallel" && is("with", "failureMode")) {
    const d = (FAILURE_MODE_DOCS as Record<string, string>)[value];
    return result(d ? `**${code(value)}** · failure mode\n\n${d}` : undefined);
  }
  if (uses === "parallel" && is("with", "fanIn", "order")) {
    const d = (FAN_IN_ORDER_DOCS as Record<string, string>)[value];
    return result(d ? `**${code(value)}** · fan-in order\n\n${d}` : undefined);
  }
  if (uses === "parallel" && is("with", "cardinality", "kind") && value === "matches_items") return result("`matches_items`: one branch per element of `items`.");
  if (uses === "decision" && value === END && (is("with", "default") || is("with", "cases", null, "to"))) return result(END_DOC);
  if (is("onFailure", "repair", "mode")) {
    if (value === "self") return result("`self`: the step's own model repairs its output.");
    if (value === "escalate") return result("`escalate`: repair on a stronger model. Not implemented by the alpha runtime; use `self`.");
  }
  return undefined;
}

function keyDoc(key: PathSegment, text: string | undefined): string | undefined {
  return text ? `**${code(String(key))}**\n\n${text}` : undefined;
}

// ---- findings ----------------------------------------------------------------------------------------------

const RULE_TEXT = new Map(RULES.map(([c, d]) => [c, d]));

/** How to fix each finding, in one line. */
const FIXES: Record<string, string> = {
  "lwir.non_hashable": "Remove what canonical JSON refuses: non-finite numbers, lone surrogates, cyclic YAML aliases, extreme nesting.",
  "schema.invalid": "Give the field the shape the format asks for; in a JSON Schema use only the LWIR subset (type, properties, required, additionalProperties, items, enum, const, anyOf, oneOf, the min/max bounds, propertyNames, description, title, examples).",
  "schema.unimplemented_field": "Remove the field (or leave secrets and network empty): the alpha runtime would ignore it.",
  "terminal.ambiguous": "Leave exactly one final step: list the others in a later step's `needs`, or route to them from a decision.",
  "step.invalid": "Write the entry as a step object with `id`, `uses` and (except for decisions) `output`.",
  "step.invalid_id": "Use a non-empty string without `.`, `[`, `]` or `@attempt_` (in YAML quote ids such as `007`).",
  "step.duplicate_id": "Give this step an id no other step of its list uses.",
  "step.invalid_needs": "Write `needs` as an array of step ids (non-empty strings).",
  "step.invalid_type": "Set `uses` to ai.generate, tool.call, code.run, parallel or decision.",
  "step.sensitive_must_be_boolean": "Write `true` or `false`, or remove `sensitive`.",
  "step.max_visits_out_of_range": "Use an integer from 1 to 100.",
  "step.missing_dependency": "Fix the id or add the step. A parallel body reads a top-level step only when its parallel step lists it in `needs`.",
  "step.undeclared_dependency": "List the step in this step's `needs` (the quick fix adds it).",
  "lwir.output_ambiguous_for_multi_visit": "Read `lastOutput` (the latest visit) or `allVisits` (every visit) instead of `output`.",
  "lwir.decision_target_referenced_by_needs": "Do not need a decision target that has needs of its own: it may never run. Route to this step from the decision, or need a step that always runs.",
  "lwir.invalid_cycle": "If the loop is an accident, remove the `needs` entry that closes it (the quick fix offers each one that breaks it). Only for a loop you mean: put a decision step on it that can leave it, and give every step on it `maxVisits` of at least 2.",
  "output.invalid": "Give the step an `output` object with a `mode`: text, object, array, choice or json.",
  "output.invalid_metadata": "Make `output.name` and `output.description` strings, or remove them.",
  "output.missing_schema": "Add `output.schema` (required for object and array; for json when other steps read the output).",
  "output.missing_values": "Add `output.values`, e.g. `values: [approve, reject]`.",
  "output.invalid_values": "Make every choice value a string.",
  "output.invalid_for_step": "A parallel step's output mode is `array`: the fan-in envelopes.",
  "decision.output_not_allowed": "Remove `output`: a decision only routes.",
  "decision.default_required": "Set `with.default` to a step of this list, or `end`.",
  "decision.case_invalid": "Write each case as `{when: \"{{ … }}\", to: <step id or end>}`.",
  "decision.target_not_in_scope": "Route to a step of the decision's own list, or to `end` to finish.",
  "expression.invalid": "Balance the braces and keep to the expression language: paths from input, steps, item, workflow or step, the listed functions, literals, one comparison, `&&` and `||`.",
  "model.missing": "Set `with.model` to a model listed in `permissions.models`.",
  "model.disallowed": "Add the model to `permissions.models`, or use one listed there.",
  "tool.missing": "Set `with.tool` to a tool listed in `permissions.tools`.",
  "tool.disallowed": "Add the tool to `permissions.tools`, or use one listed there.",
  "code.invalid_config": "Make `with` an object with `entrypoint`, `files` and `sandbox`.",
  "code.missing_entrypoint": "Set `with.entrypoint` to the .ts file to run, one of the files.",
  "code.invalid_entrypoint": "Use a safe relative path ending in .ts that is a key of `with.files`.",
  "code.missing_files": "Add `with.files`: file name → `{content, sha256}`.",
  "code.invalid_file_path": "Use a relative path without a leading `/`, backslashes, or empty, `.` or `..` segments.",
  "code.invalid_file": "Write the file as `{content: \"…\", sha256: \"sha256:…\"}`.",
  "code.invalid_file_hash": "Set `sha256` to `sha256:` + the 64 lower-case hex digits of the content's SHA-256.",
  "code.missing_sandbox": "Add `with.sandbox: {network: deny}`.",
  "code.invalid_sandbox": "Set `network` (and `env`/`fs` when present) to `deny` or false.",
  "fixer.invalid_config": "Make `onFailure` and `onFailure.fixer` objects.",
  "fixer.unsupported_step": "Use `onFailure.fixer` on code.run steps only (ai.generate has `repair`).",
  "fixer.model.missing": "Set `fixer.model` to a model listed in `permissions.models`.",
  "fixer.model.disallowed": "Add the model to `permissions.models`, or use one listed there.",
  "fixer.max_attempts_invalid": "Use an integer of at least 1.",
  "fixer.system_missing": "Write `fixer.system`: the fixer model's instructions.",
  "repair.invalid_config": "Make `onFailure.repair` an object: `{mode: self, maxAttempts: 2}`.",
  "repair.unsupported_step": "Use `onFailure.repair` on ai.generate steps only (code.run has `fixer`).",
  "repair.invalid_mode": "Set `repair.mode` to `self`.",
  "repair.invalid_max_attempts": "Use an integer of at least 1.",
  "parallel.invalid": "Make `with` an object: items, itemKey, cardinality, maxBranches, maxConcurrency, failureMode, fanIn.",
  "parallel.invalid_items": "Write `items` as exactly one template, e.g. `{{ input.list }}`, with nothing around it.",
  "parallel.invalid_item_key": "Write `itemKey` as exactly one template that uses `item`, e.g. `{{ item.id }}`.",
  "parallel.invalid_cardinality": "Set `with.cardinality` to `{kind: matches_items}`.",
  "parallel.invalid_branches": "Use an integer from 1 to 100.",
  "parallel.invalid_concurrency": "Use an integer from 1 to `maxBranches`.",
  "parallel.invalid_failure_mode": "Use `fail_fast` or `all_settled`.",
  "parallel.invalid_fan_in": "Write `fanIn` as `{order: input, output: array}` and let the output schema's `items` describe the envelope (itemKey, status, artifacts, and output, outputRef or error).",
  "parallel.fan_in_output_step_invalid": "Name a step of this parallel body that is not a decision, or remove `outputStep`.",
  "parallel.missing_steps": "Add the body: a non-empty `steps` array.",
  "parallel.nested_unsupported": "Move this parallel step out of the body: parallel steps do not nest.",
};

/** The rule, its fix and its page (the editor shows the finding's own message with the diagnostic). */
function findingMarkdown(findingCode: string): string {
  const rule = RULE_TEXT.get(findingCode);
  const fix = FIXES[findingCode];
  const page = ruleDocsUrl(findingCode);
  // The message above says what is wrong, in this document's names: the hover adds how to fix it and
  // where to read more, and says the rule's summary only when there is no fix to give.
  const lines = [`**${code(findingCode)}**${!fix && rule ? ` — ${rule}` : ""}`];
  if (fix) lines.push(`*How to fix:* ${fix}`);
  if (page) lines.push(`[Examples and details of ${code(findingCode)}](${page})`);
  return lines.join("\n\n");
}
