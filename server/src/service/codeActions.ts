// Quick fixes for LWIR diagnostics, and the "add all missing needs entries" fix-all.
// Each fix reads what to change from the diagnostic's `data` (service/diagnostics.ts) and the cached
// analysis, writes a minimal edit (service/edits.ts), and is offered only when it leaves the document
// cleaner: the targeted finding gone and no new one. Where that cannot be promised (a needs entry that
// would close a cycle, maxVisits on a cycle that also lacks a decision step), nothing is offered.
// quickFixes() is the one source of fixes for the light bulb and for `lwir validate --fix`
// (service/autofix.ts), which applies only those marked `auto`.
import { forEachStepString, valueAt } from "../lwir/path";
import {
  CodeActionKind,
  type CodeAction,
  type CodeActionContext,
  type Diagnostic,
  type Range,
  type TextEdit,
  type WorkspaceEdit,
} from "vscode-languageserver-types";
import type { PathSegment } from "../lwir/types";
import { API_VERSION, KIND, decisionTargets, isObject, validNeeds, validateLwir, visitsEnoughForCycle } from "../lwir/validate";
import { inferNeeds, needsToAdd } from "../lwir/needs";
import { isCycle, stronglyConnected, type Graph } from "../lwir/graph";
import type { Analysis, RangedFinding } from "./analysis";
import {
  EMPTY_DOCUMENT, PARSE_CODE, SOURCE, YAML_UNQUOTED_TEMPLATE, editorRange, emptyDocumentDiagnostic, isEmptyDocument, stepPrefix,
  toDiagnostics, type LwirDiagnosticData,
} from "./diagnostics";
import { expandSnippet, newWorkflowSnippet, renderDocument } from "./snippets";
import { newWorkflowEdits } from "./emptyDocument";
import type { ParseValue } from "../document/types";
import { parseYaml } from "../document/yaml";
import { quoteYaml } from "../document/yamlQuote";
import {
  type EditableDocument, type OffsetEdit,
  addNeedsEntries, addProperty, appendToArray, applyEdits, quoteYamlText, removeArrayElements, removeProperty, replaceInString, setProperty, setValue,
} from "./edits";
import { stepReferencesOf } from "../lwir/expressions";
import { factsOf } from "./stepFacts";
import { spanInString } from "./stringSource";
import { FIX_ALL_KIND } from "../protocol";
import { OWN_RULES } from "../lwir/codes";
import { closeNames, editDistance, maxDistance, nameFixes, nameSiteOf, type NameFix, type NameSite } from "./didYouMean";
import { IMPOSSIBLE_COMPARISON, PROPERTY_OF_SCALAR_OUTPUT, UNKNOWN_PROPERTY, findTypeNotices } from "./typeChecks";
import { didYouMeanPropertyFixes } from "./typeFixes";
import { replacementFixes } from "./runNotices";
import { ITEM_KEY_NOT_STRING, LOOP_READ_BEFORE_RUN } from "../run/checks";
import { choiceValuesFixes } from "./choiceValuesFix";
import { scalarOutputFixes } from "./scalarOutputFix";
import { declareInputFixes } from "./declareInputFix";
import { missingCommaFixes } from "./jsonCommaFix";
import { fixAllInFile } from "./fixAllInFile";
import type { RuleLevels } from "./rules";
import { UNKNOWN_KEY, unknownKeyFixes } from "./unknownKeys";

export const FIX_ALL_TITLE = "Add all missing needs entries";

/** What `textDocument/codeAction` sends (CodeActionParams, without the protocol package). */
export interface CodeActionRequest {
  textDocument: { uri: string };
  range: Range;
  context: CodeActionContext;
}

/**
 * What a fix is for, as ESLint's fix types: `problem` fixes a runtime finding (the runtime refuses the
 * document), `lint` fixes a notice of one of LWIR Tools' own checks. `lwir validate --fix-type` picks them.
 */
export type FixKind = "problem" | "lint";

/**
 * An edit of a fix; `snippet`, when set, is the same edit as a snippet (`${1:value}` tab stops) for
 * clients that take snippet edits (LSP 3.18 SnippetTextEdit); others and `lwir validate --fix` use newText.
 */
export interface FixEdit extends OffsetEdit {
  snippet?: string;
}

/** A fix before it becomes an LSP CodeAction (or an edit `lwir validate --fix` applies). */
export interface Fix {
  title: string;
  edits: FixEdit[];
  preferred?: boolean;
  /**
   * The one right fix, safe to apply without a person choosing (`lwir validate --fix`): it removes the
   * problem, adds none, and never picks between two names. Other fixes are offered in the editor only.
   */
  auto?: boolean;
}

/** A fix marked with what it is for. */
export interface KindedFix extends Fix {
  kind: FixKind;
}

/** Makes fixes for a diagnostic of one code, from its `data` and the analysis it was made from. */
export interface FixProducer {
  kind: FixKind;
  /**
   * The fixes, best first; an empty list when the data no longer matches the text (the editor may send
   * a diagnostic of an older version). Mark with `auto: true` the fix that may be applied unasked.
   */
  fixes(analysis: Analysis, data: LwirDiagnosticData): Fix[];
}

/**
 * Fix producers by code, beside the built-in fixes of the runtime's findings (fixesFor below), in the
 * order they are offered. One line plugs a check's fixes into both the editor's quick fixes and
 * `lwir validate --fix`:
 *   ["lwir.some_code", [{ kind: "lint", fixes: someCodeFixes }]],
 */
const FIX_PRODUCERS: ReadonlyMap<string, readonly FixProducer[]> = new Map<string, FixProducer[]>([
  [UNKNOWN_PROPERTY, [{ kind: "lint", fixes: didYouMeanPropertyFixes }, { kind: "lint", fixes: declareInputFixes }]],
  [IMPOSSIBLE_COMPARISON, [{ kind: "lint", fixes: didYouMeanPropertyFixes }]],
  [PROPERTY_OF_SCALAR_OUTPUT, [{ kind: "lint", fixes: scalarOutputFixes }]],
  ["output.missing_values", [{ kind: "problem", fixes: choiceValuesFixes }]],
  // A problem fix, like quoting a YAML template: the runtime drops what the author wrote, whatever follows from it.
  [UNKNOWN_KEY, [{ kind: "problem", fixes: unknownKeyFixes }]],
  [LOOP_READ_BEFORE_RUN, [{ kind: "lint", fixes: replacementFixes }]],
  [ITEM_KEY_NOT_STRING, [{ kind: "lint", fixes: replacementFixes }]],
]);

/**
 * The kind of the built-in fixes of a code: `problem` for the runtime's findings, `lint` for our own
 * notices. An unquoted `{{ }}` in YAML counts as a problem: the runtime reads a mapping where the author
 * wrote a template, whether or not a finding follows from it.
 */
function kindOfCode(code: string): FixKind {
  if (code === "lwir.yaml_unquoted_template") return "problem";
  return OWN_RULES.some((r) => r.code === code) ? "lint" : "problem";
}

/**
 * Every fix for one diagnostic: what the editor's quick fixes offer and what `lwir validate --fix`
 * applies (its `auto` ones), so both make the same edits. Never throws: a fix is a convenience, and
 * an odd document must not cost the other fixes.
 */
export function quickFixes(analysis: Analysis, data: LwirDiagnosticData): KindedFix[] {
  const out: KindedFix[] = [];
  try {
    const kind = kindOfCode(data.code);
    for (const fix of fixesFor(analysis, data)) out.push({ ...fix, kind });
  } catch {
    // no built-in fix for an odd document; a registered producer may still have one
  }
  for (const producer of FIX_PRODUCERS.get(data.code) ?? []) {
    try {
      for (const fix of producer.fixes(analysis, data)) out.push({ ...fix, kind: producer.kind });
    } catch {
      // the built-in fixes above and the other producers still count
    }
  }
  return out;
}

/** What the client and the user's settings decide about code actions. */
export interface CodeActionOptions {
  /** The client applies snippet edits in a workspace edit (`workspace.workspaceEdit.snippetEditSupport`). */
  snippetEdits?: boolean;
  /** The levels of our own rules (lwir.lint.rules): "Fix all in file" leaves the notices that are off alone. */
  rules?: RuleLevels;
}

export function provideCodeActions(analysis: Analysis, params: CodeActionRequest, options: CodeActionOptions = {}): CodeAction[] {
  const doc = analysis.document;
  const only = params.context.only;
  const wants = (kind: string) => !only || only.some((k) => kind === k || kind.startsWith(k + "."));
  const uri = params.textDocument.uri;
  const toAction = (fix: Fix, kind: string, diagnostics: Diagnostic[]): CodeAction => ({
    title: fix.title,
    kind,
    ...(diagnostics.length > 0 ? { diagnostics } : {}),
    ...(fix.preferred ? { isPreferred: true } : {}),
    edit: workspaceEdit(analysis, uri, fix.edits, options.snippetEdits === true),
  });
  // "Fix all in file" (source.fixAll.lwir): asked for by kind only (the command, editor.codeActionsOnSave).
  const fixAll = only !== undefined && wants(FIX_ALL_KIND) ? fixAllInFile(analysis, options.rules) : undefined;
  const fixAllActions = fixAll ? [toAction(fixAll, FIX_ALL_KIND, [])] : [];
  if (isEmptyDocument(doc)) return wants(CodeActionKind.QuickFix) ? [newWorkflowAction(analysis, params)] : [];
  if (doc.parseErrors.length > 0) {
    if (!wants(CodeActionKind.QuickFix)) return fixAllActions;
    return [...(doc.format === "yaml" ? parseErrorActions(analysis, params) : commaActions(analysis, params, toAction)), ...fixAllActions];
  }
  if (doc.value === undefined) return [];
  const actions: CodeAction[] = [];
  const byKey = new Map<string, CodeAction>();

  const ours = ourDiagnostics(analysis, params);
  if (wants(CodeActionKind.QuickFix)) {
    for (const diagnostic of ours) {
      const data = diagnostic.data as LwirDiagnosticData;
      if (!current(analysis, data)) continue;
      for (const fix of quickFixes(analysis, data)) {
        // The same fix for several diagnostics (three reads of one step, say) is offered once.
        const key = fix.title + "\u0000" + JSON.stringify(fix.edits);
        const existing = byKey.get(key);
        if (existing) {
          existing.diagnostics!.push(diagnostic);
          continue;
        }
        const action = toAction(fix, CodeActionKind.QuickFix, [diagnostic]);
        byKey.set(key, action);
        actions.push(action);
      }
    }
  }

  // Every missing needs entry at once (catalog sections 7 and 11), as a quick fix only when it does more
  // than the single fix next to it.
  const undeclared = ours.filter((d) => (d.data as LwirDiagnosticData).code === "step.undeclared_dependency");
  if (wants(CodeActionKind.QuickFix) && undeclared.length > 0) {
    const fix = fixAllNeeds(analysis);
    if (fix && fix.count > 1) actions.push(toAction(fix.fix, CodeActionKind.QuickFix, undeclared));
  }
  actions.push(...fixAllActions);
  return actions;
}

/** The edits of a fix for the document: snippet edits (a TextDocumentEdit) where the fix has them and the client takes them. */
function workspaceEdit(analysis: Analysis, uri: string, edits: readonly FixEdit[], snippets: boolean): WorkspaceEdit {
  if (snippets && edits.some((e) => e.snippet !== undefined)) {
    const text = analysis.document.text;
    return {
      documentChanges: [{
        textDocument: { uri, version: null },
        edits: edits.map((e) => (e.snippet !== undefined
          ? { range: analysis.document.rangeAt(e.start, e.end), snippet: { kind: "snippet", value: snippetRelativeToLine(text, e.start, e.snippet) } } as unknown as TextEdit
          : textEdit(analysis, e))),
      }],
    };
  }
  return { changes: { [uri]: edits.map((e) => textEdit(analysis, e)) } };
}

/**
 * A snippet's lines after the first, without the indentation of the line it is inserted in: VS Code adds
 * that indentation to each of them when it inserts a snippet (as it does for typed snippets), so a snippet
 * written with the document's own indentation would land indented twice.
 */
export function snippetRelativeToLine(text: string, at: number, snippet: string): string {
  const lineStart = text.lastIndexOf("\n", at - 1) + 1;
  let end = lineStart;
  while (text[end] === " " || text[end] === "\t") end++;
  const indent = text.slice(lineStart, Math.min(end, at));
  if (indent === "") return snippet;
  return snippet.split("\n").map((line, i) => (i > 0 && line.startsWith(indent) ? line.slice(indent.length) : line)).join("\n");
}

// ---- JSON syntax errors that a comma fixes (jsonCommaFix.ts) -----------------------------------------

/**
 * "Insert the missing comma" for each such error at the range. VS Code's JSON support reports JSON syntax
 * errors in its place (the client leaves ours out: client/src/jsonSyntaxErrors.ts), so the diagnostics the
 * action names are the sent ones at the error, whoever made them.
 */
function commaActions(analysis: Analysis, params: CodeActionRequest,
  toAction: (fix: Fix, kind: string, diagnostics: Diagnostic[]) => CodeAction): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const { problem, fix } of missingCommaFixes(analysis.document, (p) => overlaps(p.range, params.range))) {
    const sent = (params.context.diagnostics ?? []).filter((d) => overlaps(d.range, problem.range));
    actions.push(toAction(fix, CodeActionKind.QuickFix, sent));
  }
  return actions;
}

// ---- an empty document ------------------------------------------------------------------------------

export const NEW_WORKFLOW_TITLE = "New workflow";

/** The text of a new workflow in the document's format (the completion's snippet, every default accepted). */
export function newWorkflowText(format: "json" | "yaml"): string {
  return expandSnippet(renderDocument(newWorkflowSnippet(), { format, indent: 0, unit: 2 }));
}

/**
 * "New workflow" for an empty document (emptyDocument.ts): it replaces white space and a JSON `{}`; YAML
 * comments and `---` lines are kept and the workflow written after them.
 */
function newWorkflowAction(analysis: Analysis, params: CodeActionRequest): CodeAction {
  const doc = analysis.document;
  const edits = newWorkflowEdits(doc.text, doc.format, newWorkflowText(doc.format));
  const sent = (params.context.diagnostics ?? []).filter((d) => d.source === SOURCE && isData(d.data) && d.data.code === EMPTY_DOCUMENT);
  return {
    title: NEW_WORKFLOW_TITLE,
    kind: CodeActionKind.QuickFix,
    diagnostics: sent.length > 0 ? sent : [emptyDocumentDiagnostic()],
    isPreferred: true,
    edit: { changes: { [params.textDocument.uri]: edits.map((e) => textEdit(analysis, e)) } },
  };
}

// ---- YAML syntax errors on a value that needs quotes (document/yamlErrors.ts) ------------------------

export const QUOTE_VALUE_TITLE = "Quote this value";
export const BLOCK_SCALAR_TITLE = "Use a block scalar (|)";

/** "Quote this value" (preferred) and "Use a block scalar (|)" for each parse error on such a value. */
function parseErrorActions(analysis: Analysis, params: CodeActionRequest): CodeAction[] {
  const doc = analysis.document;
  const sent = (params.context.diagnostics ?? []).filter((d) => d.source === SOURCE && isData(d.data) && d.data.code === PARSE_CODE);
  const diagnostics = sent.length > 0 ? sent : cachedDiagnostics(analysis).filter((d) => d.code === PARSE_CODE && overlaps(d.range, params.range));
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    const sentValue = (diagnostic.data as LwirDiagnosticData).parseValue;
    // Only for a value the current text still has there, read from the current parse.
    const value = sentValue && doc.parseErrors.find((p) => p.value && p.value.start === sentValue.start && p.value.end === sentValue.end && p.value.text === sentValue.text)?.value;
    if (!value) continue;
    const fixes: Fix[] = [
      { title: QUOTE_VALUE_TITLE, edits: [quoteValueEdit(value)], preferred: true },
      { title: BLOCK_SCALAR_TITLE, edits: blockScalarEdits(doc.text, value) },
    ];
    for (const fix of fixes) {
      // Offered only when the value no longer breaks the document (fewer errors, none inside it).
      const after = parseYaml(applyEdits(doc.text, fix.edits));
      if (after.parseErrors.length >= doc.parseErrors.length) continue;
      actions.push({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        ...(fix.preferred ? { isPreferred: true } : {}),
        edit: { changes: { [params.textDocument.uri]: fix.edits.map((e) => textEdit(analysis, e)) } },
      });
    }
  }
  return actions;
}

/** "Quote this value": the value YAML could not read, as the quoted string the author meant (also `lwir validate --fix`'s, for a template: autofix.ts). */
export function quoteValueEdit(value: ParseValue): OffsetEdit {
  return { start: value.start, end: value.end, newText: quoteYaml(value.text) };
}

/**
 * `key: text` → `key: |` and the text on the next lines, one level (two spaces) deeper than the key; the
 * lines of a multi-line value stay lines. A comment after the value stays on the `|` line.
 */
function blockScalarEdits(text: string, value: ParseValue): OffsetEdit[] {
  const raw = text.slice(value.start, value.end);
  const lines = /[\r\n]/.test(raw) ? raw.split(/\r\n|\r|\n/).map((l) => l.trim()) : [value.text];
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const pad = " ".repeat(value.indent + 2);
  let lineEnd = value.end;
  while (lineEnd < text.length && text[lineEnd] !== "\n" && text[lineEnd] !== "\r") lineEnd++;
  const body = lines.map((l) => eol + (l === "" ? "" : pad + l)).join("");
  if (lineEnd === value.end) return [{ start: value.start, end: value.end, newText: "|" + body }];
  return [
    { start: value.start, end: value.end, newText: "|" },
    { start: lineEnd, end: lineEnd, newText: body },
  ];
}

/** Every inferred needs entry of the document as one fix, or undefined when there is none. */
const fixAllCache = new WeakMap<Analysis, { fix: Fix; count: number } | undefined>();

export function fixAllNeeds(analysis: Analysis): { fix: Fix; count: number } | undefined {
  // Asked for on every light-bulb request near such a diagnostic: once per document version.
  if (fixAllCache.has(analysis)) return fixAllCache.get(analysis);
  const result = computeFixAll(analysis);
  fixAllCache.set(analysis, result);
  return result;
}

function computeFixAll(analysis: Analysis): { fix: Fix; count: number } | undefined {
  const doc = analysis.document;
  const entries = inferNeeds(doc.value, { includeExternal: true });
  const groups = new Map<string, { segments: PathSegment[]; ids: string[] }>();
  for (const e of entries) {
    const key = JSON.stringify(e.stepSegments);
    const group = groups.get(key) ?? { segments: e.stepSegments, ids: [] };
    group.ids.push(e.id);
    groups.set(key, group);
  }
  const edits: OffsetEdit[] = [];
  let count = 0;
  for (const group of groups.values()) {
    const e = addNeedsEntries(doc, group.segments, group.ids);
    if (!e) continue;
    edits.push(...e);
    count += group.ids.length;
  }
  if (count === 0) return undefined;
  return { fix: { title: FIX_ALL_TITLE, edits }, count };
}

// ---- which diagnostics ------------------------------------------------------------------------------

const diagnosticsCache = new WeakMap<Analysis, Diagnostic[]>();

/**
 * The client's LWIR diagnostics in the request; when it sent none of ours (some clients send no
 * context), the current ones overlapping the requested range, from the same cached analysis.
 */
function ourDiagnostics(analysis: Analysis, params: CodeActionRequest): Diagnostic[] {
  const sent = (params.context.diagnostics ?? []).filter((d) => d.source === SOURCE && isData(d.data));
  if (sent.length > 0) return sent;
  // Cheap way out for the common case (a cursor on no problem): no finding there, and no YAML hint possible.
  const doc = analysis.document;
  const lines = doc.text.slice(doc.offsetAt({ line: params.range.start.line, character: 0 }), doc.offsetAt({ line: params.range.end.line + 1, character: 0 }));
  const hints = doc.format === "yaml" && lines.includes("{{");
  // (A cycle's diagnostic sits on the needs entry closing it, and a misspelt name's on the name: see editorRange.)
  if (!hints && !analysis.findings.some((f) => overlaps(editorRange(analysis, f), params.range)) && findTypeNotices(analysis).length === 0) return [];
  return cachedDiagnostics(analysis).filter((d) => overlaps(d.range, params.range));
}

function cachedDiagnostics(analysis: Analysis): Diagnostic[] {
  let all = diagnosticsCache.get(analysis);
  if (!all) {
    all = toDiagnostics(analysis);
    diagnosticsCache.set(analysis, all);
  }
  return all;
}

function isData(data: unknown): data is LwirDiagnosticData {
  return isObject(data) && typeof data.code === "string" && typeof data.path === "string" && Array.isArray(data.segments);
}

/** A diagnostic from an older version may name what is no longer there: only current ones are fixed. */
function current(analysis: Analysis, data: LwirDiagnosticData): boolean {
  if (data.code === YAML_UNQUOTED_TEMPLATE) {
    const t = data.unquotedTemplate;
    return t !== undefined && analysis.document.text.slice(t.start, t.end) === t.text;
  }
  // A registered producer checks its own data against the text.
  if (FIX_PRODUCERS.has(data.code)) return true;
  return analysis.findings.some((f) => f.code === data.code && f.path === data.path);
}

function overlaps(a: Range, b: Range): boolean {
  const before = (p: Range["start"], q: Range["start"]) => p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

function textEdit(analysis: Analysis, e: OffsetEdit): TextEdit {
  return { range: analysis.document.rangeAt(e.start, e.end), newText: e.newText };
}

// ---- the fixes, by code -----------------------------------------------------------------------------

function fixesFor(analysis: Analysis, data: LwirDiagnosticData): Fix[] {
  const doc = analysis.document;
  const fixes: Fix[] = [];
  const add = (title: string, edits: OffsetEdit[] | undefined, preferred = false, auto = false) => {
    if (edits && edits.length > 0) fixes.push({ title, edits, ...(preferred ? { preferred } : {}), ...(auto ? { auto } : {}) });
  };
  const segments = data.segments;
  // "Did you mean …" first: the names the runtime accepts here that are close to the one written.
  const typos = typoFixes(analysis, data);
  fixes.push(...typos);
  switch (data.code) {
    case "step.undeclared_dependency": {
      const step = data.step?.segments ?? stepPrefix(segments);
      const id = data.targetStepId;
      if (!step || typeof id !== "string") break;
      if (!needsToAdd(doc.value, step, id, { allowExternal: true }).add) break;
      // Beside a misspelt needs entry for the same step, adding the id is second best: it leaves the typo
      // (and then it is no fix to apply unasked). needsToAdd never adds an entry that closes a cycle.
      add(`Add "${id}" to the needs of ${stepName(data, step)}`, addNeedsEntries(doc, step, [id]), typos.length === 0, typos.length === 0);
      break;
    }
    case "lwir.output_ambiguous_for_multi_visit": {
      const span = data.output;
      const value = valueAt(doc.value, segments);
      if (!span || typeof value !== "string" || value.slice(span.valueStart, span.valueEnd) !== "output") break;
      const source = span.start !== undefined && span.end !== undefined ? { start: span.start, end: span.end } : undefined;
      const target = data.targetStepId ?? data.reference?.stepId;
      add(`Read ${target !== undefined ? `steps.${target}.` : ""}lastOutput instead of output`,
        replaceInString(doc, segments, span.valueStart, span.valueEnd, "lastOutput", source), true, true);
      break;
    }
    case "lwir.invalid_cycle": {
      // Removing an edge first: a loop nobody meant is the usual case; making it a loop comes second.
      const removals = removeNeedsFixes(analysis, data);
      const [title, edits] = cycleFix(analysis, data);
      const alone = removals.length === 1 && edits === undefined;
      // The only fix there is needs no choice: `lwir validate --fix` removes that entry too.
      for (const r of removals) add(r.title, r.edits, alone, alone);
      add(title, edits, false);
      break;
    }
    case "schema.unimplemented_field": {
      const last = segments[segments.length - 1];
      const parent = segments.slice(0, -1);
      if (data.path === "$.permissions.secrets" || data.path === "$.permissions.network") {
        add(`Empty permissions.${last}`, setValue(doc, segments, []), true);
        add(`Remove permissions.${last}`, removeProperty(doc, parent, last as string));
      } else if (last === "cache" && stepPrefix(segments)?.length === parent.length) {
        add(`Remove cache from ${stepName(data, parent)}`, removeProperty(doc, parent, "cache"), true);
      } else if (last === "model" && parent[parent.length - 1] === "repair") {
        add("Remove repair.model", removeProperty(doc, parent, "model"), true);
      }
      break;
    }
    case "schema.invalid": {
      if (data.path !== "$.apiVersion" && data.path !== "$.kind") break;
      const key = data.path === "$.apiVersion" ? "apiVersion" : "kind";
      const expected = typeof data.expected === "string" ? data.expected : key === "apiVersion" ? API_VERSION : KIND;
      const root = doc.value;
      if (!isObject(root)) break;
      const options = key === "apiVersion" || !Object.prototype.hasOwnProperty.call(root, "apiVersion") ? { first: true } : { after: ["apiVersion"] };
      add(`Set ${key} to "${expected}"`, setProperty(doc, [], key, expected, options), true);
      break;
    }
    case "parallel.invalid_cardinality": {
      // Path S.with.cardinality.kind, even when cardinality is missing (catalog 3.11).
      const withSegments = segments.slice(0, -2);
      const cardinality = valueAt(doc.value, [...withSegments, "cardinality"]);
      const edits = isObject(cardinality)
        ? setProperty(doc, [...withSegments, "cardinality"], "kind", "matches_items")
        : setProperty(doc, withSegments, "cardinality", { kind: "matches_items" }, { after: ["items", "itemKey"] });
      add(`Set cardinality to {kind: "matches_items"}`, edits, true);
      break;
    }
    case "model.disallowed":
    case "fixer.model.disallowed":
    case "tool.disallowed":
      fixes.push(...permissionFixes(analysis, data, new Set(typos.map((t) => t.title))));
      break;
    case YAML_UNQUOTED_TEMPLATE:
      break;
  }
  // The unquoted `{{ … }}` fix, from the hint itself and from any finding on such a value.
  const t = data.unquotedTemplate;
  if (t && doc.format === "yaml" && doc.text.slice(t.start, t.end) === t.text) {
    add(`Put ${shorten(t.text)} in quotes`, quoteYamlText(doc, t.start, t.end), data.code === YAML_UNQUOTED_TEMPLATE, true);
  }
  return fixes;
}

/** `"id"` or "this step". */
function stepName(data: LwirDiagnosticData, stepSegments: readonly PathSegment[]): string {
  const id = data.step && sameSegments(data.step.segments, stepSegments) ? data.step.id : undefined;
  return id !== undefined ? `"${id}"` : "this step";
}

/**
 * "Did you mean …" fixes for the finding a diagnostic is about. A `step.undeclared_dependency` caused by
 * a misspelt needs entry of the same step (`needs: [classfy]` beside a read of `steps.classify`) gets
 * the same fix as that entry's own finding: correct the entry.
 */
function typoFixes(analysis: Analysis, data: LwirDiagnosticData): Fix[] {
  const finding = analysis.findings.find((f) => f.code === data.code && f.path === data.path && sameDetails(f, data));
  if (!finding) return [];
  const target = { code: finding.code, path: finding.path };
  const site = nameSiteOf(analysis, finding);
  if (site) {
    const fixed = nameFixes(analysis, site, target);
    // Applied unasked only when one name is close at all (and it validates): a fixer never guesses between two.
    return typoTitles(analysis, site, fixed, data, fixed.length === 1 && closeNames(site.word, site.candidates, 2).length === 1);
  }
  const id = data.targetStepId;
  const step = data.step?.segments ?? stepPrefix(data.segments);
  if (data.code !== "step.undeclared_dependency" || typeof id !== "string" || !step) return [];
  const out: Fix[] = [];
  for (const f of analysis.findings) {
    if (f.code !== "step.missing_dependency" || f.details?.kind !== "needsEntry") continue;
    const word = f.details.stepId;
    if (!sameSegments(stepPrefix(f.segments) ?? [], step) || editDistance(word, id, maxDistance(word)) > maxDistance(word)) continue;
    const entry = nameSiteOf(analysis, f);
    if (!entry || !entry.candidates.includes(id)) continue;
    const fixed = nameFixes(analysis, { ...entry, candidates: [id] }, target);
    out.push(...typoTitles(analysis, entry, fixed, data));
  }
  return out.slice(0, 1);
}

/** Several findings can share a code and path (two references in one string, two targets of one decision): the one `data` is about. */
function sameDetails(f: RangedFinding, data: LwirDiagnosticData): boolean {
  const d = f.details;
  switch (d?.kind) {
    case "decisionTarget": return d.target === data.targetStepId;
    case "reference": return data.reference === undefined || (d.start === data.reference.valueStart && d.stepId === data.reference.stepId);
    case "needsEntry": return d.needsIndex === data.needsIndex;
    default: return true;
  }
}

/** The fixes of the suggestions, the nearest preferred when no other is as near; `auto`: the only one may be applied unasked. */
function typoTitles(analysis: Analysis, site: NameSite, fixed: NameFix[], data: LwirDiagnosticData, auto = false): Fix[] {
  return fixed.map((s, i) => {
    let title = site.what === "name" ? `Change "${site.word}" to "${s.name}"` : `Use the allowed ${site.what} "${s.name}"`;
    const added = s.replacement.addedNeeds;
    if (added.length > 0) {
      const step = data.step?.segments ?? stepPrefix(data.segments);
      title += ` and add ${added.map((a) => `"${a}"`).join(", ")} to the needs of ${step ? stepName(data, step) : "this step"}`;
    }
    const preferred = i === 0 && (fixed.length === 1 || fixed[1].distance > s.distance);
    return { title, edits: s.replacement.edits, ...(preferred ? { preferred } : {}), ...(auto && fixed.length === 1 ? { auto } : {}) };
  });
}

/** Allow the model/tool in permissions (creating what is absent); or use one that is allowed. */
function permissionFixes(analysis: Analysis, data: LwirDiagnosticData, offered: ReadonlySet<string>): Fix[] {
  const doc = analysis.document;
  const root = doc.value;
  const name = typeof data.name === "string" ? data.name : valueAt(root, data.segments);
  if (typeof name !== "string" || !isObject(root)) return [];
  const list = data.permission ?? (data.code === "tool.disallowed" ? "tools" : "models");
  const what = list === "tools" ? "tool" : "model";
  const permissions = root.permissions;
  let edits: OffsetEdit[] | undefined;
  let allowed: string[] = [];
  if (permissions === undefined) {
    edits = addProperty(doc, [], "permissions", { [list]: [name] }, { after: ["apiVersion", "kind", "metadata", "input", "output"] });
  } else if (isObject(permissions)) {
    const current = permissions[list];
    if (current === undefined) {
      edits = addProperty(doc, ["permissions"], list, [name], list === "tools" ? { after: ["models"] } : { first: true });
    } else if (Array.isArray(current) && current.every((e) => typeof e === "string")) {
      edits = appendToArray(doc, ["permissions", list], [name]);
      allowed = current as string[];
    }
  }
  const fixes: Fix[] = [];
  // With alternatives on offer the name may be a typo: then no fix is clearly the right one. The
  // close ones ("did you mean") come before this list (typoFixes); the others after "Allow".
  const alternatives = allowed.slice(0, 5);
  if (edits && edits.length > 0) {
    fixes.push({ title: `Allow ${what} "${name}" in permissions.${list}`, edits, ...(alternatives.length === 0 ? { preferred: true } : {}) });
  }
  for (const other of alternatives) {
    const title = `Use the allowed ${what} "${other}"`;
    if (offered.has(title)) continue;
    const e = setValue(doc, data.segments, other);
    if (e) fixes.push({ title, edits: e });
  }
  return fixes;
}

/**
 * `maxVisits: 2` on every member of the cycle below 2, when that makes the cycle valid (it has a
 * decision step that breaks every loop). Members read elsewhere through `.output` would then be
 * ambiguous (catalog 3.4), so those reads become `.lastOutput` in the same fix. Never preferred: it
 * turns what may be an accident into a loop.
 */
function cycleFix(analysis: Analysis, data: LwirDiagnosticData): [string, OffsetEdit[] | undefined] {
  const none: [string, undefined] = ["", undefined];
  const doc = analysis.document;
  const cycle = data.cycle;
  if (!cycle || cycle.reason !== "maxVisits" || cycle.steps.length === 0) return none;
  const members = cycle.steps.map((s) => ({ ...s, step: valueAt(doc.value, s.segments) }));
  if (!members.every((m) => isObject(m.step))) return none;
  // Without its decision steps, the component must hold no cycle (else the rule's second part fires).
  const index = new Map(members.map((m, i) => [m.id, i]));
  const graph: Graph = members.map(() => []);
  members.forEach((m, i) => {
    const step = m.step as Record<string, unknown>;
    for (const need of validNeeds(step.needs)) if (index.has(need)) graph[index.get(need)!].push(i);
    if (step.uses === "decision") for (const t of decisionTargets(step)) if (index.has(t)) graph[i].push(index.get(t)!);
  });
  const keep = members.map((m, i) => i).filter((i) => (members[i].step as Record<string, unknown>).uses !== "decision");
  const local = new Map(keep.map((n, i) => [n, i]));
  const sub: Graph = keep.map((n) => graph[n].filter((w) => local.has(w)).map((w) => local.get(w)!));
  if (stronglyConnected(sub).some((c) => isCycle(sub, c))) return none;

  const low = members.filter((m) => !visitsEnoughForCycle(m.step as Record<string, unknown>));
  if (low.length === 0) return none;
  const edits: OffsetEdit[] = [];
  for (const m of low) {
    const e = setProperty(doc, m.segments, "maxVisits", 2, { after: ["id", "uses", "needs"] });
    if (!e) return none;
    edits.push(...e);
  }
  const rewrites = outputReadsOf(analysis, low.map((m) => m.segments));
  if (rewrites === undefined) return none;
  edits.push(...rewrites);
  const names = low.map((m) => (m.id !== undefined ? `"${m.id}"` : "a step")).join(", ");
  return [`Set maxVisits to 2 on ${names}${rewrites.length > 0 ? " and read their lastOutput" : ""}`, edits];
}

/**
 * Per cycle finding, at most this many edges are tried on the graph and re-validated, and this many
 * removal fixes offered: a light bulb, not a report (a 3,000-step loop has 3,000 edges).
 */
const REMOVAL_GRAPH_CHECKS = 32;
const REMOVAL_CHECKS = 6;
const REMOVAL_FIXES = 4;

const removalCache = new WeakMap<Analysis, Map<string, Fix[]>>();

/**
 * "Remove needs entry X from step Y" for each needs edge of the cycle whose removal breaks it: with the
 * edge gone the members hold no cycle any more (the flow graph, recomputed), and re-validating the
 * document without the entry shows the finding gone and no new one (a step that reads X would lose
 * its needs entry, a lastOutput read would lose the loop that allowed it, a step would become a second
 * final step). Decision routes (cases[].to, default) are how loops are written and are left alone.
 * The edge that closes the loop in list order (a step needing itself or a later step) comes first.
 */
function removeNeedsFixes(analysis: Analysis, data: LwirDiagnosticData): Fix[] {
  const cycle = data.cycle;
  if (!cycle || cycle.steps.length === 0) return [];
  const cacheKey = data.path + "\u0000" + JSON.stringify(cycle.steps.map((s) => s.segments));
  let byFinding = removalCache.get(analysis);
  const cached = byFinding?.get(cacheKey);
  if (cached) return cached;
  const fixes = computeRemovals(analysis, data.segments, cycle.steps.map((s) => s.segments));
  if (!byFinding) removalCache.set(analysis, (byFinding = new Map()));
  byFinding.set(cacheKey, fixes);
  return fixes;
}

function computeRemovals(analysis: Analysis, listSegments: PathSegment[], memberSegments: PathSegment[][]): Fix[] {
  const doc = analysis.document;
  const target = analysis.findings.find((f) => f.code === "lwir.invalid_cycle" && f.details?.kind === "cycle"
    && sameSegments(f.segments, listSegments) && JSON.stringify(f.details.cycle) === JSON.stringify(memberSegments));
  if (!target) return [];
  const members = memberSegments.map((segments) => ({ segments, step: valueAt(doc.value, segments) }));
  if (!members.every((m) => isObject(m.step) && typeof m.step.id === "string")) return [];
  const steps = members.map((m) => m.step as Record<string, unknown>);
  const index = new Map(steps.map((step, i) => [step.id as string, i]));
  const position = (i: number) => members[i].segments[members[i].segments.length - 1] as number;
  // The members' flow graph, each edge marked by what makes it: a needs entry, a decision route, or both.
  const needsEdges: Array<{ from: number; to: number }> = [];
  const routes = new Set<string>();
  steps.forEach((step, i) => {
    for (const need of new Set(validNeeds(step.needs))) if (index.has(need)) needsEdges.push({ from: index.get(need)!, to: i });
    if (step.uses === "decision") for (const t of decisionTargets(step)) if (index.has(t)) routes.add(`${i} ${index.get(t)!}`);
  });
  const graphWithout = (skip: { from: number; to: number }): Graph => {
    const graph: Graph = steps.map(() => []);
    for (const e of needsEdges) if (e !== skip) graph[e.from].push(e.to);
    for (const r of routes) { const [a, b] = r.split(" ").map(Number); graph[a].push(b); }
    return graph;
  };
  const breaks = (e: { from: number; to: number }) => { const g = graphWithout(e); return !stronglyConnected(g).some((c) => isCycle(g, c)); };
  const candidates = needsEdges
    .filter((e) => !routes.has(`${e.from} ${e.to}`)) // the route keeps the edge
    .map((e) => ({ edge: e, closes: position(e.from) >= position(e.to) }))
    .sort((a, b) => Number(b.closes) - Number(a.closes) || position(a.edge.to) - position(b.edge.to) || position(a.edge.from) - position(b.edge.from))
    .slice(0, REMOVAL_GRAPH_CHECKS)
    .filter((c) => breaks(c.edge))
    .map((c) => c.edge);

  const keyOf = (f: { code: string; message: string }) => f.code + "\u0000" + f.message;
  const before = new Map<string, number>();
  for (const f of analysis.findings) before.set(keyOf(f), (before.get(keyOf(f)) ?? 0) + 1);
  const fixes: Fix[] = [];
  const checkable = candidates.filter((e) => !readsStep(members[e.to].segments, steps[e.to], steps[e.from].id as string));
  for (const e of checkable.slice(0, REMOVAL_CHECKS)) {
    if (fixes.length >= REMOVAL_FIXES) break;
    const need = steps[e.from].id as string;
    const reader = members[e.to];
    const needs = steps[e.to].needs as unknown[];
    // Every copy of the entry: a second one would keep the edge.
    const at = needs.flatMap((v, k) => (v === need ? [k] : []));
    // The last entry goes with its key: `needs: []` says nothing more, and would change the WorkflowVersion.
    const kept = needs.filter((v) => v !== need);
    const after = validateLwir(withNeeds(doc.value, reader.segments, kept.length > 0 ? kept : undefined), { plainData: true }).findings;
    const now = new Map<string, number>();
    for (const f of after) now.set(keyOf(f), (now.get(keyOf(f)) ?? 0) + 1);
    if (now.has(keyOf(target))) continue;
    if ([...now].some(([k, n]) => (before.get(k) ?? 0) < n)) continue;
    const edits = kept.length > 0 ? removeArrayElements(doc, [...reader.segments, "needs"], at) : removeProperty(doc, reader.segments, "needs");
    if (!edits || edits.length === 0) continue;
    fixes.push({ title: `Remove needs entry "${need}" from step "${String(steps[e.to].id)}"`, edits });
  }
  return fixes;
}

/**
 * Does the step read `steps.<id>` in `with` or `input`? Then its needs entry is wanted (or only a loop
 * excuses its absence): removing it would add a finding, so no re-validation is spent on it.
 */
function readsStep(segments: PathSegment[], step: Record<string, unknown>, id: string): boolean {
  let found = false;
  for (const part of ["with", "input"] as const) {
    forEachStepString(step[part], [...segments, part], (value) => { if (!found && stepReferencesOf(value).some((r) => r.stepId === id)) found = true; });
  }
  return found;
}

/** The document value with one step's needs replaced (or removed): containers on the path copied, the rest shared. */
function withNeeds(root: unknown, stepSegments: readonly PathSegment[], needs: unknown[] | undefined): unknown {
  const copy = (v: unknown): unknown => (Array.isArray(v) ? [...v] : { ...(v as Record<string, unknown>) });
  const top = copy(root) as Record<string | number, unknown>;
  let node = top;
  for (const seg of stepSegments) {
    const child = copy(node[seg]) as Record<string | number, unknown>;
    node[seg] = child;
    node = child;
  }
  if (needs === undefined) delete node.needs;
  else node.needs = needs;
  return top;
}

/** `.output` → `.lastOutput` in every reference that resolves to one of these steps; undefined if one cannot be edited. */
function outputReadsOf(analysis: Analysis, targets: PathSegment[][]): OffsetEdit[] | undefined {
  const doc = analysis.document;
  const facts = factsOf(analysis);
  if (!facts) return [];
  const wanted = new Set(targets.map((t) => JSON.stringify(t)));
  const edits: OffsetEdit[] = [];
  for (const list of facts.lists) {
    for (const step of list.steps) {
      for (const part of ["with", "input"] as const) {
        const strings: Array<{ value: string; segments: PathSegment[] }> = [];
        forEachStepString(step.step[part], [...step.segments, part], (value, segments) => strings.push({ value, segments }));
        for (const { value, segments } of strings) {
          const refs = stepReferencesOf(value).filter((r) => {
            if (r.property !== "output") return false;
            const target = list.byId.get(r.stepId) ?? list.external.get(r.stepId);
            return target !== undefined && wanted.has(JSON.stringify(target.segments));
          });
          if (refs.length === 0) continue;
          // A reference ends with its property: `output` is its last six characters.
          const e = replaceReads(doc, segments, value, refs.map((r) => [r.end - "output".length, r.end]));
          if (!e) return undefined;
          edits.push(...e);
        }
      }
    }
  }
  return edits;
}

/** Replaces each `output` span of a string by `lastOutput`: in place where the source spells it, else the whole string at once. */
function replaceReads(doc: EditableDocument, segments: PathSegment[], value: string, spans: Array<[number, number]>): OffsetEdit[] | undefined {
  if (!doc.locate(segments)) return undefined;
  const edits: OffsetEdit[] = [];
  for (const [s, e] of spans) {
    const at = spanInString(doc, segments, value, s, e);
    if (at === undefined) {
      // Rewrite the whole string with every replacement applied (right to left keeps offsets valid).
      let next = value;
      for (const [a, b] of [...spans].sort((x, y) => y[0] - x[0])) next = next.slice(0, a) + "lastOutput" + next.slice(b);
      return setValue(doc, segments, next);
    }
    const one = replaceInString(doc, segments, s, e, "lastOutput", { start: at[0], end: at[1] });
    if (!one) return undefined;
    edits.push(...one);
  }
  return edits;
}

// ---- small helpers ----------------------------------------------------------------------------------


function sameSegments(a: readonly PathSegment[], b: readonly PathSegment[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

function shorten(text: string): string {
  const one = text.replace(/\s*\n\s*/g, " ");
  return one.length > 40 ? one.slice(0, 37) + "…" : one;
}


