// Completion for LWIR documents, in JSON and YAML, also while the text is broken mid-typing.
//
// Three inputs, each from where it is freshest and cheapest:
// - what is typed at the cursor, and the path to it: from the current TEXT (cursor.ts scans it; no
//   parse of the whole document);
// - the steps, scopes, schemas and permissions ("facts"): from the current analysis when it parses,
//   else from the last analysis that did (a document broken mid-typing keeps its last good facts);
// - where an extra edit goes (a `needs` entry): from the current text again, around the step.
//
// provideCompletionFromText() takes the current text and the last analysis and never parses the
// document, so a server can answer completion right after an edit without waiting for (or running)
// a full re-analysis; provideCompletion() is the same for a caller that already has the current one.
// provideCompletionNearCursor() (JSON) goes further: it reads only the step around the cursor from an
// edited document whose new text is not built yet. Long step lists are cut to a window
// (completionStepWindow.ts) and marked incomplete.
import { needsAnchor, yamlFlowLists } from "./needsPlacement";
import { schemaAtPath, schemaPropertyItems } from "./schemaCompletion";
import {
  CompletionItemKind,
  InsertTextFormat,
  InsertTextMode,
  type CompletionItem,
  type CompletionList,
  type Position,
  type Range,
  type TextEdit,
} from "vscode-languageserver-types";
import type { Format, LwirDocument } from "../document/types";
import {
  EXPRESSION_FUNCTIONS,
  EXPRESSION_ROOTS,
  STEP_PROPERTIES,
  completionContextAt,
  parseExpression,
  templateAt,
  type ExprNode,
} from "../lwir/expressions";
import { pathTo, shortestPathParents, type Graph } from "../lwir/graph";
import type { PathSegment } from "../lwir/types";
import {
  API_VERSION,
  END,
  FAILURE_MODES,
  FAN_IN_ORDERS,
  KIND,
  OUTPUT_MODES,
  STEP_TYPES,
  decisionTargets,
  isObject,
} from "../lwir/validate";
import { analyzeText, type Analysis } from "./analysis";
import {
  Positioner,
  blockMembers,
  commonPrefix,
  cursorAt,
  decodeWithMap,
  flowMembers,
  indentUnit,
  INDENT_SAMPLE_LINES,
  lineEndAt,
  lineStartAt,
  offsetOf,
  type CursorInfo,
  type MemberLoc,
  type SyncPoint,
  type TextFrame,
  type TextScalar,
} from "./cursor";
import { factsOf, isMultiVisit, outputOf, readableSteps, type ListFacts, type StepFacts, type WorkflowFacts } from "./stepFacts";
import {
  FAILURE_MODE_DOCS,
  FAN_IN_ORDER_DOCS,
  OUTPUT_MODE_DOCS,
  STEP_KEYS,
  STEP_TYPE_DOCS,
  arr,
  choice,
  escapeSnippet,
  obj,
  ph,
  raw,
  emptyArr,
  metadataSnippet,
  newWorkflowSnippet,
  permissionsSnippet,
  renderDocument,
  renderItem,
  renderMember,
  schemaSnippet,
  objectSchema,
  keyText,
  stepsSnippet,
  renderValue,
  stepKeyValue,
  stepSnippet,
  str,
  withKeys,
  type RenderStyle,
  type ShapeEnv,
  type Snip,
} from "./snippets";
import { stepWindow } from "./completionStepWindow";
import { isEmptyText, newWorkflowCompletionEdits } from "./emptyDocument";
import { fileNameOf } from "./workspace";
import { doubleQuotedInner, quoteYaml, singleQuotedInner, yamlScalar } from "../document/yamlQuote";

/**
 * How the client came to ask. `typed`: the editor opened the list by itself on a trigger character
 * (LSP `CompletionTriggerKind.TriggerCharacter`). In JSON such a list is answered only inside `{{ }}`:
 * after `{`, `"`, `:` or `[` the next key a user presses is usually Enter, which would accept the first
 * item (a whole `{"apiVersion": …}` on one line). Asked for (Ctrl+Space, or the editor's suggestions
 * while a word is typed), JSON gets everything. YAML's trigger characters (`:`, space, `-`) are followed
 * by a space or a word, not by Enter, so YAML answers them as before.
 */
export interface CompletionTrigger {
  typed?: boolean;
}

/** Completion for a document whose current analysis the caller has (maybe freshly parsed). */
export function provideCompletion(
  current: Analysis, lastGood: Analysis | undefined, position: Position, trigger: CompletionTrigger = {}, others?: OtherDocuments,
): CompletionList {
  const doc = current.document;
  const parsed = doc.parseErrors.length === 0 && !doc.tooDeep && doc.value !== undefined;
  const source = parsed ? current : lastGood ?? current;
  return complete(doc.text, doc.format, source, position, doc.offsetAt(position), undefined, trigger, others);
}

/**
 * The other open LWIR documents' analyses (already made; the workspace's last good ones), asked only
 * where completion offers names used elsewhere (an entry of `permissions.models` / `tools`).
 */
export type OtherDocuments = () => ReadonlyArray<{ uri: string; analysis: Analysis }>;

/**
 * Completion from the current text and the last analysis (of an earlier version, or undefined),
 * without parsing the text: what the cursor is on comes from the text, the facts from `analysis`.
 */
export function provideCompletionFromText(
  text: string, format: Format, analysis: Analysis | undefined, position: Position, trigger: CompletionTrigger = {}, others?: OtherDocuments,
): CompletionList {
  return complete(text, format, analysis, position, offsetOf(text, position), undefined, trigger, others);
}

const EMPTY: CompletionList = { isIncomplete: false, items: [] };

/** The text of an open document as it stands after an edit, read without building all of it (LazyTextDocument). */
export interface EditedText {
  readonly length: number;
  /** The current text between two offsets. */
  slice(start: number, end: number): string;
  offsetAt(position: Position): number;
  /** The one change since `text` (offsets in `text`), null if none; undefined if the text does not derive from `text` so. */
  changeSince(text: string): { start: number; end: number; text: string } | null | undefined;
}

/** What a change must not type or delete for the step's structure, as the last analysis has it, to hold. */
const STRUCTURAL = /["{}[\]\\\r\n]/;

/**
 * JSON, right after an edit: completion from the step around the cursor alone, when the last analysis
 * (of the text before the edit) has that step and the edit is inside it and types or deletes nothing
 * that could change its structure. The answer is the one from the whole text, without building the
 * whole text (an O(n) copy for each edit of a large document). Undefined where that does not hold.
 */
export function provideCompletionNearCursor(edited: EditedText, analysis: Analysis, position: Position, trigger: CompletionTrigger = {}): CompletionList | undefined {
  const doc = analysis.document;
  if (doc.format !== "json" || doc.parseErrors.length > 0 || doc.tooDeep) return undefined;
  const change = edited.changeSince(doc.text);
  if (change === undefined) return undefined;
  if (change && (STRUCTURAL.test(change.text) || STRUCTURAL.test(doc.text.slice(change.start, change.end)))) return undefined;
  const delta = change ? change.text.length - (change.end - change.start) : 0;
  const offset = edited.offsetAt(position);
  const around = stepAround(doc, change ? Math.min(offset, change.start) : offset);
  if (!around) return undefined;
  const { start, end: endBefore } = around.loc;
  if (change && !(change.start > start && change.end < endBefore)) return undefined;
  const end = endBefore + delta;
  if (offset <= start || offset >= end) return undefined;
  // the window: from the start of the step's first line to the end of its last, so columns stay as they are
  const from = lineStartAt(doc.text, start);
  const tail = edited.slice(end, end + 512);
  const lineEnd = tail.search(/[\r\n]/);
  const to = lineEnd >= 0 ? end + lineEnd : end + tail.length;
  const text = edited.slice(from, to);
  const at = offset - from;
  // a position the client gave past a line's end: the whole-text path clamps it against the whole text
  if (position.character !== at - lineStartAt(text, at)) return undefined;
  const sync: SyncPoint = {
    start: start - from,
    path: around.path,
    ancestors: around.ancestors.map((a) => ({ ...a, start: a.start - from })),
  };
  // the indent unit from the first lines of the document, the line breaks from the analysed text (the edit typed none)
  const head = edited.slice(0, edited.offsetAt({ line: INDENT_SAMPLE_LINES, character: 0 }));
  return complete(text, "json", analysis, position, at, { sync, unit: indentUnit(head), crlf: () => doc.text.includes("\r\n") }, trigger);
}

/**
 * JSON: the step around the cursor as the analysed document has it, when it starts in the part of
 * the text that has not changed since, so the cursor scan can start there rather than at the top.
 */
function syncPoint(doc: LwirDocument, text: string, offset: number): SyncPoint | undefined {
  if (doc.format !== "json" || doc.parseErrors.length > 0 || doc.tooDeep) return undefined;
  const around = stepAround(doc, doc.text === text ? offset : commonPrefix(doc.text, text, offset));
  return around && { start: around.loc.start, path: around.path, ancestors: around.ancestors };
}

/**
 * The innermost step of the analysed JSON document that begins before `q` and holds it: its path,
 * where it begins and ends (after its `}`), and its enclosing containers (outermost first).
 */
function stepAround(doc: LwirDocument, q: number): { path: PathSegment[]; loc: { start: number; end: number }; ancestors: SyncPoint["ancestors"] } | undefined {
  const at = doc.pathAt(q);
  if (!at) return undefined;
  const segs = at.segments;
  let n = 0;
  while (segs[n] === "steps" && typeof segs[n + 1] === "number") n += 2;
  if (n === 0) return undefined;
  const path = segs.slice(0, n);
  const loc = doc.locate(path);
  const text = doc.text;
  if (!loc || loc.valueStart >= q || text.charCodeAt(loc.valueStart) !== 123 /* { */) return undefined;
  const ancestors: SyncPoint["ancestors"] = [];
  for (let k = 0; k < n; k++) {
    const prefix = path.slice(0, k);
    const l = k === 0 ? { valueStart: text.indexOf("{") } : doc.locate(prefix);
    if (!l || l.valueStart < 0) return undefined;
    ancestors.push({ start: l.valueStart, path: prefix, kind: typeof path[k] === "number" ? "array" : "object" });
  }
  return { path, loc: { start: loc.valueStart, end: loc.valueEnd }, ancestors };
}

/**
 * `text` may be a window of the document (provideCompletionNearCursor): then `near` gives where the
 * scan starts and what would otherwise be read from the whole text.
 */
function complete(
  text: string, format: Format, analysis: Analysis | undefined, requested: Position, offset: number,
  near?: { sync: SyncPoint; unit: number; crlf: () => boolean },
  trigger: CompletionTrigger = {},
  others?: OtherDocuments,
): CompletionList {
  const position = positionInside(text, requested, offset);
  // Not on a JSON trigger character: after `{` the next key is Enter, which must break the line (Ctrl+Space offers it).
  const fresh = trigger.typed === true && format === "json" ? undefined : newWorkflowItem(text, format, position, offset);
  const cursor = cursorAt(text, format, offset, near ? near.sync : analysis ? syncPoint(analysis.document, text, offset) : undefined);
  if (!cursor) return fresh ? withLineBreaks(text, { isIncomplete: false, items: [fresh] }) : EMPTY;
  const source = cursor.token && isOpenString(cursor.token) && !parsedAs(analysis, text) ? closedStringAnalysis(text, format, cursor.token) ?? analysis : analysis;
  const facts = source ? factsOf(source) : undefined;
  const c = new Completer(text, format, cursor, facts, position, near?.unit, trigger.typed === true && format === "json", others);
  c.run();
  if (fresh) c.items.unshift(fresh);
  const multiLine = (e: TextEdit | undefined) => e !== undefined && e.newText.includes("\n");
  const anyMultiLine = c.items.some((item) => multiLine(item.textEdit as TextEdit | undefined) || item.additionalTextEdits?.some(multiLine));
  if (anyMultiLine && (near ? near.crlf() : text.includes("\r\n"))) {
    // line breaks of inserted text follow the document's (asked only when an edit has one)
    const crlf = (e: TextEdit | undefined) => { if (e && e.newText.includes("\n")) e.newText = e.newText.replace(/\r?\n/g, "\r\n"); };
    for (const item of c.items) {
      crlf(item.textEdit as TextEdit | undefined);
      item.additionalTextEdits?.forEach(crlf);
    }
  }
  return { isIncomplete: c.incomplete, items: c.items };
}

/**
 * "New workflow" in an empty document (emptyDocument.ts: white space, `{}`, `---`, comments): the whole
 * skeleton, offered first. Its range is the cursor's whole line, so the skeleton starts at column 0 (a
 * YAML top-level mapping must); the rest of a JSON `{}` goes with additional edits. The filter text
 * starts with what the line holds before the cursor (`{`), which the editor matches it against.
 */
function newWorkflowItem(text: string, format: Format, position: Position, offset: number): CompletionItem | undefined {
  if (!isEmptyText(text, format)) return undefined;
  const lineStart = lineStartAt(text, offset);
  const positionAt = (o: number): Position => {
    const before = text.slice(0, o);
    const line = before.split(/\r\n|\r|\n/);
    return { line: line.length - 1, character: line[line.length - 1].length };
  };
  const edits = newWorkflowCompletionEdits(text, format, offset, positionAt);
  if (!edits) return undefined;
  const typed = text.slice(lineStart, offset).trimStart();
  return {
    label: NEW_WORKFLOW_LABEL, kind: CompletionItemKind.Snippet, detail: "Workflow skeleton",
    documentation: md("A whole workflow that validates as written (apiVersion, kind, metadata, input, output, permissions and one step): fill in its name, model and prompt (Tab moves to the next place)."),
    textEdit: { range: edits.main, newText: renderDocument(newWorkflowSnippet(), { format, indent: 0, unit: 2 }) },
    ...(edits.others.length ? { additionalTextEdits: edits.others } : {}),
    insertTextFormat: InsertTextFormat.Snippet, insertTextMode: InsertTextMode.asIs, sortText: "!", filterText: typed + NEW_WORKFLOW_LABEL, preselect: true,
  };
}

export const NEW_WORKFLOW_LABEL = "New workflow";

/** Line breaks of inserted text follow the document's. */
function withLineBreaks(text: string, list: CompletionList): CompletionList {
  if (!text.includes("\r\n")) return list;
  for (const item of list.items) {
    const e = item.textEdit as TextEdit | undefined;
    if (e) e.newText = e.newText.replace(/\r?\n/g, "\r\n");
  }
  return list;
}

/** A quoted scalar whose closing quote is not on its line (not a line of a block scalar). */
function isOpenString(token: TextScalar): boolean {
  return token.quote !== "" && !token.closed && !token.block;
}

/** The analysis is of exactly this text, and it parsed. */
function parsedAs(analysis: Analysis | undefined, text: string): boolean {
  return analysis !== undefined && analysis.document.parseErrors.length === 0 && !analysis.document.tooDeep && analysis.document.text === text;
}

let closedString: { text: string; format: Format; at: number; analysis: Analysis | undefined } | undefined;

/**
 * Typed in an editor that does not close quotes: the string under the cursor runs to the end of its
 * line (`"prompt": "Decide on {{ steps.` in JSON, `prompt: "Decide on {{ steps.` in YAML), so the text
 * does not parse. With the quote closed there it usually does, and that is the document as the user
 * sees it: its facts are fresher than the last analysis that parsed, and there may be none (a file
 * opened broken). Undefined when closing it does not make the text parse. The last answer is kept: an
 * editor asks again at each keystroke of a word, with a new text each time, but also re-asks.
 */
function closedStringAnalysis(text: string, format: Format, token: TextScalar): Analysis | undefined {
  if (closedString && closedString.at === token.end && closedString.format === format && closedString.text === text) return closedString.analysis;
  const after = text.slice(token.end);
  // In JSON the next member may already follow on the next line: then the comma is missing too.
  const closings = format === "json" && /^\s*"/.test(after) ? [token.quote, token.quote + ","] : [token.quote];
  let analysis: Analysis | undefined;
  for (const closing of closings) {
    const closed = analyzeText(text.slice(0, token.end) + closing + after, format);
    if (closed.document.parseErrors.length === 0 && !closed.document.tooDeep) {
      analysis = closed;
      break;
    }
  }
  closedString = { text, format, at: token.end, analysis };
  return analysis;
}

/**
 * The position of `offset` (the requested position, clamped into the text): a client's position past a line's
 * end or past the last line must not leak into the edits' ranges. Counts lines only when the requested position
 * may be off (at the end of the text, or when clamping moved it).
 */
function positionInside(text: string, position: Position, offset: number): Position {
  const { line, character } = position;
  const exact = Number.isInteger(line) && Number.isInteger(character) && line >= 0 && character === offset - lineStartAt(text, offset);
  return exact && offset < text.length ? position : new Positioner(text, 0, 0).positionAt(offset);
}

// ---------------------------------------------------------------------------------------------

const SEGMENT = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;
const WORD_CHAR = /[A-Za-z0-9_$-]/;

interface StepCtx {
  /** Path of the step in the current text. */
  path: PathSegment[];
  /** Path inside the step. */
  rest: PathSegment[];
  list: ListFacts | undefined;
  facts: StepFacts | undefined;
  id: string | undefined;
  uses: unknown;
  /** The step's needs as written now (text), else as last analysed. */
  needs: string[];
  /** The step's members in the current text (for edits); undefined when it is not written as an object. */
  members: MemberLoc[] | undefined;
  frame: TextFrame | undefined;
  inBody: boolean;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

class Completer {
  readonly items: CompletionItem[] = [];
  /** A long step list was cut to a window (completionStepWindow.ts): the client must ask again as the user types. */
  incomplete = false;
  private readonly pos: Positioner;
  private unitCache: number | undefined;

  constructor(
    private readonly text: string,
    private readonly format: Format,
    private readonly cursor: CursorInfo,
    private readonly facts: WorkflowFacts | undefined,
    position: Position,
    unit?: number,
    /** Answer inside a `{{ }}` template only (CompletionTrigger). */
    private readonly templatesOnly = false,
    private readonly others?: OtherDocuments,
  ) {
    this.pos = Positioner.at(text, position, cursor.offset);
    this.unitCache = unit;
  }

  private get unit(): number {
    return (this.unitCache ??= indentUnit(this.text));
  }

  private readonly positions = new Map<number, Position>();

  private positionAt(offset: number): Position {
    let p = this.positions.get(offset);
    if (!p) { p = this.pos.positionAt(offset); this.positions.set(offset, p); }
    return { line: p.line, character: p.character };
  }

  private range(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(end) };
  }

  private edit(e: Edit): TextEdit {
    return { range: this.range(e.start, e.end), newText: e.text };
  }

  run(): void {
    const cur = this.cursor;
    let kind = cur.kind;
    let path = cur.path;
    let yamlItem = cur.yamlItem === true;
    if (kind === "entry") {
      // a blank block-YAML line right under `path`: a new item when `path` holds a list
      if (this.holdsArray(path)) {
        kind = "value";
        path = [...path, this.arrayLength(path)];
        yamlItem = true;
      } else kind = "key";
    }
    const step = this.stepContext(path, kind);
    if (kind === "value" && cur.token && this.expression(step)) return;
    if (this.templatesOnly) return;
    if (kind === "value") {
      this.values(path, step, yamlItem);
      if (cur.maybeKey && step && step.rest.length === 0 && this.isStepList(path.slice(0, -1))) this.keys(path, step);
      return;
    }
    this.keys(path, step);
  }

  // ---- where we are --------------------------------------------------------------------------

  private holdsArray(path: PathSegment[]): boolean {
    const last = path[path.length - 1];
    if (this.isStepList(path)) return true;
    const step = splitStepPath(path);
    if (step && step.rest.length === 1 && last === "needs") return true;
    if (step && step.rest.length === 2 && step.rest[0] === "with" && last === "cases") return true;
    if (path.length === 2 && path[0] === "permissions") return true;
    return false;
  }

  private arrayLength(path: PathSegment[]): number {
    const frame = this.cursor.frames.find((f) => samePath(f.path, path));
    return frame ? frame.items.length : 0;
  }

  /** `steps` at the top or in a step (a parallel body). */
  private isStepList(path: PathSegment[]): boolean {
    if (path.length === 0 || path[path.length - 1] !== "steps") return false;
    if (path.length === 1) return true;
    const s = splitStepPath(path.slice(0, -1));
    return s !== undefined && s.rest.length === 0;
  }

  private stepContext(path: PathSegment[], kind: "key" | "value" | "entry"): StepCtx | undefined {
    const split = splitStepPath(path);
    if (!split) return undefined;
    const { stepPath, rest } = split;
    // A value at [..., "steps", n] is a whole (new) step: it has no frame of its own yet.
    const frame = this.cursor.frames.find((f) => f.kind === "object" && samePath(f.path, stepPath));
    let members: MemberLoc[] | undefined;
    if (frame) {
      members = frame.flow
        ? flowMembers(this.text, frame.start, this.format === "yaml").members
        : blockMembers(this.text, frame.start, frame.column ?? 0);
    }
    const member = (k: string) => members?.find((m) => m.key === k);
    const textId = member("id")?.scalar ?? frameScalar(frame, "id");
    const textUses = member("uses")?.scalar ?? frameScalar(frame, "uses");
    const listPath = stepPath.slice(0, -1);
    let list = this.facts?.lists.find((l) => samePath(l.segments, listPath));
    let sf = list?.steps.find((s) => samePath(s.segments, stepPath));
    if (textId !== undefined && sf?.id !== textId) {
      // the text moved on since the facts were taken (a step inserted above): match by id
      sf = list?.byId.get(textId);
      if (!sf && this.facts) {
        for (const l of this.facts.lists) {
          const s = l.segments.length === listPath.length ? l.byId.get(textId) : undefined;
          if (s) { sf = s; list = l; break; }
        }
      }
    }
    if (kind === "value" && rest.length === 0) sf = undefined; // a new step typed here
    const needsMember = member("needs");
    const needs = needsMember
      ? (needsMember.elements ?? []).map((e) => e.value).filter((v): v is string => typeof v === "string" && v.length > 0)
      : frame ? [] : sf?.needs ?? [];
    return {
      path: stepPath, rest, list, facts: sf, id: textId ?? sf?.id, uses: textUses ?? sf?.uses, needs, members, frame,
      inBody: stepPath.length > 2,
    };
  }

  // ---- expressions -----------------------------------------------------------------------------

  /** Completion inside `{{ }}`; true when the cursor is in a template (even where none is offered). */
  private expression(step: StepCtx | undefined): boolean {
    const cur = this.cursor;
    const token = cur.token!;
    const rawText = this.text.slice(token.contentStart, Math.max(token.contentStart, token.contentEnd));
    const { value, map } = token.quote ? decodeWithMap(rawText, token.quote) : { value: rawText, map: identityMap(rawText.length) };
    const rawAt = cur.offset - token.contentStart;
    if (rawAt < 0) return false;
    let d = 0;
    while (d < value.length && map[d] < rawAt) d++;
    const tmpl = templateAt(value, d);
    if (!tmpl) return false;
    const where = step ? expressionPosition(step) : undefined;
    if (!step || !where) return true;
    const ctx = completionContextAt(tmpl.body, d - tmpl.bodyStart);
    if (ctx.kind === "none") return true;
    const startDec = tmpl.bodyStart + ctx.replaceStart;
    let endDec = d;
    while (endDec < value.length && WORD_CHAR.test(value[endDec])) endDec++;
    const rawOffset = (i: number) => token.contentStart + map[Math.min(i, map.length - 1)];
    const host = (s: string) => (token.quote === '"' ? doubleQuotedInner(s) : token.quote === "'" ? singleQuotedInner(s) : s);
    const add = (item: CompletionItem, insert: string, opts: { from?: number; snippet?: boolean; filter?: string } = {}) => {
      const from = opts.from ?? startDec;
      const newText = opts.snippet ? insert : host(insert);
      item.textEdit = { range: this.range(rawOffset(from), rawOffset(endDec)), newText };
      item.filterText = opts.filter ?? item.label;
      if (opts.snippet) item.insertTextFormat = InsertTextFormat.Snippet;
      this.items.push(item);
    };

    if (ctx.kind === "root") {
      EXPRESSION_ROOTS.forEach((r, i) => {
        if (r.name === "item" && !where.itemAllowed) return;
        add({ label: r.name, kind: CompletionItemKind.Variable, detail: "root", documentation: md(r.doc), sortText: `0${i}` }, r.name);
      });
      EXPRESSION_FUNCTIONS.forEach((f, i) => {
        const params = f.signature.slice(f.signature.indexOf("(") + 1, f.signature.lastIndexOf(")")).split(",").map((s) => s.trim()).filter((s) => s && !s.startsWith("..."));
        const args = params.slice(0, Math.max(f.minArgs, 1)).map((p, k) => `\${${k + 1}:${escapeSnippet(host(p))}}`);
        add(
          { label: f.name, kind: CompletionItemKind.Function, detail: f.signature, documentation: md(f.doc), sortText: `1${String(i).padStart(2, "0")}` },
          `${f.name}(${args.join(", ")})`, { snippet: true },
        );
      });
      return true;
    }

    const readable = step.list ? readableSteps(step.list) : [];
    if (ctx.kind === "steps") {
      const quote = tmpl.body[ctx.replaceStart - 1];
      const bracket = quote === '"' || quote === "'";
      const others = readable.filter((s) => !(s.id === step.id && s.list === step.list));
      const self = step.facts;
      if (self && isMultiVisit(self) && this.onCycle(self)) others.push(self);
      const typed = tmpl.body.slice(ctx.replaceStart, d - tmpl.bodyStart);
      const candidates = this.window(others, step, typed, (s) => s === self || step.needs.includes(s.id));
      candidates.forEach((s, i) => {
        const isSelf = s === self;
        const item: CompletionItem = {
          label: s.id, kind: CompletionItemKind.Reference, detail: stepDetail(s),
          documentation: md(stepDoc(s, isSelf)), sortText: `${step.needs.includes(s.id) || isSelf ? 0 : 1}${String(i).padStart(5, "0")}`,
        };
        const edit = isSelf ? undefined : this.needsEdit(step, s, undefined);
        if (edit) {
          item.additionalTextEdits = [edit];
          item.documentation = md(`${stepDoc(s, false)}\n\nAccepting adds \`${s.id}\` to this step's \`needs\`.`);
        }
        if (bracket) {
          add(item, s.id.replace(/\\/g, "\\\\").split(quote).join("\\" + quote));
        } else if (SEGMENT.test(s.id)) {
          add(item, s.id);
        } else {
          // ids that are not dot segments are read with the bracket form
          add(item, `[${JSON.stringify(s.id)}]`, { from: startDec - 1, filter: `.${s.id}` });
        }
      });
      return true;
    }

    if (ctx.kind === "stepProperty") {
      const target = this.resolveStep(step, readable, ctx.stepId);
      if (!target) return true;
      const props = isMultiVisit(target) ? ["lastOutput", "allVisits"] : ["output"];
      props.forEach((name, i) => {
        const doc = STEP_PROPERTIES.find((p) => p.name === name)?.doc ?? "";
        const item: CompletionItem = { label: name, kind: CompletionItemKind.Property, detail: `${target.id}: ${stepDetail(target)}`, documentation: md(doc), sortText: `0${i}` };
        const edit = target === step.facts ? undefined : this.needsEdit(step, target, name);
        if (edit) item.additionalTextEdits = [edit];
        add(item, name);
      });
      return true;
    }

    // a later segment of a path: properties from a schema
    const segs = ctx.segments;
    let schema: unknown;
    // (service/schemaCompletion.ts: the schema a path reaches, and its declared properties)
    if (segs[0] === "input") schema = schemaAtPath(this.inputSchema(), segs.slice(1));
    else if (segs[0] === "item") schema = schemaAtPath(this.itemSchema(step, where.itemKey), segs.slice(1));
    else if (segs[0] === "steps" && segs.length >= 3) {
      const target = this.resolveStep(step, readable, segs[1]);
      const out = target ? outputSchema(target) : undefined;
      if (segs[2] === "output" || segs[2] === "lastOutput") schema = schemaAtPath(out, segs.slice(3));
      else if (segs[2] === "allVisits" && segs.length >= 4 && /^\d+$/.test(segs[3])) schema = schemaAtPath(out, segs.slice(4));
    } else if (segs[0] === "workflow" && segs.length === 1) {
      ["apiVersion", "kind", "metadata", "input", "output", "permissions", "steps"].forEach((k, i) =>
        add({ label: k, kind: CompletionItemKind.Property, detail: "workflow", sortText: `0${i}` }, k));
      return true;
    }
    for (const item of schemaPropertyItems(schema)) {
      if (SEGMENT.test(item.label)) add(item, item.label);
      else add(item, `[${JSON.stringify(item.label)}]`, { from: startDec - 1, filter: `.${item.label}` });
    }
    return true;
  }

  private resolveStep(step: StepCtx, readable: StepFacts[], id: string | undefined): StepFacts | undefined {
    if (id === undefined) return undefined;
    const found = readable.find((s) => s.id === id && !(s.id === step.id && s.list === step.list));
    if (found) return found;
    // a step reads itself only through lastOutput/allVisits on a loop
    const self = step.facts;
    if (self && self.id === id && isMultiVisit(self) && this.onCycle(self)) return self;
    return undefined;
  }

  private inputSchema(): unknown {
    const input = this.facts?.root.input;
    return isObject(input) ? input.schema : undefined;
  }

  /** The schema of `item` for a step: its parallel parent's items (or, in an itemKey, its own). */
  private itemSchema(step: StepCtx, ownItems: boolean): unknown {
    const parallel = ownItems ? step.facts : step.list?.parent;
    if (!parallel || !isObject(parallel.step.with)) return undefined;
    const items = parallel.step.with.items;
    if (typeof items !== "string") return undefined;
    const t = templateAt(items, items.indexOf("{{") + 2);
    if (!t) return undefined;
    const node = parseExpression(t.body.trim()).node;
    const p = pathOf(node);
    if (!p) return undefined;
    let source: unknown;
    if (p.root === "input") source = schemaAtPath(this.inputSchema(), p.names);
    else if (p.root === "steps" && p.names.length >= 2) {
      const readable = parallel.list ? readableSteps(parallel.list) : [];
      const target = readable.find((s) => s.id === p.names[0]);
      if (target && (p.names[1] === "output" || p.names[1] === "lastOutput")) source = schemaAtPath(outputSchema(target), p.names.slice(2));
    }
    return isObject(source) ? source.items : undefined;
  }

  // ---- the needs entry a step reference asks for ------------------------------------------------

  private graphOf(list: ListFacts): ListGraph {
    let g = GRAPHS.get(list);
    if (!g) {
      const index = new Map(list.steps.map((s, i) => [s.id, i] as [string, number]));
      const graph: Graph = list.steps.map(() => []);
      const reverse: Graph = list.steps.map(() => []);
      const edge = (a: number, b: number) => { graph[a].push(b); reverse[b].push(a); };
      list.steps.forEach((s, i) => {
        for (const n of s.needs) { const from = index.get(n); if (from !== undefined) edge(from, i); }
        if (s.uses === "decision") for (const t of decisionTargets(s.step)) { const to = index.get(t); if (to !== undefined) edge(i, to); }
      });
      g = { graph, reverse, index };
      GRAPHS.set(list, g);
    }
    return g;
  }

  private reachCache: { list: ListFacts; id: string; node: number; from: Uint8Array; to: Uint8Array } | undefined;

  /** What the step reaches in its list's flow graph, and what reaches it (one search each per completion). */
  private reachOf(list: ListFacts, id: string): { node: number; from: Uint8Array; to: Uint8Array } | undefined {
    const c = this.reachCache;
    if (c && c.list === list && c.id === id) return c;
    const g = this.graphOf(list);
    const node = g.index.get(id);
    if (node === undefined) return undefined;
    this.reachCache = { list, id, node, from: search(g.graph, node), to: search(g.reverse, node) };
    return this.reachCache;
  }

  /** The steps a list offers (all, or a window of a long list, which makes the answer incomplete). */
  private window(steps: StepFacts[], step: StepCtx, typed: string, pinned: (s: StepFacts) => boolean = () => false): StepFacts[] {
    const at = step.path[step.path.length - 1];
    const w = stepWindow(steps, { typed, list: step.list, center: typeof at === "number" ? at : undefined, pinned });
    if (w.truncated) this.incomplete = true;
    return w.steps;
  }

  /** The part of the scalar under the cursor typed before it (its raw text, without the quote). */
  private typedValue(): string {
    const cur = this.cursor;
    const tok = cur.token;
    return tok ? this.text.slice(tok.contentStart, Math.max(tok.contentStart, cur.offset)) : "";
  }

  /**
   * The steps in their order, those for which `closes` names a cycle moved to the end (their sortText,
   * the position, then sorts them last), each with its note: never hidden, only marked.
   */
  private cycleLast(steps: StepFacts[], closes: (s: StepFacts) => string | undefined, short: string): Array<{ s: StepFacts; note?: { text: string; short: string } }> {
    const open: Array<{ s: StepFacts; note?: { text: string; short: string } }> = [];
    const closing: Array<{ s: StepFacts; note?: { text: string; short: string } }> = [];
    for (const s of steps) {
      const cycle = closes(s);
      if (cycle === undefined) open.push({ s });
      else closing.push({ s, note: { text: `${short}: ${cycle}`, short } });
    }
    return [...open, ...closing];
  }

  private parentsCache: { list: ListFacts; id: string; forward: Int32Array; backward: Int32Array } | undefined;

  /**
   * The loop a new edge of the step's flow graph would close, as "a → b → a" (shortest, shortened when
   * long), or undefined. "needs": `target` joins the step's needs (the edge target → step), which closes
   * a cycle when the step already reaches `target`. "route": the decision step routes to `target` (the
   * edge step → target), a loop when `target` already reaches the step. Steps of other lists close none.
   */
  private closedCycle(step: StepCtx, target: StepFacts, edge: "needs" | "route"): string | undefined {
    const list = step.list;
    if (!list || target.list !== list || step.id === undefined) return undefined;
    const g = this.graphOf(list);
    const self = g.index.get(step.id);
    const other = g.index.get(target.id);
    if (self === undefined || other === undefined) return undefined;
    let c = this.parentsCache;
    if (!c || c.list !== list || c.id !== step.id) {
      c = this.parentsCache = { list, id: step.id, forward: shortestPathParents(g.graph, self), backward: shortestPathParents(g.reverse, self) };
    }
    if (other === self) return `${step.id} → ${step.id}`;
    let nodes: number[] | undefined;
    if (edge === "needs") {
      nodes = pathTo(c.forward, self, other); // step → … → target, then target → step
    } else {
      const back = pathTo(c.backward, self, other); // in the reversed graph: step ← … ← target
      nodes = back && back.reverse(); // target → … → step, after step → target
      if (nodes) nodes.unshift(self);
    }
    if (!nodes) return undefined;
    if (edge === "needs") nodes.push(self);
    return cycleText(nodes.map((n) => list.steps[n].id));
  }

  private onCycle(s: StepFacts): boolean {
    const r = this.reachOf(s.list, s.id);
    return r !== undefined && r.from[r.node] === 1;
  }

  /**
   * The edit adding `target` to the step's needs, when reading it needs one: not for a step already
   * listed, never one that would close a cycle (catalog 7), and not for a `lastOutput`/`allVisits`
   * read the validator exempts (the target already reaches this step). `property` undefined: the
   * step id is being accepted; a multi-visit target will be read with lastOutput/allVisits.
   */
  private needsEdit(step: StepCtx, target: StepFacts, property: string | undefined): TextEdit | undefined {
    if (step.id === undefined || step.needs.includes(target.id)) return undefined;
    if (target.list === step.list && target.id === step.id) return undefined;
    if (step.list && target.list === step.list) {
      const r = this.reachOf(step.list, step.id);
      const x = this.graphOf(step.list).index.get(target.id);
      if (r && x !== undefined) {
        if (r.from[x]) return undefined; // the step reaches the target: the entry would close a cycle
        const exemptRead = property === "lastOutput" || property === "allVisits" || (property === undefined && isMultiVisit(target));
        if (exemptRead && r.to[x]) return undefined; // a back-edge read the validator exempts
      }
    }
    if (this.needsPlan === undefined || this.needsPlan.step !== step) this.needsPlan = { step, plan: this.needsInsertion(step) };
    const plan = this.needsPlan.plan;
    return plan ? { range: this.range(plan.start, plan.end), newText: plan.text(target.id) } : undefined;
  }

  private needsPlan: { step: StepCtx; plan: ReturnType<Completer["needsInsertion"]> } | undefined;

  /** Where and how a new needs entry is written in the current text, in the author's style. */
  private needsInsertion(step: StepCtx): { start: number; end: number; text: (id: string) => string } | undefined {
    const members = step.members;
    const frame = step.frame;
    if (!members || !frame) return undefined;
    const t = this.text;
    const needs = members.find((m) => m.key === "needs");
    const json = this.format === "json";
    const flowScalar = (id: string) => (json ? JSON.stringify(id) : yamlScalar(id));
    const blockScalar = yamlScalar;
    const at = (start: number, end: number, text: (id: string) => string) => ({ start, end, text });
    if (needs) {
      if (needs.open !== undefined && needs.close !== undefined) {
        const els = needs.elements ?? [];
        if (els.length === 0) return at(needs.open + 1, needs.open + 1, flowScalar);
        const last = els[els.length - 1];
        const lastLine = lineStartAt(t, last.start);
        if (lastLine !== lineStartAt(t, needs.open)) {
          const indent = /^[ \t]*/.exec(t.slice(lastLine, last.start))![0];
          return at(last.end, last.end, (id) => `,\n${indent}${flowScalar(id)}`);
        }
        return at(last.end, last.end, (id) => `, ${flowScalar(id)}`);
      }
      if (needs.blockSequence && needs.elements && needs.elements.length > 0) {
        const last = needs.elements[needs.elements.length - 1];
        const col = last.start - lineStartAt(t, last.start);
        return at(last.end, last.end, (id) => `\n${" ".repeat(col)}- ${blockScalar(id)}`);
      }
      if (needs.empty) {
        const colon = t.indexOf(":", needs.keyEnd) + 1; // `needs:` with nothing after it
        return colon > 0 ? at(colon, colon, (id) => ` [${flowScalar(id)}]`) : undefined;
      }
      return undefined; // needs is something else (null, a string): the validator reports it; leave it
    }
    // After `id` or `uses`, whichever is written last: where the add-needs quick fix puts it (needsPlacement.ts).
    const idm = needsAnchor(members);
    if (!idm) return undefined;
    if (frame.flow) {
      const key = json ? '"needs"' : "needs";
      const lineStart = lineStartAt(t, idm.keyStart);
      const own = t.slice(lineStart, idm.keyStart).trim() === "" && lineStartAt(t, frame.start) !== lineStart;
      const sep = own ? `,\n${t.slice(lineStart, idm.keyStart)}` : ", ";
      return at(idm.valueEnd, idm.valueEnd, (id) => `${sep}${key}: [${flowScalar(id)}]`);
    }
    const col = idm.column ?? idm.keyStart - lineStartAt(t, idm.keyStart);
    const end = lineEndAt(t, idm.keyStart);
    const block = !yamlFlowLists(t);
    return at(end, end, (id) => block
      ? `\n${" ".repeat(col)}needs:\n${" ".repeat(col + this.unit)}- ${blockScalar(id)}`
      : `\n${" ".repeat(col)}needs: [${flowScalar(id)}]`);
  }

  // ---- values outside expressions --------------------------------------------------------------

  private values(path: PathSegment[], step: StepCtx | undefined, yamlItem: boolean): void {
    const facts = this.facts;
    if (path.length === 1 && path[0] === "apiVersion") return this.enumValues([{ value: API_VERSION, doc: "The LWIR version this document is written in." }]);
    if (path.length === 1 && path[0] === "kind") return this.enumValues([{ value: KIND }]);
    if (this.isStepList(path.slice(0, -1)) && typeof path[path.length - 1] === "number") return this.newSteps(path, yamlItem);
    if (path.length === 3 && path[0] === "permissions" && (path[1] === "models" || path[1] === "tools") && typeof path[2] === "number") {
      return this.permissionNames(path[1], path[2], yamlItem);
    }
    if (!step) return;
    const r = step.rest;
    const uses = step.uses;
    const is = (...pattern: Array<string | number>) => r.length === pattern.length && pattern.every((p, i) => (p === 0 ? typeof r[i] === "number" : r[i] === p));
    const sameList = () => (step.list ? step.list.steps : []).filter((s) => s.id !== step.id);

    if (is("uses")) {
      return this.enumValues(STEP_TYPES.filter((t) => !(t === "parallel" && step.inBody)).map((t) => ({ value: t, doc: STEP_TYPE_DOCS[t], kind: CompletionItemKind.Class })));
    }
    if (is("needs", 0)) {
      // the other entries: the one being typed may already spell an id in full
      const elements = step.members?.find((m) => m.key === "needs")?.elements;
      const listed = new Set(elements ? elements.filter((_, k) => k !== r[1]).map((e) => e.value) : step.needs);
      const readable = step.list ? readableSteps(step.list) : [];
      const candidates = this.window(readable.filter((s) => !(s.id === step.id && s.list === step.list) && !listed.has(s.id)), step, this.typedValue());
      return this.enumValues(this.cycleLast(candidates, (s) => this.closedCycle(step, s, "needs"), "closes a cycle")
        .map(({ s, note }) => ({ value: s.id, detail: note ? `${note.text} · ${stepDetail(s)}` : stepDetail(s), description: note?.short, kind: CompletionItemKind.Reference })), yamlItem);
    }
    if (is("needs")) {
      const candidates = this.window(sameList().filter((s) => !step.needs.includes(s.id)), step, this.typedValue());
      return this.snippetValues(this.cycleLast(candidates, (s) => this.closedCycle(step, s, "needs"), "closes a cycle")
        .map(({ s, note }) => ({ label: `[${s.id}]`, detail: note ? `${note.text} · ${stepDetail(s)}` : stepDetail(s), description: note?.short, value: arr([str(s.id)], true), filter: s.id })));
    }
    if (is("output", "mode")) {
      const modes = uses === "parallel" ? ["array"] as const : OUTPUT_MODES;
      return this.enumValues(modes.map((m) => ({ value: m, doc: OUTPUT_MODE_DOCS[m], kind: CompletionItemKind.EnumMember })));
    }
    if (is("with", "model") && uses !== "tool.call") return this.enumValues((facts?.models ?? []).map((m) => ({ value: m, detail: "permissions.models" })));
    if (is("onFailure", "fixer", "model")) return this.enumValues((facts?.models ?? []).map((m) => ({ value: m, detail: "permissions.models" })));
    if (is("with", "tool")) return this.enumValues((facts?.tools ?? []).map((m) => ({ value: m, detail: "permissions.tools" })));
    if (uses === "decision" && (is("with", "default") || is("with", "cases", 0, "to"))) {
      // A route back to a step that leads here is how loops are written: marked, after the others and `end`.
      const targets = this.cycleLast(this.window(sameList(), step, this.typedValue()), (s) => this.closedCycle(step, s, "route"), "loops back")
        .map(({ s, note }) => ({ value: s.id, detail: note ? `${note.text} · ${stepDetail(s)}` : stepDetail(s), description: note?.short, kind: CompletionItemKind.Reference, loop: note !== undefined }));
      return this.enumValues([
        ...targets.filter((t) => !t.loop),
        { value: END, doc: "Finish this scope (the workflow, or the parallel branch).", kind: CompletionItemKind.Keyword },
        ...targets.filter((t) => t.loop),
      ]);
    }
    if (uses === "parallel" && is("with", "fanIn", "outputStep")) {
      const body = step.facts?.body?.steps ?? [];
      return this.enumValues(body.filter((s) => s.uses !== "decision").map((s) => ({ value: s.id, detail: stepDetail(s), kind: CompletionItemKind.Reference })));
    }
    if (is("with", "failureMode")) return this.enumValues(FAILURE_MODES.map((m) => ({ value: m, doc: FAILURE_MODE_DOCS[m], kind: CompletionItemKind.EnumMember })));
    if (is("with", "fanIn", "order")) return this.enumValues(FAN_IN_ORDERS.map((m) => ({ value: m, doc: FAN_IN_ORDER_DOCS[m], kind: CompletionItemKind.EnumMember })));
    if (is("with", "fanIn", "output")) return this.enumValues([{ value: "array" }]);
    if (is("with", "cardinality", "kind")) return this.enumValues([{ value: "matches_items", doc: "One branch per item." }]);
    if (uses === "code.run" && r.length === 3 && r[0] === "with" && r[1] === "sandbox" && (r[2] === "network" || r[2] === "env" || r[2] === "fs")) {
      return this.enumValues([{ value: "deny" }, { value: false }]);
    }
    if (is("onFailure", "repair", "mode")) return this.enumValues([{ value: "self", doc: "Retry the generation on the same model (`escalate` is not implemented)." }]);
    if (is("sensitive")) return this.enumValues([{ value: true }, { value: false }]);
  }

  /**
   * Model or tool names the steps use (`with.model`, `onFailure.fixer.model`, `with.tool`) and the list
   * does not hold yet, for an entry of `permissions.models` / `permissions.tools`.
   */
  private permissionNames(list: "models" | "tools", index: number, yamlItem: boolean): void {
    const frame = this.cursor.frames.find((f) => f.kind === "array" && samePath(f.path, ["permissions", list]));
    const listed = new Set(frame ? frame.items.filter((_, k) => k !== index) : list === "models" ? this.facts?.models : this.facts?.tools);
    const values = [...this.usedNames()[list]].filter(([name]) => !listed.has(name)).map(([name, steps]) => ({
      value: name, detail: `used by step ${steps.join(", ")}`, kind: CompletionItemKind.Value,
    }));
    // then names the other open documents use (their last good analyses; none is made for this)
    const seen = new Set([...listed, ...values.map((v) => v.value)]);
    for (const { uri, analysis } of this.others?.() ?? []) {
      const facts = factsOf(analysis);
      if (!facts) continue;
      const file = fileNameOf(uri);
      for (const [name, steps] of usedNames(facts)[list]) {
        if (seen.has(name)) continue;
        seen.add(name);
        values.push({ value: name, detail: `used by step ${steps.join(", ")} in ${file}`, kind: CompletionItemKind.Value });
      }
    }
    this.enumValues(values, yamlItem);
  }

  private usedCache: UsedNames | undefined;

  /** Names this document's steps use where a permission list is checked. */
  private usedNames(): UsedNames {
    return (this.usedCache ??= usedNames(this.facts));
  }

  /** Scalar value items: the whole scalar under the cursor is replaced, quoted as the host needs. */
  private enumValues(values: Array<{ value: string | boolean; doc?: string; detail?: string; description?: string; kind?: CompletionItemKind }>, yamlItem = false): void {
    const cur = this.cursor;
    const tok = cur.token;
    if (tok?.block) return;
    // Inside a string closed on its line only the content is replaced and both quotes stay: an edit
    // spanning the quotes reaches outside a snippet's placeholder (the string's content), and VS Code
    // then ends the snippet, so Tab no longer moves to the next place and what is typed next lands in
    // this value.
    const inner = tok !== undefined && tok.quote !== "" && tok.closed;
    const start = tok ? (inner ? tok.contentStart : tok.start) : cur.offset;
    const end = tok ? (inner ? tok.contentEnd : tok.closed ? tok.end : Math.max(cur.offset, tok.end)) : cur.offset;
    const inString = tok !== undefined && tok.quote !== "";
    values.forEach((v, i) => {
      if (typeof v.value === "boolean" && inString && this.format === "json") return;
      let text: string;
      if (inner && typeof v.value === "string") text = tok!.quote === "'" ? singleQuotedInner(v.value) : doubleQuotedInner(v.value);
      else if (typeof v.value === "boolean") text = String(v.value);
      else if (this.format === "json") text = JSON.stringify(v.value);
      else if (tok?.quote === "'" || tok?.quote === '"') text = quoteYaml(v.value, tok.quote);
      else text = yamlScalar(v.value);
      const prefix = (cur.spaceBefore ? " " : "") + (yamlItem && !cur.flow ? "- " : "");
      const edits: Edit[] = [];
      let newText = prefix + text;
      if (cur.flow && !tok) {
        if (cur.commaAfter) newText += ",";
        if (cur.commaBefore !== undefined) edits.push({ start: cur.commaBefore, end: cur.commaBefore, text: "," });
      }
      const label = typeof v.value === "string" ? v.value : String(v.value);
      const item: CompletionItem = {
        label, kind: v.kind ?? CompletionItemKind.Value, detail: v.detail, documentation: v.doc ? md(v.doc) : undefined,
        ...(v.description ? { labelDetails: { description: v.description } } : {}),
        textEdit: { range: this.range(start, end), newText },
        filterText: tok && !inner ? this.text.slice(tok.start, tok.quote ? tok.start + 1 : tok.start) + label : label,
        sortText: String(i).padStart(4, "0"),
      };
      if (edits.length) item.additionalTextEdits = edits.map((e) => this.edit(e));
      this.items.push(item);
    });
  }

  /** Snippet value items (whole values such as `["a"]`). */
  private snippetValues(values: Array<{ label: string; value: Snip; detail?: string; description?: string; filter?: string }>): void {
    const cur = this.cursor;
    if (cur.token && cur.token.quote !== "") return;
    const start = cur.token ? cur.token.start : cur.offset;
    const end = cur.token ? cur.token.end : cur.offset;
    values.forEach((v, i) => {
      const text = renderValue(v.value, this.style(cur.column));
      this.items.push({
        label: v.label, kind: CompletionItemKind.Value, detail: v.detail, ...(v.description ? { labelDetails: { description: v.description } } : {}),
        sortText: String(i).padStart(4, "0"), filterText: v.filter ?? v.label,
        textEdit: { range: this.range(start, end), newText: text }, insertTextFormat: InsertTextFormat.Snippet, insertTextMode: InsertTextMode.asIs,
      });
    });
  }

  private style(indent: number): RenderStyle {
    return { format: this.format, flow: this.format === "yaml" && this.cursor.flow, indent, unit: this.unit };
  }

  private shapeEnv(listPath: PathSegment[], selfId?: string, step?: StepCtx): ShapeEnv {
    const list = this.facts?.lists.find((l) => samePath(l.segments, listPath));
    const ids = list ? list.steps.map((s) => s.id) : [];
    return {
      models: this.facts?.models ?? [],
      tools: this.facts?.tools ?? [],
      takenIds: new Set(ids),
      listIds: ids.filter((id) => id !== selfId),
      bodyOutputSteps: step?.facts?.body?.steps.filter((s) => s.uses !== "decision").map((s) => s.id),
    };
  }

  /** A new step of each type, where a list element goes. */
  private newSteps(path: PathSegment[], yamlItem: boolean): void {
    const cur = this.cursor;
    const listPath = path.slice(0, -1);
    const inBody = listPath.length > 1;
    const env = this.shapeEnv(listPath);
    const tok = cur.token;
    if (tok && tok.quote !== "") return;
    const start = tok ? tok.start : cur.offset;
    const end = tok ? Math.max(tok.end, cur.offset) : cur.offset;
    STEP_TYPES.forEach((uses, i) => {
      if (uses === "parallel" && inBody) return; // parallel.nested_unsupported
      const snip = stepSnippet(uses, env);
      let newText: string;
      if (this.format === "yaml" && !cur.flow) {
        if (yamlItem) newText = `- ${renderItem(snip, this.style(cur.column + 2))}`;
        else newText = (cur.spaceBefore ? " " : "") + renderItem(snip, this.style(cur.column));
      } else {
        newText = renderValue(snip, this.style(cur.column));
        if (cur.commaAfter && !tok) newText += ",";
      }
      const item: CompletionItem = {
        label: `${uses} step`, kind: CompletionItemKind.Snippet, detail: `New ${uses} step`, documentation: md(STEP_TYPE_DOCS[uses]),
        textEdit: { range: this.range(start, end), newText }, insertTextFormat: InsertTextFormat.Snippet, insertTextMode: InsertTextMode.asIs,
        filterText: tok ? `${this.text.slice(tok.start, cur.offset)} ${uses} step` : `${uses} step`, sortText: `0${i}`,
      };
      if (cur.flow && cur.commaBefore !== undefined && !tok) item.additionalTextEdits = [this.edit({ start: cur.commaBefore, end: cur.commaBefore, text: "," })];
      this.items.push(item);
    });
  }

  // ---- keys ----------------------------------------------------------------------------------------

  private keys(path: PathSegment[], step: StepCtx | undefined): void {
    const existing = this.existingKeys(path);
    const offer = (entries: Array<{ key: string; doc?: string; value: Snip | undefined }>) => this.keyItems(entries.filter((e) => !existing.has(e.key)));
    if (path.length === 0) {
      const used = this.usedNames();
      return offer([
        { key: "apiVersion", doc: "Always `littleworkflow.dev/v0.1`.", value: str(API_VERSION) },
        { key: "kind", doc: "Always `Workflow`.", value: str(KIND) },
        { key: "metadata", doc: "`name` (required), `version`, `description`.", value: metadataSnippet() },
        { key: "input", doc: "The workflow input: `schema` (required).", value: schemaSnippet("topic") },
        { key: "output", doc: "The workflow output: `schema` (required).", value: schemaSnippet("result") },
        { key: "permissions", doc: "The model slots and tools steps may use.", value: permissionsSnippet({ models: [...used.models.keys()], tools: [...used.tools.keys()] }) },
        { key: "steps", doc: "The top-level step list, starting with an ai.generate step.", value: stepsSnippet(this.shapeEnv(["steps"])) },
      ]);
    }
    if (samePath(path, ["metadata"])) {
      return offer([
        { key: "name", doc: "Required: a non-empty string.", value: str(ph("name", "workflow")) },
        { key: "version", value: str(ph("version", "0.1.0")) },
        { key: "description", value: str(ph("description", "")) },
      ]);
    }
    if (samePath(path, ["permissions"])) {
      const used = this.usedNames();
      const list = (names: Map<string, string[]>, name: string) => (names.size ? arr([str(choice(name, [...names.keys()]))], false) : emptyArr());
      return offer([
        { key: "models", doc: "Model slots `ai.generate` steps (and fixers) may use.", value: list(used.models, "model") },
        { key: "tools", doc: "Tools `tool.call` steps may use.", value: list(used.tools, "tool") },
        { key: "secrets", doc: "Must stay empty in this runtime (not implemented).", value: arr([], true) },
        { key: "network", doc: "Must stay empty in this runtime (not implemented).", value: arr([], true) },
      ]);
    }
    if (samePath(path, ["input"]) || samePath(path, ["output"])) {
      return offer([{ key: "schema", doc: "A JSON Schema (LWIR subset).", value: objectSchema(path[0] === "input" ? "topic" : "result") }]);
    }
    if (!step) return;
    const r = step.rest;
    const uses = step.uses;
    const env = this.shapeEnv(step.path.slice(0, -1), step.id, step);
    const is = (...pattern: Array<string | number>) => r.length === pattern.length && pattern.every((p, i) => (p === 0 ? typeof r[i] === "number" : r[i] === p));
    if (r.length === 0) {
      const entries = STEP_KEYS.map((k) => ({ key: k.key, doc: k.doc, value: stepKeyValue(k.key, uses, env, step.id) }))
        .filter((e) => e.value !== undefined && !(e.key === "steps" && uses !== "parallel"));
      return offer(entries);
    }
    if (is("with")) return offer(withKeys(uses, env));
    if (is("output") && uses !== "decision") {
      const modes = uses === "parallel" ? ["array"] : [...OUTPUT_MODES];
      return offer([
        { key: "mode", doc: "text, object, array, choice or json.", value: str(choice("mode", modes)) },
        { key: "schema", doc: "A JSON Schema (LWIR subset); required for object and array.", value: uses === "parallel" ? (stepKeyValue("output", "parallel", env, step.id) as Extract<Snip, { k: "obj" }>).entries[1][1] : objectSchema("result") },
        { key: "values", doc: "For mode choice: the allowed strings.", value: arr([str(ph("a", "yes")), str(ph("b", "no"))], true) },
        { key: "name", value: str(ph("name", "")) },
        { key: "description", value: str(ph("description", "")) },
      ]);
    }
    if (uses === "parallel" && is("with", "fanIn")) {
      return offer([
        { key: "order", doc: "`input` or `itemKey`.", value: str(choice("order", FAN_IN_ORDERS)) },
        { key: "output", doc: "Always `array`.", value: str("array") },
        { key: "outputStep", doc: "The body step whose lastOutput is the branch's result (not a decision).", value: str(choice("outputStep", env.bodyOutputSteps ?? [])) },
      ]);
    }
    if (uses === "parallel" && is("with", "cardinality")) return offer([{ key: "kind", value: str("matches_items") }]);
    if (uses === "code.run" && is("with", "sandbox")) {
      return offer(["network", "env", "fs"].map((k) => ({ key: k, doc: k === "network" ? "Required: `deny` (or false)." : "`deny` (or false) when given.", value: str("deny") })));
    }
    if (uses === "decision" && is("with", "cases", 0)) {
      return offer([
        { key: "when", doc: "A whole-string `{{ }}` template.", value: str("{{ ", ph("when", "input.flag"), " }}") },
        { key: "to", doc: "A step of the same list, or `end`.", value: str(choice("to", [END, ...env.listIds])) },
      ]);
    }
    if (is("onFailure")) {
      const v = stepKeyValue("onFailure", uses, env, step.id);
      if (v && v.k === "obj") return offer(v.entries.map(([key, value]) => ({ key: keyText(key), value })));
      return;
    }
    if (uses === "ai.generate" && is("onFailure", "repair")) {
      return offer([{ key: "mode", doc: "`self` (escalate is not implemented).", value: str("self") }, { key: "maxAttempts", value: raw(ph("attempts", "3")) }]);
    }
    if (uses === "code.run" && is("onFailure", "fixer")) {
      const v = stepKeyValue("onFailure", uses, env, step.id);
      const fixer = v && v.k === "obj" ? v.entries[0][1] : undefined;
      if (fixer && fixer.k === "obj") return offer(fixer.entries.map(([key, value]) => ({ key: keyText(key), value })));
    }
  }

  /** Keys already written in the object at `path` (text first; the analysed value too when it matches). */
  private existingKeys(path: PathSegment[]): Set<string> {
    const keys = new Set<string>();
    const frame = this.cursor.frames.find((f) => f.kind === "object" && samePath(f.path, path));
    if (frame) {
      for (const k of frame.members.keys()) keys.add(k);
      if (frame.flow) for (const m of flowMembers(this.text, frame.start, this.format === "yaml").members) keys.add(m.key);
    }
    // the key being typed is not "existing"
    const tok = this.cursor.token;
    if (tok && this.cursor.kind === "key") keys.delete(this.text.slice(tok.contentStart, tok.contentEnd));
    return keys;
  }

  private keyItems(entries: Array<{ key: string; doc?: string; value: Snip | undefined }>): void {
    const cur = this.cursor;
    const tok = cur.token;
    const start = tok ? tok.start : cur.offset;
    const end = tok ? Math.max(tok.end, cur.offset) : cur.offset;
    const json = this.format === "json" || cur.flow;
    entries.forEach((e, i) => {
      if (e.value === undefined) return;
      let newText: string;
      if (cur.hasColon) {
        newText = escapeSnippet(this.format === "json" ? JSON.stringify(e.key) : tok?.quote ? quoteYaml(e.key, tok.quote) : yamlScalar(e.key));
      } else {
        newText = (cur.spaceBefore ? " " : "") + renderMember(e.key, e.value, this.style(cur.column));
        if (json && cur.commaAfter) newText += ",";
      }
      const item: CompletionItem = {
        label: e.key, kind: CompletionItemKind.Property, documentation: e.doc ? md(e.doc) : undefined,
        textEdit: { range: this.range(start, end), newText }, insertTextFormat: InsertTextFormat.Snippet, insertTextMode: InsertTextMode.asIs,
        filterText: tok && tok.quote ? `${tok.quote}${e.key}` : e.key, sortText: String(i).padStart(3, "0"),
      };
      if (json && !cur.hasColon && cur.commaBefore !== undefined) item.additionalTextEdits = [this.edit({ start: cur.commaBefore, end: cur.commaBefore, text: "," })];
      this.items.push(item);
    });
  }
}

/** Model and tool names, each with the ids of the steps that use it. */
interface UsedNames {
  models: Map<string, string[]>;
  tools: Map<string, string[]>;
}

/** Names a document's steps use where a permission list is checked: `with.model`, `onFailure.fixer.model`, `with.tool`. */
function usedNames(facts: WorkflowFacts | undefined): UsedNames {
  const used: UsedNames = { models: new Map(), tools: new Map() };
  const add = (names: Map<string, string[]>, name: unknown, id: string) => {
    if (typeof name !== "string" || name === "") return;
    const ids = names.get(name) ?? [];
    if (!ids.includes(id)) ids.push(id);
    names.set(name, ids);
  };
  for (const list of facts?.lists ?? []) {
    for (const s of list.steps) {
      const w = s.step.with;
      if (isObject(w)) {
        if (s.uses === "ai.generate") add(used.models, w.model, s.id);
        if (s.uses === "tool.call") add(used.tools, w.tool, s.id);
      }
      const onFailure = s.step.onFailure;
      if (isObject(onFailure) && isObject(onFailure.fixer)) add(used.models, onFailure.fixer.model, s.id);
    }
  }
  return used;
}

interface ListGraph {
  graph: Graph;
  reverse: Graph;
  index: Map<string, number>;
}

const GRAPHS = new WeakMap<ListFacts, ListGraph>();

/** Nodes reachable from `from` by at least one edge (breadth-first). */
function search(graph: Graph, from: number): Uint8Array {
  const seen = new Uint8Array(graph.length);
  const queue: number[] = [];
  for (const w of graph[from]) if (!seen[w]) { seen[w] = 1; queue.push(w); }
  for (let head = 0; head < queue.length; head++) for (const w of graph[queue[head]]) if (!seen[w]) { seen[w] = 1; queue.push(w); }
  return seen;
}

// ---------------------------------------------------------------------------------------------
// Helpers

function samePath(a: readonly PathSegment[], b: readonly PathSegment[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** [..."steps", n] pairs from the root: the step's path and the path inside it. */
function splitStepPath(path: PathSegment[]): { stepPath: PathSegment[]; rest: PathSegment[] } | undefined {
  if (path[0] !== "steps" || typeof path[1] !== "number") return undefined;
  let n = 2;
  while (path[n] === "steps" && typeof path[n + 1] === "number") n += 2;
  return { stepPath: path.slice(0, n), rest: path.slice(n) };
}

function frameScalar(frame: TextFrame | undefined, key: string): string | undefined {
  return frame?.members.get(key);
}

function identityMap(n: number): number[] {
  const m = new Array<number>(n + 1);
  for (let i = 0; i <= n; i++) m[i] = i;
  return m;
}

function md(value: string): { kind: "markdown"; value: string } {
  return { kind: "markdown", value };
}

/** Where a string of a step holds expressions (catalog 5.1), and whether `item` may be used there. */
function expressionPosition(step: StepCtx): { itemAllowed: boolean; itemKey: boolean } | undefined {
  const r = step.rest;
  const uses = step.uses;
  if (r[0] === "input") return { itemAllowed: step.inBody, itemKey: false };
  if (r[0] !== "with" || r.length < 2) return undefined;
  if (uses === "decision") {
    return r.length === 4 && r[1] === "cases" && typeof r[2] === "number" && r[3] === "when" ? { itemAllowed: step.inBody, itemKey: false } : undefined;
  }
  if (uses === "parallel") {
    if (r.length === 2 && r[1] === "items") return { itemAllowed: step.inBody, itemKey: false };
    if (r.length === 2 && r[1] === "itemKey") return { itemAllowed: true, itemKey: true };
    return undefined;
  }
  return { itemAllowed: step.inBody, itemKey: false };
}

/** "a → b → c → a", with the middle left out of a long loop. */
function cycleText(ids: string[]): string {
  const shown = ids.length > 7 ? [...ids.slice(0, 3), "…", ...ids.slice(-3)] : ids;
  return shown.join(" → ");
}

function stepDetail(s: StepFacts): string {
  const uses = typeof s.uses === "string" ? s.uses : "?";
  if (s.uses === "decision") return "decision · no output";
  const out = outputOf(s);
  const mode = out && typeof out.mode === "string" ? out.mode : "?";
  const visits = isMultiVisit(s) ? ` · maxVisits ${String(s.step.maxVisits)}` : "";
  return `${uses} · output ${mode}${visits}`;
}

function stepDoc(s: StepFacts, self: boolean): string {
  const lines = [`**${s.id}**: ${stepDetail(s)}`];
  if (self) lines.push("This step itself: on a loop, `lastOutput`/`allVisits` read its previous visits.");
  else if (isMultiVisit(s)) lines.push("Runs more than once: read it with `lastOutput` or `allVisits` (never `output`).");
  const out = outputOf(s);
  if (out && typeof out.description === "string") lines.push(out.description);
  return lines.join("\n\n");
}

function outputSchema(s: StepFacts): unknown {
  const out = outputOf(s);
  return out ? out.schema : undefined;
}

function pathOf(node: ExprNode | undefined): { root: string; names: string[] } | undefined {
  if (!node) return undefined;
  if (node.kind === "error") return pathOf(node.partial);
  if (node.kind !== "path") return undefined;
  return { root: node.root, names: node.segments.map((s) => (s.kind === "name" ? s.name : String(s.value))) };
}

