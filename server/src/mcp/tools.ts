// What each tool of `lwir mcp` answers: a thin adapter over what `lwir validate`, `--fix`, `lwir graph`,
// `lwir run --dry`, `lwir test` and the editor's completion already do (server/src/cli/, server/src/service/), turned into compact,
// structured answers for agents. No check, fix or rendering is made here: only the reading of the input,
// the shape of the answer and its pages. Every problem with the input is a ToolError with a clear message.
import { readFileSync, statSync } from "node:fs";
import type { CompletionItem } from "vscode-languageserver-types";
import { CompletionItemKind } from "vscode-languageserver-types";
import { decodeUtf8 } from "../document/decode";
import type { Format, Position } from "../document/types";
import { buildGraph } from "../graph/model";
import { toJson, toMermaid } from "../graph/render";
import { OWN_RULES, PARSE_RULE, RULES } from "../lwir/codes";
import { analyzeText, type Analysis } from "../service/analysis";
import { ALL_FIX_KINDS, DEFAULT_FIX_KINDS } from "../service/autofix";
import { quickFixes, type FixKind } from "../service/codeActions";
import { provideCompletion } from "../service/completion";
import { mergeRules } from "../service/config";
import { applyRuleLevels, toDiagnostics, type LwirDiagnosticData } from "../service/diagnostics";
import { closeNames } from "../service/didYouMean";
import type { RuleLevels } from "../service/rules";
import { readDecoded, reportOf } from "../cli/check";
import { ConfigLookup } from "../cli/config";
import { diffLines, splitLines } from "../cli/diff";
import { reasonOf } from "../cli/files";
import { checkedWorkflow, counts, dryRun, dryRunStart, jsonReplacer, scenariosFilesIn, testFile, type LoadedWorkflow, type Overlay, type RunError, type TestFileResult, type TraceStep } from "../cli/dryrun";
import { fixBytes } from "../cli/fix";
import { problemsInSourceOrder, type FileReport } from "../cli/report";
import { rulePage } from "../cli/rulePages";
import lwirSchema from "../../../schemas/lwir.schema.json";

/** A problem with what the tool was given: answered as a tool error (`isError`), never a crash. */
export class ToolError extends Error {}

/** Documents above this many bytes are refused (the editor's default `lwir.maxFileSize`). */
export const MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;
/** One page of a long text (the schema, a graph, a fixed document), in UTF-16 code units. */
export const PAGE_CHARS = 20_000;
/** One page of findings. */
export const PAGE_FINDINGS = 100;
/** At most this many completion items. */
export const MAX_COMPLETIONS = 200;

export interface DocumentInput {
  path?: string;
  text?: string;
  format?: Format;
}

/** The document to work on: its bytes, the name its format comes from, and the file when it is one. */
interface Source {
  bytes: Uint8Array;
  formatName: string;
  /** The file, as given (relative paths against the server's working folder). */
  file?: string;
}

function sourceOf(input: DocumentInput): Source {
  const { path, text, format } = input;
  if ((path === undefined) === (text === undefined)) throw new ToolError("Give either path (a file to read) or text (the document itself), not both and not neither.");
  if (text !== undefined) {
    const bytes = Buffer.from(text, "utf8");
    if (bytes.length > MAX_DOCUMENT_BYTES) throw new ToolError(tooLarge(bytes.length));
    // Without a format the text is sniffed as `lwir validate -` does: `{` or `[` first is JSON, else YAML.
    return { bytes, formatName: format ? `document.lwir.${format}` : "" };
  }
  const file = path!;
  let size: number;
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) throw new ToolError(`${file} is a folder: give one workflow file (lwir validate checks folders).`);
    size = stat.size;
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError(`Cannot read ${file}: ${reasonOf(error, file)}.`);
  }
  if (size > MAX_DOCUMENT_BYTES) throw new ToolError(tooLarge(size));
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new ToolError(`Cannot read ${file}: ${reasonOf(error, file)}.`);
  }
  return { bytes, formatName: format ? `document.lwir.${format}` : file, file };
}

function tooLarge(bytes: number): string {
  return `The document is ${bytes} bytes; lwir mcp reads documents of at most ${MAX_DOCUMENT_BYTES} bytes (8 MiB). Check it with lwir validate, which reads any size.`;
}

/** The rule levels for a file: its configuration file's (.lwir.yaml / .lwir.json above it), as the CLI reads them. */
function rulesOf(source: Source): RuleLevels {
  if (source.file === undefined) return {};
  const configs = new ConfigLookup();
  const found = configs.forFile(source.file);
  if (configs.errors.length > 0) {
    throw new ToolError(`The configuration file cannot be used: ${configs.errors.flatMap((e) => e.lines).join("; ")}`);
  }
  return mergeRules(found?.config.rules);
}

interface Read {
  source: Source;
  text: string;
  format: Format;
  analysis: Analysis;
  rules: RuleLevels;
}

function read(input: DocumentInput): Read {
  const source = sourceOf(input);
  const { text, invalidUtf8, format } = readDecoded(decodeUtf8(source.bytes), source.formatName);
  return { source, text, format, analysis: analyzeText(text, format, invalidUtf8), rules: rulesOf(source) };
}

// ---- findings ---------------------------------------------------------------------------------------

/** 1-based, as `lwir validate` prints them; columns count UTF-16 code units, as editors do. */
export interface Edit {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  newText: string;
}

export interface FindingFix {
  title: string;
  /** `lwir validate --fix` (and the `fix` tool) would apply it: the one right fix, needing no choice. */
  auto: boolean;
  edits: Edit[];
}

export interface Finding {
  code: string;
  severity: string;
  /** "runtime": the runtime refuses the document (a parse error or one of its findings); "lwir": a check of LWIR Tools. */
  origin: "runtime" | "lwir";
  message: string;
  /** The runtime's path of the finding ("$.steps[1].needs[0]"); "" for a parse error. */
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  fixes?: FindingFix[];
}

function oneBased(p: Position): { line: number; column: number } {
  return { line: p.line + 1, column: p.character + 1 };
}

function editOf(start: Position, end: Position, newText: string): Edit {
  const s = oneBased(start);
  const e = oneBased(end);
  return { line: s.line, column: s.column, endLine: e.line, endColumn: e.column, newText };
}

/** Every problem of a report in source order, each with the fixes the editor's light bulb offers for it. */
function findingsOf(report: FileReport, analysis: Analysis, rules: RuleLevels): Finding[] {
  // The editor's diagnostics carry what their fixes read (`data`): matched to the report's problems by code and path, in order.
  const byKey = new Map<string, LwirDiagnosticData[]>();
  for (const d of applyRuleLevels(toDiagnostics(analysis), rules)) {
    const data = d.data as LwirDiagnosticData | undefined;
    if (!data) continue;
    const key = `${data.code}\0${data.path}`;
    const list = byKey.get(key);
    if (list) list.push(data);
    else byKey.set(key, [data]);
  }
  const doc = analysis.document;
  // Our own notices are the report's `notices`; parse errors and findings are what the runtime refuses.
  const own = new Set<object>(report.notices ?? []);
  return problemsInSourceOrder(report).map((p) => {
    const data = byKey.get(`${p.code}\0${p.path === "" ? "$" : p.path}`)?.shift();
    const fixes: FindingFix[] = [];
    if (data) {
      for (const fix of quickFixes(analysis, data)) {
        if (fix.edits.length === 0) continue;
        fixes.push({
          title: fix.title, auto: fix.auto === true,
          edits: fix.edits.map((e) => editOf(doc.positionAt(e.start), doc.positionAt(e.end), e.newText)),
        });
      }
    }
    const start = oneBased(p.range.start);
    const end = oneBased(p.range.end);
    return {
      code: p.code, severity: p.severity, origin: own.has(p) ? "lwir" : "runtime", message: p.message, path: p.path,
      line: start.line, column: start.column, endLine: end.line, endColumn: end.column,
      ...(fixes.length > 0 ? { fixes } : {}),
    };
  });
}

function countsOf(findings: readonly Finding[]): { errors: number; warnings: number; infos: number; hints: number } {
  const counts = { errors: 0, warnings: 0, infos: 0, hints: 0 };
  for (const f of findings) {
    if (f.severity === "error") counts.errors++;
    else if (f.severity === "warning") counts.warnings++;
    else if (f.severity === "info") counts.infos++;
    else counts.hints++;
  }
  return counts;
}

// ---- pages ------------------------------------------------------------------------------------------

/** A cursor is the offset where the next page starts, as a string the client hands back unchanged. */
function offsetOf(cursor: string | undefined, total: number): number {
  if (cursor === undefined) return 0;
  const n = /^\d+$/.test(cursor) ? Number(cursor) : NaN;
  if (!Number.isSafeInteger(n) || n > total) throw new ToolError(`The cursor "${cursor}" is not one this tool gave: start again without a cursor.`);
  return n;
}

function pageOf<T>(items: readonly T[], cursor: string | undefined, size: number): { items: T[]; nextCursor?: string } {
  const from = offsetOf(cursor, items.length);
  const to = Math.min(items.length, from + size);
  return { items: items.slice(from, to), ...(to < items.length ? { nextCursor: String(to) } : {}) };
}

/** A page of a long text; a page never ends between the two halves of a surrogate pair. */
function textPage(text: string, cursor: string | undefined): { text: string; nextCursor?: string } {
  const from = offsetOf(cursor, text.length);
  let to = Math.min(text.length, from + PAGE_CHARS);
  if (to < text.length && to > from + 1 && /[\uD800-\uDBFF]/.test(text[to - 1])) to--;
  return { text: text.slice(from, to), ...(to < text.length ? { nextCursor: String(to) } : {}) };
}

// ---- the tools --------------------------------------------------------------------------------------

export interface ValidateAnswer {
  format: Format;
  valid: boolean;
  workflowVersion: { id: string; hash: string } | null;
  counts: { errors: number; warnings: number; infos: number; hints: number };
  total: number;
  findings: Finding[];
  nextCursor?: string;
}

/** `lwir validate` on one document: the runtime's verdict, the WorkflowVersion, every problem with its fixes. */
export function validateTool(input: DocumentInput & { cursor?: string }): ValidateAnswer {
  const { source, text, format, analysis, rules } = read(input);
  const findings = findingsOf(reportOf(source.file ?? "<text>", format, text, analysis, { rules }), analysis, rules);
  const page = pageOf(findings, input.cursor, PAGE_FINDINGS);
  return {
    format, valid: analysis.valid, workflowVersion: versionOf(analysis), counts: countsOf(findings), total: findings.length,
    findings: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
}

function versionOf(analysis: Analysis): { id: string; hash: string } | null {
  const v = analysis.workflowVersion;
  return v ? { id: v.id, hash: v.hash } : null;
}

export type FixType = "problem" | "lint" | "all";

export interface FixAnswer {
  format: Format;
  /** The text after the fixes (a page of it: see nextCursor). */
  text: string;
  nextCursor?: string;
  /** How many fixes were applied, and their titles. */
  fixed: number;
  applied: string[];
  /** The changes, as edits of the text that was given (line ranges, 1-based; endLine's column 1 ends before that line). */
  edits: Edit[];
  /** The file was written (path and write: true, and something changed). */
  written: boolean;
  valid: boolean;
  workflowVersion: { id: string; hash: string } | null;
  /** What remains after the fixes (the first PAGE_FINDINGS; remainingTotal counts all). */
  remaining: Finding[];
  remainingTotal: number;
}

/** `lwir validate --fix` on one document: every fix that needs no choice, to a fixpoint; the file written atomically when asked. */
export function fixTool(input: DocumentInput & { write?: boolean; fixType?: FixType; cursor?: string }): FixAnswer {
  const source = sourceOf(input);
  if (input.write === true && source.file === undefined) throw new ToolError("write: true needs a path: text given inline has no file to write to (the fixed text is in the answer).");
  const rules = rulesOf(source);
  const kinds: FixKind[] = [...(input.fixType === "all" ? ALL_FIX_KINDS : input.fixType === "lint" ? new Set<FixKind>(["lint"]) : DEFAULT_FIX_KINDS)];
  const name = source.file ?? "<text>";
  const target = input.write === true ? source.file : undefined;
  const fixed = fixBytes(name, source.bytes, { rules, kinds, write: input.write === true }, source.formatName, target);
  if (fixed.failure) throw new ToolError(`Cannot write the fixes to ${name} (the file is unchanged): ${fixed.failure.reason}.`);
  const before = readDecoded(decodeUtf8(source.bytes), source.formatName);
  const after = fixed.change?.after ?? before.text;
  const analysis = analyzeText(after, before.format, fixed.change ? undefined : before.invalidUtf8);
  const remaining = findingsOf(reportOf(name, before.format, after, analysis, { rules }), analysis, rules);
  const page = textPage(after, input.cursor);
  return {
    format: before.format, text: page.text, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    fixed: fixed.change?.titles.length ?? 0, applied: fixed.change?.titles ?? [], edits: fixed.change ? lineEdits(before.text, after) : [],
    written: target !== undefined && fixed.change !== undefined, valid: analysis.valid, workflowVersion: versionOf(analysis),
    remaining: remaining.slice(0, PAGE_FINDINGS), remainingTotal: remaining.length,
  };
}

/** The changes from `before` to `after` as whole-line edits of `before` (the hunks of `lwir validate --fix-dry-run`'s diff). */
function lineEdits(before: string, after: string): Edit[] {
  const lines = splitLines(before);
  const endsWithBreak = /[\r\n]$/.test(before);
  // Where line k starts; past the last line, the end of the text.
  const position = (k: number): Position =>
    k < lines.length || endsWithBreak || lines.length === 0 ? { line: k, character: 0 } : { line: lines.length - 1, character: lines[lines.length - 1].length };
  const edits: Edit[] = [];
  let line = 0;
  let hunk: { start: number; removed: number; added: string } | undefined;
  const close = (): void => {
    if (hunk) edits.push(editOf(position(hunk.start), position(hunk.start + hunk.removed), hunk.added));
    hunk = undefined;
  };
  for (const op of diffLines(lines, splitLines(after))) {
    if (op.kind === " ") {
      close();
      line++;
      continue;
    }
    hunk ??= { start: line, removed: 0, added: "" };
    if (op.kind === "-") {
      hunk.removed++;
      line++;
    } else {
      hunk.added += op.line;
    }
  }
  close();
  return edits;
}

export interface ExplainAnswer {
  code: string;
  origin: "runtime" | "lwir";
  summary: string;
  page: string;
}

/** The rule page of a code (docs/rules/CODE.md): what it means, why, how to fix it, examples. */
export function explainTool(input: { code: string }): ExplainAnswer {
  const code = input.code.trim();
  const page = rulePage(code);
  const own = OWN_RULES.find((r) => r.code === code);
  const runtime = RULES.find(([c]) => c === code);
  if (page === undefined || (!own && !runtime && code !== PARSE_RULE)) {
    const known = [...RULES.map(([c]) => c), ...OWN_RULES.map((r) => r.code)];
    const close = closeNames(code, known, 3).map((s) => s.name);
    throw new ToolError(`No rule has the code "${code}".${close.length > 0 ? ` Did you mean ${close.join(", ")}?` : ""} The rules are the resources lwir://rules/CODE.`);
  }
  return { code, origin: own ? "lwir" : "runtime", summary: own?.description ?? runtime?.[1] ?? "", page };
}

export interface GraphAnswer {
  output: "mermaid" | "json";
  text: string;
  nextCursor?: string;
  valid: boolean;
  /** The runtime's findings: steps with findings are marked in the graph (the `validate` tool lists them). */
  findings: number;
}

/** `lwir graph` of one document: Mermaid, or the graph model as JSON (docs/graph.md). */
export function graphTool(input: DocumentInput & { output?: "mermaid" | "json"; cursor?: string }): GraphAnswer {
  const { analysis } = read(input);
  const doc = analysis.document;
  if (doc.parseErrors.length > 0 || doc.tooDeep) {
    const first = doc.parseErrors[0];
    const where = first ? ` at ${first.range.start.line + 1}:${first.range.start.character + 1}: ${first.message}` : "";
    throw new ToolError(`The document does not parse${where}. Nothing to draw: the validate tool lists its syntax errors.`);
  }
  const graph = buildGraph(doc.value, { findings: analysis.findings });
  const output = input.output ?? "mermaid";
  const page = textPage(output === "json" ? toJson(graph) : toMermaid(graph), input.cursor);
  return { output, ...page, valid: analysis.valid, findings: analysis.findings.length };
}

export interface SchemaAnswer {
  text: string;
  nextCursor?: string;
}

/** The JSON Schema of LWIR (`lwir schema`). */
export function schemaTool(input: { cursor?: string }): SchemaAnswer {
  return textPage(JSON.stringify(lwirSchema), input.cursor);
}

export interface CompletionAnswer {
  items: Array<{ label: string; kind?: string; detail?: string; insertText?: string }>;
  total: number;
}

const KIND_NAMES = new Map<number, string>(Object.entries(CompletionItemKind).map(([name, value]) => [value as number, name.toLowerCase()]));

/**
 * What may stand at a position (1-based line and column): the editor's completion there (the steps a
 * step may read, roots, functions, output properties, needs entries, targets, modes, models…).
 */
export function completeTool(input: DocumentInput & { line: number; column: number }): CompletionAnswer {
  const { analysis } = read(input);
  const text = analysis.document.text;
  const lines = splitLines(text);
  // As an editor counts lines: a text that ends with a line break (or is empty) has one more, empty line.
  const lineCount = lines.length + (text === "" || /[\r\n]$/.test(text) ? 1 : 0);
  const line = input.line - 1;
  const character = input.column - 1;
  const lineLength = (lines[line] ?? "").replace(/\r?\n$|\r$/, "").length;
  if (line < 0 || line >= lineCount || character < 0 || character > lineLength) {
    throw new ToolError(`Line ${input.line}, column ${input.column} is not in the document: it has ${lineCount} lines, and columns are 1-based, up to one past the end of the line.`);
  }
  const list = provideCompletion(analysis, undefined, { line, character });
  const items = list.items.filter((i) => i.label !== "").map(itemOf);
  return { items: items.slice(0, MAX_COMPLETIONS), total: items.length };
}

function itemOf(item: CompletionItem): CompletionAnswer["items"][number] {
  const edit = item.textEdit?.newText ?? item.insertText;
  return {
    label: item.label,
    ...(item.kind !== undefined && KIND_NAMES.has(item.kind) ? { kind: KIND_NAMES.get(item.kind) } : {}),
    ...(item.detail ? { detail: item.detail } : {}),
    ...(edit !== undefined && edit !== item.label ? { insertText: edit } : {}),
  };
}

// ---- dry runs ---------------------------------------------------------------------------------------

/** A system prompt or user message longer than this is shortened in a trace (`truncated`); `lwir run --dry --format json` has it whole. */
export const PROMPT_CHARS = 4_000;
/** A value (the input, the output, an expected or actual value) whose JSON is longer is given as the start of its JSON. */
export const VALUE_CHARS = 4_000;

/** Where the language server's answers read files from: the editor's texts over the disk (VS Code's tools). */
export interface AgentFiles {
  /** The file of the document sent as text, for what lies beside it (the scenarios file). */
  file?: string;
  /** The editor's texts of documents with unsaved edits, by absolute path. */
  texts?: Overlay;
}

/** A value as JSON carries it (`undefined` as {"undefined": true}, as `lwir run --dry --format json` writes it), shortened when long. */
function clip(value: unknown, max = VALUE_CHARS): { value: unknown; clipped: boolean } {
  const json = JSON.stringify(value, jsonReplacer) ?? "null";
  if (json.length <= max) return { value: JSON.parse(json), clipped: false };
  return { value: `${json.slice(0, max)}…`, clipped: true };
}

function shorten(text: string, max: number): { text: string; clipped: boolean } {
  if (text.length <= max) return { text, clipped: false };
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]) ? max - 1 : max;
  return { text: `${text.slice(0, end)}…`, clipped: true };
}

/** A page of items whose JSON adds up to at most PAGE_CHARS (at least one item); the cursor is the index of the next. */
function budgetPage<T>(items: readonly T[], cursor: string | undefined): { items: T[]; nextCursor?: string } {
  const from = offsetOf(cursor, items.length);
  let to = from;
  let size = 0;
  while (to < items.length) {
    size += JSON.stringify(items[to]).length + 1;
    if (size > PAGE_CHARS && to > from) break;
    to++;
  }
  return { items: items.slice(from, to), ...(to < items.length ? { nextCursor: String(to) } : {}) };
}

export interface RunErrorAnswer {
  /** The step path where the run stops (absent: before the first step or after the last). */
  step?: string;
  /** Where in the step: input, with.prompt, with.cases[0].when, with.items, output… */
  at?: string;
  expression?: string;
  message: string;
  /** The runtime's own words for it. */
  runtime?: string;
  cause?: string;
  findings?: string[];
}

function errorOf(e: RunError, withStep: boolean): RunErrorAnswer {
  return {
    ...(withStep && e.stepPath ? { step: e.stepPath } : {}), ...(e.at ? { at: e.at } : {}),
    ...(e.expression !== undefined ? { expression: e.expression } : {}), message: e.message,
    ...(e.runtime ? { runtime: e.runtime } : {}), ...(e.cause ? { cause: e.cause } : {}),
    ...(e.findings && e.findings.length > 0 ? { findings: e.findings } : {}),
  };
}

export interface DryRunStepAnswer {
  path: string;
  uses: string;
  visit?: number;
  /** given: the scenario's sample; generated: made from the output contract; computed: the step's own (decision, parallel). */
  sample?: "given" | "generated" | "computed";
  /** Decisions: the target chosen, and how: the index of the case that was truthy, the default, or forced (explore). */
  chosen?: string;
  case?: number;
  byDefault?: boolean;
  /** Parallel steps: the branch paths, in item order. */
  branches?: string[];
  /** ai.generate: the system prompt ("" for none) and the user message the model receives. */
  system?: string;
  user?: string;
  /** The system prompt or the user message was shortened. */
  truncated?: boolean;
  notes?: string[];
  error?: RunErrorAnswer;
}

function stepOf(s: TraceStep): DryRunStepAnswer {
  const system = s.system === undefined ? undefined : shorten(s.system, PROMPT_CHARS);
  const user = s.user === undefined ? undefined : shorten(s.user, PROMPT_CHARS);
  const decided = s.uses === "decision" && s.chosen !== undefined && !s.error;
  return {
    path: s.path, uses: s.uses, ...(s.visit !== undefined ? { visit: s.visit } : {}), ...(s.sample ? { sample: s.sample } : {}),
    ...(decided ? { chosen: s.chosen, ...(s.byDefault ? { byDefault: true } : s.forced ? {} : s.cases && s.cases.length > 0 ? { case: s.cases[s.cases.length - 1].index } : {}) } : {}),
    ...(s.branches ? { branches: s.branches } : {}),
    ...(system ? { system: system.text } : {}), ...(user ? { user: user.text } : {}),
    ...(system?.clipped || user?.clipped ? { truncated: true } : {}),
    ...(s.notes && s.notes.length > 0 ? { notes: s.notes } : {}),
    ...(s.error ? { error: errorOf(s.error, false) } : {}),
  };
}

export interface ExploredPathAnswer {
  choices: Array<{ decision: string; value: string }>;
  status: "completed" | "failed";
  steps: number;
  error?: RunErrorAnswer;
}

export interface DryRunAnswer {
  mode: "run" | "explore";
  /** run: the run completed or failed; explore: every path completed, or one failed. */
  status: "completed" | "failed";
  scenario?: string;
  /** The input, and where it comes from (generated from input.schema, the scenario, given). */
  input: unknown;
  inputFrom: string;
  /** run: the steps in the order they ran (a page of them: see nextCursor), and how many ran. */
  steps?: DryRunStepAnswer[];
  total?: number;
  /** run: the workflow's output (completed), or the error where the run stops (failed). */
  output?: unknown;
  error?: RunErrorAnswer;
  notes?: string[];
  /** explore: each combination of decision outcomes (a page of them), how many paths, how many fail, the steps no path reaches. */
  paths?: ExploredPathAnswer[];
  failing?: number;
  unreached?: string[];
  /** explore: more paths remained than the limit (1,000) allows. */
  limitReached?: boolean;
  /** Values given as the start of their JSON because they are long: "input", "output". */
  truncated?: string[];
  nextCursor?: string;
}

/** What the tool needs of a workflow: it must parse and have no finding, as for the runtime to register it. */
function dryRunnable(loaded: LoadedWorkflow): unknown {
  if (loaded.ok) return loaded.value;
  const p = loaded.problem;
  if (p.kind === "read") throw new ToolError(`Cannot read the workflow: ${p.reason}.`);
  if (p.kind === "parse") {
    const where = p.line !== undefined ? ` at ${p.line}:${p.column}: ${(p.message ?? "").replace(/\.+$/, "")}` : " (nested too deeply)";
    throw new ToolError(`The workflow does not parse${where}. The validate tool lists its syntax errors.`);
  }
  throw new ToolError(`The runtime would not register this workflow: ${p.count} ${p.count === 1 ? "finding" : "findings"} (the validate tool lists them; fix applies the fixes that need no choice). A dry run needs a workflow the runtime accepts.`);
}

/**
 * `lwir run --dry` on one workflow: the steps in order (path, visit, the decision's choice, the prompt an
 * ai.generate step sends, whether its output was a given or generated sample), the output or the error
 * where the run stops; with explore, every combination of decision outcomes.
 */
export function dryRunTool(args: DocumentInput & { input?: unknown; scenario?: string; explore?: boolean; cursor?: string }, files: AgentFiles = {}): DryRunAnswer {
  const source = sourceOf(args);
  const file = source.file ?? files.file;
  const workflow = dryRunnable(checkedWorkflow(source.bytes, source.formatName));
  if (args.scenario !== undefined && file === undefined) {
    throw new ToolError("A scenario is read from the scenarios file beside the workflow (NAME.lwir.test.yaml): give path, not text, or give input instead.");
  }
  const started = dryRunStart(file ?? "", workflow, args.scenario, files.texts);
  if (!started.ok) throw new ToolError(`${started.file}: ${started.message.replace(/\.+$/, "")}.`);
  const start = started.start;
  if (Object.hasOwn(args, "input")) {
    start.input = args.input;
    start.inputFrom = "given";
  }
  const input = clip(start.input);
  const head = { ...(start.scenario !== undefined ? { scenario: start.scenario } : {}), input: input.value, inputFrom: start.inputFrom };
  if (args.explore === true) {
    const x = dryRun(workflow, start, true);
    const paths = x.paths.map((p): ExploredPathAnswer => ({ choices: p.choices, status: p.status, steps: p.steps, ...(p.error ? { error: errorOf(p.error, true) } : {}) }));
    const page = pageOf(paths, args.cursor, PAGE_FINDINGS);
    return {
      mode: "explore", status: x.failing.length > 0 ? "failed" : "completed", ...head,
      paths: page.items, total: paths.length, failing: x.failing.length, unreached: x.unreached, limitReached: x.truncated,
      ...(input.clipped ? { truncated: ["input"] } : {}), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    };
  }
  const trace = dryRun(workflow, start);
  const page = budgetPage(trace.steps.map(stepOf), args.cursor);
  const output = trace.status === "completed" ? clip(trace.output) : undefined;
  const truncated = [...(input.clipped ? ["input"] : []), ...(output?.clipped ? ["output"] : [])];
  return {
    mode: "run", status: trace.status, ...head, steps: page.items, total: trace.steps.length,
    ...(output ? { output: output.value } : {}), ...(trace.error ? { error: errorOf(trace.error, true) } : {}),
    ...(trace.notes.length > 0 ? { notes: trace.notes } : {}),
    ...(truncated.length > 0 ? { truncated } : {}), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
}

// ---- scenarios --------------------------------------------------------------------------------------

export interface TestFailureAnswer {
  /** expect.steps, expect.chosen.ID, expect.output, expect.error, or run (the run failed, no error was expected). */
  what: string;
  message: string;
  /** Where the expectation is written in the scenarios file (1-based). */
  line: number;
  column: number;
  expected?: unknown;
  actual?: unknown;
  /** expected or actual is given as the start of its JSON. */
  truncated?: boolean;
}

export interface TestFileAnswer {
  file: string;
  workflow: string | null;
  /** Why the file's scenarios could not run (unreadable, its workflow missing or with findings). */
  error?: string;
  problems: Array<{ message: string; line: number; column: number }>;
  scenarios: Array<{
    name: string;
    line: number;
    status: "passed" | "failed";
    /** How the dry run ended, after how many steps, and its error. */
    run: "completed" | "failed";
    steps: number;
    error?: RunErrorAnswer;
    failures: TestFailureAnswer[];
  }>;
}

export interface TestAnswer {
  passed: number;
  failed: number;
  /** Scenarios files that could not run, and problems in them. */
  errors: number;
  files: TestFileAnswer[];
  notices?: string[];
  nextCursor?: string;
}

function fileAnswer(r: TestFileResult): TestFileAnswer {
  return {
    file: r.file, workflow: r.workflow ?? null, ...(r.error !== undefined ? { error: r.error } : {}),
    problems: r.problems.map((p) => ({ message: p.message, ...oneBased(p.position) })),
    scenarios: r.results.map((s) => ({
      name: s.scenario.name, line: s.scenario.position.line + 1, status: s.failures.length === 0 ? "passed" : "failed",
      run: s.trace.status, steps: s.trace.steps.length, ...(s.trace.error ? { error: errorOf(s.trace.error, true) } : {}),
      failures: s.failures.map((f) => {
        const expected = f.expected === undefined ? undefined : clip(f.expected);
        const actual = f.actual === undefined ? undefined : clip(f.actual);
        return {
          what: f.what, message: f.message, ...oneBased(f.position),
          ...(expected ? { expected: expected.value } : {}), ...(actual ? { actual: actual.value } : {}),
          ...(expected?.clipped || actual?.clipped ? { truncated: true } : {}),
        };
      }),
    })),
  };
}

/**
 * `lwir test` on a path (a scenarios file, a workflow with one beside it, or a folder): every scenario run
 * and its expectations checked; a failing expectation with what was expected, what happened, and its line.
 */
export function testTool(args: { path: string; scenario?: string; cursor?: string }, files: AgentFiles = {}): TestAnswer {
  const cwd = process.cwd();
  const found = scenariosFilesIn([args.path], cwd, files.texts);
  const problems = found.messages.filter((m) => m.problem).map((m) => m.text);
  if (problems.length > 0) throw new ToolError(`${problems.map((p) => p.replace(/\.+$/, "")).join("; ")}.`);
  const results = found.files.map((f) => testFile(f, cwd, args.scenario, files.texts));
  if (args.scenario !== undefined && results.every((r) => r.error === undefined && r.results.length === 0)) {
    throw new ToolError(`No scenario is named ${JSON.stringify(args.scenario)} in ${args.path}.`);
  }
  const summary = counts(results);
  const page = budgetPage(results.map(fileAnswer), args.cursor);
  const notices = found.messages.filter((m) => !m.problem).map((m) => m.text);
  return { ...summary, files: page.items, ...(notices.length > 0 ? { notices } : {}), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}
