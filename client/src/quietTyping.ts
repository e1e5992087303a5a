// Quiet typing, the decision part: which diagnostics to hold back while the user is still typing an
// expression (`{{ steps.` with the completion list open) or a step id (`id: dra…`, where every letter
// changes terminal.ambiguous). Pure: text, cursor, last edit, clock and diagnostics in, what to show and
// when to decide again out. The VS Code glue is quietTypingClient.ts; the server knows nothing of it.
//
// The rule. The user is typing when the last edit is less than `pauseMs` old and ended inside the
// expression or step-id value the cursor is in now (on the cursor's line). Then, and only then, held back:
//   - a diagnostic on the cursor's line whose range touches that expression or id;
//   - expression.invalid touching the expression, whatever its extent, or, in a YAML block scalar, on the
//     block's header line (its squiggle covers the header through the first content line only);
//   - terminal.ambiguous when the id being typed is one of its terminals (data.terminals).
// Everything else is shown. After the pause, or once the cursor leaves, nothing is held: what is shown
// is then exactly the server's list.

export interface Position {
  line: number;
  character: number;
}

/** What the decision reads of a diagnostic: VS Code's and LSP's diagnostics both fit. */
export interface DiagnosticLike {
  range: { start: Position; end: Position };
  code?: string | number | { value: string | number };
  data?: unknown;
}

export interface LastEdit {
  /** When the edit happened (ms, the same clock as `now`). */
  at: number;
  /** Where each change of the edit ends, as offsets into the current text. */
  offsets: readonly number[];
}

export interface QuietInput<D extends DiagnosticLike> {
  /** The document's current text (JSON or YAML: the rule reads both). */
  text: string;
  /** The cursor's offset in `text`; undefined when no editor shows the document. */
  cursor: number | undefined;
  /** The cursor's line, when the caller knows it (VS Code does): saves counting lines through the text. */
  cursorLine?: number;
  lastEdit: LastEdit | undefined;
  now: number;
  /** How long after the last edit the user counts as still typing; 0 turns quiet typing off. */
  pauseMs: number;
  /** The server's diagnostics, in its order. */
  diagnostics: readonly D[];
}

export interface QuietResult<D> {
  /** The diagnostics to show: the server's list minus the held ones, in the server's order. */
  shown: D[];
  /** How many were held back. */
  held: number;
  /** When held > 0: the time at which the pause is over and everything must be shown. */
  recheckAt?: number;
}

/** The expression or step-id value the cursor is in: one line, `start..end` (offsets, both inclusive for touching). */
export interface TypingRegion {
  kind: "expression" | "id";
  line: number;
  /** Offsets into the text. */
  start: number;
  end: number;
  /** Characters on `line`. */
  startCharacter: number;
  endCharacter: number;
  /** kind "id": the id as typed so far (quotes excluded). */
  id?: string;
  /** kind "expression" in a YAML block scalar: the line of its `key: |` header. */
  blockHeaderLine?: number;
}

const EXPRESSION_INVALID = "expression.invalid";
const TERMINAL_AMBIGUOUS = "terminal.ambiguous";

/** A recent edit: the only case in which anything can be held (cheap; the glue calls it before reading the text). */
export function editIsRecent(lastEdit: LastEdit | undefined, now: number, pauseMs: number): lastEdit is LastEdit {
  return pauseMs > 0 && lastEdit !== undefined && now - lastEdit.at < pauseMs;
}

export function quietDiagnostics<D extends DiagnosticLike>(input: QuietInput<D>): QuietResult<D> {
  const { text, cursor, cursorLine, lastEdit, now, pauseMs, diagnostics } = input;
  const all = (): QuietResult<D> => ({ shown: diagnostics.slice(), held: 0 });
  if (!editIsRecent(lastEdit, now, pauseMs) || cursor === undefined || diagnostics.length === 0) return all();
  const region = typingRegion(text, cursor, cursorLine);
  // An edit elsewhere (a quick fix, a rename, a format) while the cursor rests here is not typing here.
  if (!region || !lastEdit.offsets.some((o) => region.start <= o && o <= region.end)) return all();
  const shown = diagnostics.filter((d) => !heldBack(d, region));
  const held = diagnostics.length - shown.length;
  return held === 0 ? { shown, held } : { shown, held, recheckAt: lastEdit.at + pauseMs };
}

function heldBack(d: DiagnosticLike, region: TypingRegion): boolean {
  const code = codeOf(d);
  const { start, end } = d.range;
  // touches: starts at or before the region's end and ends at or after its start
  const touches = before(start, region.line, region.endCharacter) && !before(end, region.line, region.startCharacter - 1);
  if (touches && start.line === region.line && end.line === region.line) return true;
  if (region.kind === "expression" && code === EXPRESSION_INVALID && (touches || start.line === region.blockHeaderLine)) return true;
  if (region.kind === "id" && code === TERMINAL_AMBIGUOUS) return terminalIds(d.data).includes(region.id ?? "");
  return false;
}

/** p <= (line, character) */
function before(p: Position, line: number, character: number): boolean {
  return p.line < line || (p.line === line && p.character <= character);
}

function codeOf(d: DiagnosticLike): string | undefined {
  const data = d.data;
  if (typeof data === "object" && data !== null && typeof (data as { code?: unknown }).code === "string") return (data as { code: string }).code;
  const code = typeof d.code === "object" ? d.code.value : d.code;
  return code === undefined ? undefined : String(code);
}

/** terminal.ambiguous's `data.terminals[].id` (server/src/service/diagnostics.ts); a step without an id counts as "". */
function terminalIds(data: unknown): string[] {
  const terminals = typeof data === "object" && data !== null ? (data as { terminals?: unknown }).terminals : undefined;
  if (!Array.isArray(terminals)) return [];
  return terminals.map((t) => (typeof t === "object" && t !== null && typeof (t as { id?: unknown }).id === "string" ? (t as { id: string }).id : ""));
}

/**
 * The expression (`{{ … }}`, or `{{ …` not closed yet) or step-id value the cursor is in, on the
 * cursor's line; undefined elsewhere. Reads the line (and, for a YAML block scalar, the lines above it up
 * to its header), not a parse; counts lines up to the cursor unless `knownLine` is given.
 */
export function typingRegion(text: string, cursor: number, knownLine?: number): TypingRegion | undefined {
  if (cursor < 0 || cursor > text.length) return undefined;
  const lineStart = text.lastIndexOf("\n", cursor - 1) + 1;
  let lineEnd = text.indexOf("\n", cursor);
  if (lineEnd < 0) lineEnd = text.length;
  if (lineEnd > lineStart && text[lineEnd - 1] === "\r") lineEnd--;
  const lineText = text.slice(lineStart, lineEnd);
  const at = cursor - lineStart;
  const line = knownLine ?? countLines(text, lineStart);
  const make = (kind: "expression" | "id", s: number, e: number, id?: string): TypingRegion => ({
    kind, line, start: lineStart + s, end: lineStart + e, startCharacter: s, endCharacter: e, ...(id === undefined ? {} : { id }),
  });
  const expression = expressionAt(lineText, at);
  if (expression) {
    const header = blockHeaderLine(text, lineStart, line);
    return { ...make("expression", expression[0], expression[1]), ...(header === undefined ? {} : { blockHeaderLine: header }) };
  }
  const id = idValueAt(lineText, at);
  if (id) return make("id", id[0], id[1], lineText.slice(id[0], id[1]));
  return undefined;
}

function countLines(text: string, upTo: number): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < upTo; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** Lines looked at above the cursor for a block scalar's header; a longer block just gets no header. */
const MAX_BLOCK_LINES = 500;
const BLOCK_HEADER_LINE = /(?::|^[ \t]*-)[ \t]+[|>][0-9+-]*[ \t]*(#.*)?$/;

/**
 * The line of the `key: |` (or `>`) header when the line at `lineStart` is content of a YAML block
 * scalar: the first non-blank line above it that is indented less, if that line ends in a block header.
 */
function blockHeaderLine(text: string, lineStart: number, line: number): number | undefined {
  const indentOf = (s: string) => s.length - s.trimStart().length;
  const own = text.slice(lineStart, text.indexOf("\n", lineStart) < 0 ? text.length : text.indexOf("\n", lineStart));
  const indent = indentOf(own);
  let end = lineStart - 1; // the "\n" ending the line above
  for (let l = line - 1; l >= 0 && end >= 0 && line - l <= MAX_BLOCK_LINES; l--) {
    const start = text.lastIndexOf("\n", end - 1) + 1;
    const above = text.slice(start, end).replace(/\r$/, "");
    if (above.trim() !== "" && indentOf(above) < indent) return BLOCK_HEADER_LINE.test(above) ? l : undefined;
    end = start - 1;
  }
  return undefined;
}

/** `[start, end]` of the `{{ … }}` holding `at` (after its `{{`, up to just after its `}}`), or of an unclosed `{{ …` to the line's end. */
function expressionAt(line: string, at: number): [number, number] | undefined {
  if (at < 2) return undefined;
  const open = line.lastIndexOf("{{", at - 2);
  if (open < 0) return undefined;
  const close = line.indexOf("}}", open + 2);
  // closed before the cursor: the cursor is past this expression (just after its `}}` still counts)
  if (close >= 0 && close + 2 < at) return undefined;
  return [open, close < 0 ? line.length : close + 2];
}

// `id:` as a key: at the start of the line's content (after indentation and `- `) or after `{` or `,`
// (JSON, YAML flow mappings); quoted ("id", 'id') or plain.
const ID_KEY = /(?:^[ \t]*(?:-[ \t]+)*|[{,][ \t]*)(["']?)id\1[ \t]*:[ \t]*/g;

/** `[start, end]` of the id value holding `at`, quotes excluded (an unclosed quote runs to the line's end). */
function idValueAt(line: string, at: number): [number, number] | undefined {
  ID_KEY.lastIndex = 0;
  for (let m = ID_KEY.exec(line); m; m = ID_KEY.exec(line)) {
    let start = m.index + m[0].length;
    let end: number;
    const quote = line[start];
    if (quote === '"' || quote === "'") {
      start++;
      end = start;
      while (end < line.length && line[end] !== quote) end += line[end] === "\\" && quote === '"' ? 2 : 1;
      end = Math.min(end, line.length);
    } else {
      // a plain scalar: up to a flow delimiter or a comment
      const stop = /[,}\]]|[ \t]#/.exec(line.slice(start));
      end = stop ? start + stop.index : line.length;
      while (end > start && (line[end - 1] === " " || line[end - 1] === "\t")) end--;
    }
    if (start <= at && at <= end) return [start, end];
    if (ID_KEY.lastIndex <= m.index) ID_KEY.lastIndex = m.index + 1;
  }
  return undefined;
}
