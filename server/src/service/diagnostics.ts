// Analysis → LSP diagnostics: one per parse error, one per finding, plus editor-only hints that are
// never findings (catalog section 11). Each diagnostic carries `data` with what a quick fix needs,
// read from the facts the validator attached to the finding (`Finding.details`) and the parsed value
// (no re-parsing, no re-validation, no second step graph), so code actions never re-run analysis.
import { pathOfSegments, pathString, valueAt } from "../lwir/path";
import {
  DiagnosticSeverity,
  type Diagnostic,
  type DiagnosticRelatedInformation,
  type Range,
} from "vscode-languageserver-types";
import type { LwirDocument, ParseValue } from "../document/types";
import { quoteYaml } from "../document/yamlQuote";
import { endWithoutWhiteSpace } from "../document/text";
import type { PathSegment, ReferenceDetails } from "../lwir/types";
import { API_VERSION, KIND, isObject } from "../lwir/validate";
import type { Analysis, RangedFinding } from "./analysis";
import { spanInString } from "./stringSource";
import { findInheritedCalls } from "./inheritedFunctions";
import { levelOf, type NoticeSeverity, type RuleLevels } from "./rules";
import { messageWithSuggestion, nameRange } from "./didYouMean";
import { findTypeNotices, type TypeNotice } from "./typeChecks";
import { isEmptyText } from "./emptyDocument";
import { sourceByteNotices } from "./sourceBytes";
import { UNKNOWN_KEY, unknownKeyNotices } from "./unknownKeys";
import { relatedOf, runNotices } from "./runNotices";

import { DIAGNOSTIC_SOURCE, PARSE_CODE } from "../protocol";

export const SOURCE = DIAGNOSTIC_SOURCE;
export { PARSE_CODE };
/** A parser warning on text the runtime accepts (e.g. an unresolved YAML tag). Never a finding. */
export const PARSE_WARNING_CODE = "lwir.parse_warning";
/** Editor-only hint: YAML read an unquoted `{{ … }}` as a flow mapping. Never a finding. */
export const YAML_UNQUOTED_TEMPLATE = "lwir.yaml_unquoted_template";
/** Editor-only warning: an expression calls a name inherited from Object.prototype (`toString()`). Never a finding. */
export const INHERITED_FUNCTION_NAME = "lwir.inherited_function_name";
/** Editor-only notice: the document is above `lwir.maxFileSize`, so it is not analysed. */
export const FILE_TOO_LARGE = "lwir.file_too_large";
/** Editor-only notice: the document is empty (or only white space and comments); its fix writes a new workflow. */
export const EMPTY_DOCUMENT = "lwir.empty_document";
/** Analysing the document threw (a bug): reported instead of leaving stale diagnostics. */
export const INTERNAL_ERROR = "lwir.internal_error";

/** A step, by its path segments and (when it has one) its id. */
export interface StepRef {
  id?: string;
  segments: PathSegment[];
}

/** `Diagnostic.data` of every LWIR diagnostic. Fields beyond the first three appear per code. */
export interface LwirDiagnosticData {
  /** The finding code (or PARSE_CODE, PARSE_WARNING_CODE, YAML_UNQUOTED_TEMPLATE, FILE_TOO_LARGE, INTERNAL_ERROR). */
  code: string;
  /** The finding path as the validator writes it (catalog 1.2); "$" for document-level notices. */
  path: string;
  segments: PathSegment[];
  /** PARSE_CODE, PARSE_WARNING_CODE: the parser's own code for the problem (e.g. "DUPLICATE_KEY"). */
  parserCode?: string;
  /** The step the finding is about or sits in. */
  step?: StepRef;
  /**
   * The step id a dependency finding is about: for `step.undeclared_dependency` the id to add to
   * `step`'s needs; for `step.missing_dependency` the unknown id; for
   * `lwir.decision_target_referenced_by_needs` the needed decision target.
   */
  targetStepId?: string;
  /**
   * `step.missing_dependency` on a needs entry: the entry's index in the array as written. The path
   * counts valid entries only (catalog 9.3), so with invalid entries before it the two differ.
   */
  needsIndex?: number;
  /** The step `targetStepId` names, when it exists (local, or external for a parallel body). */
  target?: StepRef & { external: boolean };
  /** Reference findings: the `steps.X…` reference inside the string at `segments`. */
  reference?: ReferenceSpan;
  /** `lwir.output_ambiguous_for_multi_visit`: the `output` word to replace by `lastOutput`. */
  output?: TextSpan;
  /** `lwir.invalid_cycle`: the component the finding is about, in the validator's order. */
  cycle?: {
    /** "maxVisits": a member has maxVisits below 2; "decision": the cycle has no decision step. */
    reason: "maxVisits" | "decision";
    steps: Array<StepRef & { maxVisits: unknown }>;
  };
  /** `step.duplicate_id`: the first step with this id, which wins. */
  first?: StepRef;
  /** `terminal.ambiguous`: the terminal steps (each is needed by no step and targeted by no decision). */
  terminals?: StepRef[];
  /** `model.disallowed`, `fixer.model.disallowed`, `tool.disallowed`: the name and its allow-list. */
  name?: string;
  permission?: "models" | "tools";
  /** `schema.invalid` at `$.apiVersion` / `$.kind`: the only accepted value. */
  expected?: string;
  /** YAML_UNQUOTED_TEMPLATE, and findings on such a value: the flow mapping and its quoted form. */
  unquotedTemplate?: UnquotedTemplate;
  /** PARSE_CODE on a YAML value that needs quotes (document/yamlErrors.ts): where it is and the string meant. */
  parseValue?: ParseValue & { range: Range };
  /** FILE_TOO_LARGE: the document's size and the setting, in bytes. */
  size?: number;
  limit?: number;
  /**
   * The type checks (service/typeChecks.ts): the offending text in the string (a property name, a
   * compared literal) as written, and the declared names close to it, nearest first.
   */
  typed?: TextSpan & { word?: string; suggestions?: string[] };
  /** UNKNOWN_KEY: the key as the document has it and the known keys close to it (its "Rename to" fixes). */
  unknownKey?: { key: string; suggestions: string[] };
  /** Anything else the validator attached to the finding, passed through. */
  [extra: string]: unknown;
}

/** Offsets into the document text, the same as a range, and offsets into the decoded string value. */
export interface TextSpan {
  /** Where the text sits in the document; absent when the source spelling could not be matched. */
  range?: Range;
  start?: number;
  end?: number;
  /** Offsets into the string value (after unescaping), always present. */
  valueStart: number;
  valueEnd: number;
}

export interface ReferenceSpan extends TextSpan {
  stepId: string;
  /** The first property after the step id (`output`, `lastOutput`, `allVisits`, …). */
  property?: string;
}

export interface UnquotedTemplate {
  /** The flow mapping as written, e.g. `{{ input.topic }}`. */
  text: string;
  /** The same text as a quoted YAML scalar, ready to replace `range`. */
  replacement: string;
  range: Range;
  start: number;
  end: number;
}

export interface DiagnosticOptions {
  /** The document's URI; needed for `relatedInformation`, which is left out without it. */
  uri?: string;
  /** Set to false for clients that do not support related information. */
  relatedInformation?: boolean;
}

/** All diagnostics of one analysis: parse errors and warnings, findings, then editor hints. */
export function toDiagnostics(analysis: Analysis, options: DiagnosticOptions = {}): Diagnostic[] {
  const doc = analysis.document;
  // A new file starts empty (or `{}`, `---`): one notice offering a new workflow, not the runtime's
  // "must be an object, not null" (YAML), a syntax error (JSON) or the missing keys of `{}`. The CLI still
  // reports those (cli/check.ts, ownNotices).
  if (isEmptyDocument(doc)) return [emptyDocumentDiagnostic()];
  const out: Diagnostic[] = [];
  for (const problem of doc.parseErrors) {
    out.push({
      range: problem.range,
      severity: DiagnosticSeverity.Error,
      source: SOURCE,
      code: PARSE_CODE,
      message: problem.message,
      data: {
        code: PARSE_CODE,
        path: "$",
        segments: [],
        ...(problem.code ? { parserCode: problem.code } : {}),
        ...(problem.value ? { parseValue: { ...problem.value, range: doc.rangeAt(problem.value.start, problem.value.end) } } : {}),
      } satisfies LwirDiagnosticData,
    });
  }
  // What the YAML parser warns about but the runtime accepts (an unresolved tag, say): never a finding.
  for (const problem of doc.parseWarnings ?? []) {
    out.push({
      range: problem.range,
      severity: DiagnosticSeverity.Warning,
      source: SOURCE,
      code: PARSE_WARNING_CODE,
      message: problem.message,
      data: { code: PARSE_WARNING_CODE, path: "$", segments: [], ...(problem.code ? { parserCode: problem.code } : {}) } satisfies LwirDiagnosticData,
    });
  }
  for (const notice of sourceByteNotices(doc, analysis.invalidUtf8)) {
    out.push(warning(notice.range, notice.message, { code: notice.code, path: "$", segments: [] }));
  }
  const context = new FindingContext(doc, options);
  const hints = doc.format === "yaml" ? findUnquotedTemplates(doc) : [];
  for (const finding of analysis.findings) {
    const data: LwirDiagnosticData = { ...passThrough(finding), code: finding.code, path: finding.path, segments: finding.segments };
    const related: DiagnosticRelatedInformation[] = [];
    try {
      context.describe(finding, data, related);
    } catch {
      // The extra data is a convenience: a surprise in an odd document must not cost the diagnostic.
    }
    // The editor squiggles the misspelt name inside the finding's node and suggests a close one; the
    // CLI keeps the node's range and the runtime's message (analysis.findings).
    let range = finding.range;
    let message = finding.message;
    try {
      range = editorRange(analysis, finding);
      message = messageWithSuggestion(analysis, finding);
    } catch {
      // as above: the finding as it is
    }
    const hint = hints.find((h) => concerns(h.segments, finding.segments));
    if (hint) {
      data.unquotedTemplate = hint.template;
      message += `${/[.?!]$/.test(message) ? "" : "."} YAML read the unquoted ${shorten(hint.template.text)} as a mapping, not as a string; put it in quotes.`;
    }
    const diagnostic: Diagnostic = {
      range,
      severity: DiagnosticSeverity.Error,
      source: SOURCE,
      code: finding.code,
      message,
      data,
    };
    if (related.length > 0 && options.uri !== undefined && options.relatedInformation !== false) {
      diagnostic.relatedInformation = related;
    }
    out.push(diagnostic);
  }
  for (const hint of hints) {
    out.push({
      range: hint.template.range,
      severity: DiagnosticSeverity.Warning,
      source: SOURCE,
      code: YAML_UNQUOTED_TEMPLATE,
      message: unquotedTemplateMessage(hint.template),
      data: { code: YAML_UNQUOTED_TEMPLATE, path: pathString(pathOfSegments(hint.segments)), segments: hint.segments, unquotedTemplate: hint.template } satisfies LwirDiagnosticData,
    });
  }
  for (const call of inheritedCalls(doc)) {
    out.push({
      range: call.range,
      severity: DiagnosticSeverity.Warning,
      source: SOURCE,
      code: INHERITED_FUNCTION_NAME,
      message: call.message,
      data: { code: INHERITED_FUNCTION_NAME, path: pathString(pathOfSegments(call.segments)), segments: call.segments } satisfies LwirDiagnosticData,
    });
  }
  for (const u of unknownKeyNotices(doc)) {
    const data = { code: UNKNOWN_KEY, path: pathString(pathOfSegments(u.segments)), segments: u.segments, unknownKey: { key: u.key, suggestions: u.suggestions } };
    out.push(warning(u.range, u.message, data));
  }
  for (const notice of typeNotices(analysis)) out.push(warning(notice.range, notice.message, notice.data));
  for (const notice of runNotices(analysis)) {
    const d = warning(notice.range, notice.message, notice.data);
    if (notice.related.length > 0 && options.uri !== undefined && options.relatedInformation !== false) d.relatedInformation = relatedOf(notice, options.uri);
    out.push(d);
  }
  return out;
}

/** A warning of ours (its level set later by applyRuleLevels), with the data its quick fixes read. */
function warning(range: Range, message: string, data: LwirDiagnosticData): Diagnostic {
  return { range, severity: DiagnosticSeverity.Warning, source: SOURCE, code: data.code, message, data };
}

/** The type checks' notices (service/typeChecks.ts) with their ranges and the data their quick fix reads. */
export function typeNotices(analysis: Analysis): Array<TypeNotice & { range: Range; data: LwirDiagnosticData }> {
  const doc = analysis.document;
  return findTypeNotices(analysis).map((n) => {
    const value = valueAt(doc.value, n.segments) as string;
    const span = spanInString(doc, n.segments, value, n.start, n.end);
    const range = span ? { start: doc.positionAt(span[0]), end: doc.positionAt(span[1]) } : rangeOf(doc, n.segments);
    const typed: NonNullable<LwirDiagnosticData["typed"]> = {
      valueStart: n.start, valueEnd: n.end,
      ...(span ? { start: span[0], end: span[1], range } : {}),
      ...(n.word !== undefined ? { word: n.word, suggestions: n.suggestions ?? [] } : {}),
    };
    return { ...n, range, data: { code: n.code, path: pathString(pathOfSegments(n.segments)), segments: n.segments, typed } };
  });
}

/**
 * A document with nothing written in it yet (emptyDocument.ts): white space, `{}`, YAML's `---`,
 * comments. Such a document is where a new workflow gets written.
 */
export function isEmptyDocument(doc: LwirDocument): boolean {
  return isEmptyText(doc.text, doc.format);
}

export { isEmptyText };

export function emptyDocumentDiagnostic(): Diagnostic {
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: DiagnosticSeverity.Information,
    source: SOURCE,
    code: EMPTY_DOCUMENT,
    message: "This LWIR document is empty. Use the quick fix \"New workflow\" (or completion) to start from a workflow that validates.",
    data: { code: EMPTY_DOCUMENT, path: "$", segments: [] } satisfies LwirDiagnosticData,
  };
}

/**
 * The editor's range of a finding about a missing top-level key (`schema.invalid` at `$.kind`, `$.steps`,
 * … when the key is absent). The validator's range is the document's first line, where all of them
 * would pile up while a new document is written top-down; the editor shows them at the last character
 * of the top-level mapping (its closing brace in JSON), where the missing keys are added, the way a
 * syntax error at the end of the text marks the last character written. `apiVersion`, which goes first,
 * keeps the first line. The CLI keeps the validator's ranges.
 */
function missingKeyRange(doc: LwirDocument, finding: RangedFinding): Range | undefined {
  const key = finding.segments[0];
  if (finding.code !== "schema.invalid" || finding.segments.length !== 1 || typeof key !== "string" || key === "apiVersion") return undefined;
  const root = doc.value;
  if (!isObject(root) || Object.prototype.hasOwnProperty.call(root, key)) return undefined;
  const loc = doc.locate([]);
  if (!loc) return undefined;
  const end = endWithoutWhiteSpace(doc.text, loc.valueStart, loc.valueEnd);
  return end > loc.valueStart ? doc.rangeAt(end - 1, end) : undefined;
}

/** Calls of Object.prototype names in expressions (service/inheritedFunctions.ts), on the name where it maps. */
function inheritedCalls(doc: LwirDocument): Array<{ segments: PathSegment[]; range: Range; message: string }> {
  if (doc.parseErrors.length > 0) return [];
  return findInheritedCalls(doc.value).map((call) => {
    const value = valueAt(doc.value, call.segments) as string;
    const span = spanInString(doc, call.segments, value, call.start, call.end);
    return {
      segments: call.segments,
      range: span ? { start: doc.positionAt(span[0]), end: doc.positionAt(span[1]) } : rangeOf(doc, call.segments),
      message: `${call.name} is not an expression function. The runtime's validator accepts the call only because every JavaScript object has a method of that name; when the workflow runs, the call fails the step, even inside coalesce.`,
    };
  });
}

function unquotedTemplateMessage(template: UnquotedTemplate): string {
  return `YAML reads the unquoted ${shorten(template.text)} as a mapping, not as a template string; write ${shorten(template.replacement)}.`;
}

/** One of our own notices (never a finding) as plain data, at its default level: what the CLI reports. */
export interface OwnNotice {
  code: string;
  path: string;
  message: string;
  range: Range;
}

/** The notices toDiagnostics adds beside parse errors and findings (parse warnings, YAML hints, inherited calls). */
export function ownNotices(analysis: Analysis): OwnNotice[] {
  const doc = analysis.document;
  const out: OwnNotice[] = sourceByteNotices(doc, analysis.invalidUtf8).map((n) => ({ code: n.code, path: "$", message: n.message, range: n.range }));
  for (const p of doc.parseWarnings ?? []) out.push({ code: PARSE_WARNING_CODE, path: "$", message: p.message, range: p.range });
  if (doc.format === "yaml") {
    for (const hint of findUnquotedTemplates(doc)) {
      out.push({ code: YAML_UNQUOTED_TEMPLATE, path: pathString(pathOfSegments(hint.segments)), message: unquotedTemplateMessage(hint.template), range: hint.template.range });
    }
  }
  for (const call of inheritedCalls(doc)) {
    out.push({ code: INHERITED_FUNCTION_NAME, path: pathString(pathOfSegments(call.segments)), message: call.message, range: call.range });
  }
  for (const u of unknownKeyNotices(doc)) out.push({ code: UNKNOWN_KEY, path: pathString(pathOfSegments(u.segments)), message: u.message, range: u.range });
  for (const n of typeNotices(analysis)) out.push({ code: n.code, path: n.data.path, message: n.message, range: n.range });
  for (const n of runNotices(analysis)) out.push({ code: n.code, path: n.data.path, message: n.message, range: n.range });
  return out;
}

const SEVERITY: Record<NoticeSeverity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/**
 * The user's levels (`lwir.lint.rules`) applied to our own notices: "off" drops them, other levels set
 * the severity. Parse errors and findings keep theirs (the runtime refuses those documents whatever the
 * editor says).
 */
export function applyRuleLevels(diagnostics: Diagnostic[], levels: RuleLevels | undefined): Diagnostic[] {
  if (!levels || Object.keys(levels).length === 0) return diagnostics;
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const level = typeof d.code === "string" ? levelOf(d.code, levels) : undefined;
    if (level === undefined) out.push(d);
    else if (level !== "off") out.push(d.severity === SEVERITY[level] ? d : { ...d, severity: SEVERITY[level] });
  }
  return out;
}

/** The one notice a document above `lwir.maxFileSize` gets instead of analysis. */
export function tooLargeDiagnostic(size: number, limit: number): Diagnostic {
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: DiagnosticSeverity.Warning,
    source: SOURCE,
    code: FILE_TOO_LARGE,
    message: `This document is ${size} bytes, more than the lwir.maxFileSize setting (${limit} bytes), so full LWIR analysis is off for it. Raise lwir.maxFileSize to analyse it.`,
    data: { code: FILE_TOO_LARGE, path: "$", segments: [], size, limit } satisfies LwirDiagnosticData,
  };
}

/**
 * A workspace file that could not be read as text (binary, not UTF-8, a FIFO, a dangling link, a link
 * loop…): like a syntax error, nothing in it was validated, so it is reported under the parse code.
 */
export function unreadableDiagnostic(reason: string): Diagnostic {
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: DiagnosticSeverity.Error,
    source: SOURCE,
    code: PARSE_CODE,
    message: `This file could not be read as text (${reason}), so it was not validated.`,
  };
}

/** What the user sees when analysing a document failed (a bug): an error at 0:0 instead of silence. */
export function internalErrorDiagnostic(error: unknown): Diagnostic {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: DiagnosticSeverity.Error,
    source: SOURCE,
    code: INTERNAL_ERROR,
    message: `LWIR could not analyse this document (${reason}). This is a bug in LWIR Tools; the LWIR output channel has details.`,
    data: { code: INTERNAL_ERROR, path: "$", segments: [] } satisfies LwirDiagnosticData,
  };
}

// ---- what a finding is about ----------------------------------------------------------------------

/** Turns a finding's details into `data` and related information; step ids come from the parsed value. */
class FindingContext {
  private readonly value: unknown;

  constructor(private readonly doc: LwirDocument, private readonly options: DiagnosticOptions) {
    this.value = doc.value;
  }

  describe(f: RangedFinding, data: LwirDiagnosticData, related: DiagnosticRelatedInformation[]): void {
    const stepSegments = stepPrefix(f.segments);
    if (stepSegments) data.step = this.stepRef(stepSegments);
    const d = f.details;
    switch (d?.kind) {
      case "reference":
        // output.missing_schema (reference form) sits on the read step, not on the string: nothing to add.
        if (f.code !== "output.missing_schema") this.reference(f.code, d, data, related);
        break;
      case "needsEntry":
        data.targetStepId = d.stepId;
        data.needsIndex = d.needsIndex;
        break;
      case "cycle":
        data.cycle = {
          reason: d.reason,
          steps: d.cycle.map((segments) => {
            const step = valueAt(this.value, segments);
            return { ...this.stepRef(segments), maxVisits: isObject(step) ? step.maxVisits : undefined };
          }),
        };
        for (const s of data.cycle.steps) {
          const visits = s.maxVisits === undefined ? "no maxVisits" : `maxVisits ${String(s.maxVisits)}`;
          this.relate(related, [...s.segments, "id"], `"${s.id}" is on the loop (${visits}).`);
        }
        break;
      case "duplicateId":
        data.first = this.stepRef(d.first);
        this.relate(related, [...d.first, "id"], `The first step with the id "${data.first.id}".`);
        break;
      case "terminals":
        data.terminals = d.terminals.map((segments) => this.stepRef(segments));
        for (const t of data.terminals) this.relate(related, [...t.segments, "id"], `"${t.id}" is a final step: no step needs it.`);
        break;
      case "guardedTarget":
        data.targetStepId = d.stepId;
        data.target = { ...this.stepRef(d.target), external: false };
        this.relate(related, [...d.target, "id"], `"${d.stepId}" is a decision target and has needs of its own.`);
        break;
      case "name":
        data.name = d.name;
        data.permission = f.code === "tool.disallowed" ? "tools" : "models";
        break;
      case "decisionTarget":
        data.targetStepId = d.target;
        break;
    }
    if (f.code === "schema.invalid") {
      if (f.path === "$.apiVersion") data.expected = API_VERSION;
      else if (f.path === "$.kind") data.expected = KIND;
    }
  }

  /** step.undeclared_dependency, step.missing_dependency (string form), output ambiguity. */
  private reference(code: string, d: ReferenceDetails, data: LwirDiagnosticData, related: DiagnosticRelatedInformation[]): void {
    data.targetStepId = d.stepId;
    const text = valueAt(this.value, d.stringPath);
    if (typeof text !== "string") return;
    const span = this.spanInString(d.stringPath, text, d.start, d.end);
    data.reference = { stepId: d.stepId, ...(d.property !== undefined ? { property: d.property } : {}), ...span };
    if (!d.target) return;
    data.target = { ...this.stepRef(d.target), external: d.external === true };
    if (code === "lwir.output_ambiguous_for_multi_visit" && d.property === "output") {
      // The reference ends with its property, so the `output` word is its last six characters.
      data.output = this.spanInString(d.stringPath, text, d.end - d.property.length, d.end);
      const maxVisits = [...d.target, "maxVisits"];
      const target = valueAt(this.value, d.target);
      this.relate(related, this.located(maxVisits) ? maxVisits : [...d.target, "id"],
        `"${d.stepId}" can run up to ${String(isObject(target) ? target.maxVisits : undefined)} times.`);
    } else {
      this.relate(related, [...d.target, "id"], `"${d.stepId}" is declared here.`);
    }
  }

  /** Maps offsets in a string value to the document (stringSource.ts). */
  private spanInString(segments: PathSegment[], text: string, valueStart: number, valueEnd: number): TextSpan {
    const span: TextSpan = { valueStart, valueEnd };
    const at = spanInString(this.doc, segments, text, valueStart, valueEnd);
    if (!at) return span;
    [span.start, span.end] = at;
    span.range = { start: this.doc.positionAt(at[0]), end: this.doc.positionAt(at[1]) };
    return span;
  }

  private stepRef(segments: PathSegment[]): StepRef {
    const step = valueAt(this.value, segments);
    return isObject(step) && typeof step.id === "string" ? { id: step.id, segments } : { segments };
  }

  private located(segments: PathSegment[]): boolean {
    return this.doc.locate(segments) !== undefined;
  }

  private relate(related: DiagnosticRelatedInformation[], segments: PathSegment[], message: string): void {
    if (this.options.uri === undefined) return;
    related.push({ location: { uri: this.options.uri, range: rangeOf(this.doc, segments) }, message });
  }
}

/** The range of the value at `segments` (a step id, say), else the document layer's finding range. */
function rangeOf(doc: LwirDocument, segments: PathSegment[]): Range {
  const loc = doc.locate(segments);
  if (!loc) return doc.findingRange(segments);
  return { start: doc.positionAt(loc.valueStart), end: doc.positionAt(loc.valueEnd) };
}

/**
 * Where the editor squiggles a finding: its node's range (what the CLI reports), except where the user
 * acts elsewhere: a missing top-level key at the end of the top-level mapping (missingKeyRange); a
 * problem inside a JSON Schema on the node that is wrong (schemaProblemRange); a
 * misspelt name on the name (didYouMean.ts nameRange); `lwir.invalid_cycle`, whose node is the whole
 * step list, on the edge that closes the loop in list order (catalog 3.4): the first needs entry naming
 * the step itself or a later member, else the decision route back to an earlier member (every loop in a
 * list has one of the two). Diagnostics, hover and the code actions' range check all use this.
 */
export function editorRange(analysis: Analysis, finding: RangedFinding): Range {
  const missing = missingKeyRange(analysis.document, finding);
  if (missing) return missing;
  const inner = schemaProblemRange(analysis.document, finding);
  if (inner) return inner;
  if (finding.code !== "lwir.invalid_cycle") return nameRange(analysis, finding);
  const doc = analysis.document;
  if (finding.details?.kind !== "cycle") return finding.range;
  try {
    const closing = closingEdge(doc.value, finding.details.cycle);
    return closing && doc.locate(closing) ? doc.findingRange(closing) : finding.range;
  } catch {
    return finding.range;
  }
}

/**
 * `schema.invalid` deep inside a JSON Schema: the node inside it that is wrong (the keyword's member, the
 * property's schema), not the whole schema two lines above. The CLI keeps the schema's range (its path).
 */
function schemaProblemRange(doc: LwirDocument, finding: RangedFinding): Range | undefined {
  const d = finding.details;
  if (d?.kind !== "schema" || d.at.length <= finding.segments.length || !doc.locate(d.at)) return undefined;
  return doc.findingRange(d.at);
}

/** The path of the needs entry (or decision route) that closes a cycle in list order; see editorRange. */
function closingEdge(value: unknown, members: PathSegment[][]): PathSegment[] | undefined {
  const position = new Map<string, number>();
  const steps = members.map((segments) => ({ segments, step: valueAt(value, segments), at: segments[segments.length - 1] as number }))
    .filter((m): m is { segments: PathSegment[]; step: Record<string, unknown>; at: number } => isObject(m.step) && typeof m.step.id === "string")
    .sort((a, b) => a.at - b.at);
  for (const m of steps) if (!position.has(m.step.id as string)) position.set(m.step.id as string, m.at);
  for (const m of steps) {
    const needs = m.step.needs;
    if (!Array.isArray(needs)) continue;
    const k = needs.findIndex((n) => typeof n === "string" && (position.get(n) ?? -1) >= m.at);
    if (k >= 0) return [...m.segments, "needs", k];
  }
  for (const m of steps) {
    const w = m.step.with;
    if (m.step.uses !== "decision" || !isObject(w)) continue;
    const back = (t: unknown) => typeof t === "string" && position.has(t) && position.get(t)! <= m.at;
    if (Array.isArray(w.cases)) {
      const k = w.cases.findIndex((c) => isObject(c) && back(c.to));
      if (k >= 0) return [...m.segments, "with", "cases", k, "to"];
    }
    if (back(w.default)) return [...m.segments, "with", "default"];
  }
  return undefined;
}

/** The segments of the innermost step a path is in: the longest `steps, i (, steps, j …)` prefix. */
export function stepPrefix(segments: PathSegment[]): PathSegment[] | undefined {
  let k = 0;
  while (segments[k] === "steps" && typeof segments[k + 1] === "number") k += 2;
  return k > 0 ? segments.slice(0, k) : undefined;
}

/** Fields the validator attached to a finding beyond the standard ones (`details` is read above instead). */
function passThrough(f: RangedFinding): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f)) {
    if (k !== "severity" && k !== "code" && k !== "path" && k !== "segments" && k !== "message" && k !== "range" && k !== "details") extra[k] = v;
  }
  return extra;
}

// ---- YAML: unquoted `{{ … }}` read as a flow mapping (catalog section 11) -----------------------------

interface UnquotedTemplateHint {
  segments: PathSegment[];
  template: UnquotedTemplate;
}

/** A `{{` at a YAML value position (after `key:`, `- `, `[` or `,`), the cheap gate before walking. */
const UNQUOTED_TEMPLATE_AT_VALUE = /(?:^|[:\-[,?])[ \t]*\{\{/m;

/**
 * Mappings whose YAML source starts with `{{`: `prompt: {{ input.x }}` parses as `{ {input.x: null}: null }`,
 * which the runtime accepts, so this is a hint (never a finding). Only for documents that parsed.
 */
function findUnquotedTemplates(doc: LwirDocument): UnquotedTemplateHint[] {
  const out: UnquotedTemplateHint[] = [];
  if (doc.parseErrors.length > 0 || !UNQUOTED_TEMPLATE_AT_VALUE.test(doc.text)) return out;
  const stack: Array<[unknown, PathSegment[]]> = [[doc.value, []]];
  while (stack.length > 0) {
    const [v, segments] = stack.pop()!;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], [...segments, i]]);
      continue;
    }
    if (!isObject(v)) continue;
    const keys = Object.keys(v);
    // A mapping used as a key is stringified by the parser (`{ input.x }`): that marks the candidates.
    if (segments.length > 0 && keys.some((k) => k.startsWith("{"))) {
      const loc = doc.locate(segments);
      if (loc && doc.text.startsWith("{{", loc.valueStart)) {
        const text = doc.text.slice(loc.valueStart, loc.valueEnd);
        out.push({
          segments,
          template: {
            text,
            replacement: quoteYaml(text),
            range: { start: doc.positionAt(loc.valueStart), end: doc.positionAt(loc.valueEnd) },
            start: loc.valueStart,
            end: loc.valueEnd,
          },
        });
        continue;
      }
    }
    for (let i = keys.length - 1; i >= 0; i--) stack.push([v[keys[i]], [...segments, keys[i]]]);
  }
  return out.sort((a, b) => a.template.start - b.template.start);
}

/** A finding concerns a hint's value when it is on it, inside it, or on the mapping holding it. */
function concerns(hint: PathSegment[], finding: PathSegment[]): boolean {
  if (finding.length < hint.length - 1) return false;
  const n = Math.min(hint.length, finding.length);
  for (let i = 0; i < n; i++) if (hint[i] !== finding[i]) return false;
  return true;
}

function shorten(text: string): string {
  const one = text.replace(/\s*\n\s*/g, " ");
  return one.length > 60 ? one.slice(0, 57) + "…" : one;
}
