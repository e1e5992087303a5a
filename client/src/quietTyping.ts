// Quiet typing, the decision part: which diagnostics to hold back while the user is still typing a token
// (`{{ steps.` with the completion list open, a step id, a `needs` item, a decision target, a mode, a
// model, a key, a plain value that just got a `: `…). Pure: text, cursor, last edit, clock and
// diagnostics in, what to show and when to decide again out. The VS Code glue is quietTypingClient.ts
// (over quietTypingSession.ts); the server knows nothing of it.
//
// The rule. The user is typing when the last edit is less than `pauseMs` old and ended inside the token
// the cursor is in now (on the cursor's line): a `{{ … }}` expression, else the quoted string, the key,
// the plain value or the flow-collection item. Then, and only then, held back: the diagnostics that are
// about that token, i.e.
//   - on the cursor's line, with a range that touches the token; or
//   - on a line that encloses the cursor's line (the cursor's line itself, or a line above it indented
//     less, each less than the one below: the parent keys), naming the token: the message quotes it
//     ("cho", "dra"), or holds an expression's text as written (messages name the user's own names,
//     in quotes: docs/quiet-typing.md). This is how
//     a finding the server places on the parent is recognised: terminal.ambiguous on `steps:` naming the
//     new id, output.invalid on `output:` naming the mode, expression.invalid on a block scalar's header.
// Everything else is shown. After the pause, or once the cursor leaves, nothing is held: what is shown
// is then exactly the server's list.

export interface Position {
  line: number;
  character: number;
}

/** What the decision reads of a diagnostic: VS Code's and LSP's diagnostics both fit. */
export interface DiagnosticLike {
  range: { start: Position; end: Position };
  message?: string | { value: string };
  code?: string | number | { value: string | number };
  data?: unknown;
}

export interface LastEdit {
  /** When the edit happened (ms, the same clock as `now`). */
  at: number;
  /** Where each change of the edit ends, as offsets into the current text. */
  offsets: readonly number[];
  /** Set when the pause after this edit is over (the glue's timer fired): then it is not recent, whatever the clock says. */
  over?: boolean;
}

export interface QuietInput<D extends DiagnosticLike> {
  /** The document's current text (JSON or YAML: the rule reads both). */
  text: string;
  /** The cursor's offset in `text`; undefined when no editor shows the document. */
  cursor: number | undefined;
  /** The cursor's line, when the caller knows it (VS Code does): saves counting lines through the text. */
  cursorLine?: number;
  /** The offset where a line starts, when the caller knows it (VS Code's document does): saves counting lines back. */
  lineOffset?: (line: number) => number;
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

/** The token the cursor is in: one line, `start..end` (offsets, both inclusive for touching). */
export interface TypingRegion {
  /** "expression": `{{ … }}` (closed or not); "token": a quoted string, a key, a plain value or a flow item. */
  kind: "expression" | "token";
  line: number;
  /** Offsets into the text. */
  start: number;
  end: number;
  /** Characters on `line`. */
  startCharacter: number;
  endCharacter: number;
  /** The token as typed so far: quotes excluded; an expression with its braces. */
  text: string;
}

/** A recent edit: the only case in which anything can be held (cheap; the glue calls it before reading the text). */
export function editIsRecent(lastEdit: LastEdit | undefined, now: number, pauseMs: number): lastEdit is LastEdit {
  return pauseMs > 0 && lastEdit !== undefined && !lastEdit.over && now - lastEdit.at < pauseMs;
}

export function quietDiagnostics<D extends DiagnosticLike>(input: QuietInput<D>): QuietResult<D> {
  const { text, cursor, cursorLine, lineOffset, lastEdit, now, pauseMs, diagnostics } = input;
  const all = (): QuietResult<D> => ({ shown: diagnostics.slice(), held: 0 });
  if (!editIsRecent(lastEdit, now, pauseMs) || cursor === undefined || diagnostics.length === 0) return all();
  const region = typingRegion(text, cursor, cursorLine);
  // An edit elsewhere (a quick fix, a rename, a format) while the cursor rests here is not typing here.
  if (!region || !lastEdit.offsets.some((o) => typedIn(text, region, o))) return all();
  const encloses = enclosingLines(text, region, lineOffset);
  // what a message that names the token holds: an expression as written, anything else in quotes
  const needle = region.kind === "expression" ? (region.text.length > 4 ? region.text : undefined) : `"${region.text}"`;
  const shown = diagnostics.filter((d) => !heldBack(d, region, needle, encloses));
  const held = diagnostics.length - shown.length;
  return held === 0 ? { shown, held } : { shown, held, recheckAt: lastEdit.at + pauseMs };
}

/** The edit that ended at `offset` was in the token: inside it, and not in an expression of it the cursor has left. */
function typedIn(text: string, region: TypingRegion, offset: number): boolean {
  if (offset < region.start || offset > region.end) return false;
  if (region.kind === "expression") return true;
  const lineStart = region.start - region.startCharacter;
  return expressionAt(text.slice(lineStart, region.end), offset - lineStart) === undefined;
}

function heldBack(d: DiagnosticLike, region: TypingRegion, needle: string | undefined, encloses: (line: number) => boolean): boolean {
  const { start, end } = d.range;
  if (start.line === region.line && end.line === region.line) {
    // touches: starts at or before the token's end and ends at or after its start
    if (start.character <= region.endCharacter && end.character >= region.startCharacter) return true;
  }
  // cheap test first (a string search), the walk over the lines above only for the few that name the token
  return needle !== undefined && start.line <= region.line && namesToken(d, needle) && encloses(start.line);
}

/** The diagnostic names the token: its message quotes it (`"cho"`), or, for an expression, holds its text. */
function namesToken(d: DiagnosticLike, needle: string): boolean {
  const message = typeof d.message === "object" ? d.message.value : d.message;
  return message !== undefined && message.includes(needle);
}

/**
 * Whether a line encloses the token's line: the line itself, or a line above it indented less than every
 * non-blank line between them (a parent key, a `- ` item, a block scalar's header, JSON's enclosing
 * `"key": {`). Asked only for the few diagnostics that name the token; one regular-expression scan of
 * the lines between answers it.
 */
function enclosingLines(text: string, region: TypingRegion, lineOffset?: (line: number) => number): (line: number) => boolean {
  const tokenLineStart = region.start - region.startCharacter;
  return (wanted: number) => {
    if (wanted === region.line) return true;
    // the start of line `wanted`: the caller's, else counted back from the token's line
    let start = tokenLineStart;
    if (lineOffset) start = lineOffset(wanted);
    else for (let l = region.line; l > wanted && start > 0; l--) start = text.lastIndexOf("\n", start - 2) + 1;
    const indent = indentAt(text, start);
    if (indent >= indentAt(text, tokenLineStart)) return false;
    // a non-blank, non-comment line between, indented as little: `wanted` is not an ancestor
    const sibling = new RegExp(`\\n[ \\t]{0,${indent}}[^ \\t\\r\\n#]`, "g");
    sibling.lastIndex = text.indexOf("\n", start);
    const m = sibling.exec(text);
    return m === null || m.index >= tokenLineStart - 1;
  };
}

function indentAt(text: string, lineStart: number): number {
  let i = lineStart;
  while (text[i] === " " || text[i] === "\t") i++;
  return i - lineStart;
}

/**
 * The token the cursor is in, on the cursor's line; undefined on a blank line or in a comment. Reads the
 * line, not a parse; counts lines up to the cursor unless `knownLine` is given.
 */
export function typingRegion(text: string, cursor: number, knownLine?: number): TypingRegion | undefined {
  if (cursor < 0 || cursor > text.length) return undefined;
  const lineStart = text.lastIndexOf("\n", cursor - 1) + 1;
  let lineEnd = text.indexOf("\n", cursor);
  if (lineEnd < 0) lineEnd = text.length;
  if (lineEnd > lineStart && text[lineEnd - 1] === "\r") lineEnd--;
  const lineText = text.slice(lineStart, lineEnd);
  const at = cursor - lineStart;
  const found = expressionAt(lineText, at) ?? tokenAt(lineText, at);
  if (!found) return undefined;
  const [kind, s, e] = found;
  const line = knownLine ?? countLines(text, lineStart);
  return { kind, line, start: lineStart + s, end: lineStart + e, startCharacter: s, endCharacter: e, text: lineText.slice(s, e) };
}

function countLines(text: string, upTo: number): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < upTo; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** `[start, end]` of the `{{ … }}` holding `at` (its `{{` up to just after its `}}`), or of an unclosed `{{ …` to the line's end. */
function expressionAt(line: string, at: number): ["expression", number, number] | undefined {
  if (at < 2) return undefined;
  const open = line.lastIndexOf("{{", at - 2);
  if (open < 0) return undefined;
  const close = line.indexOf("}}", open + 2);
  // closed before the cursor: the cursor is past this expression (just after its `}}` still counts)
  if (close >= 0 && close + 2 < at) return undefined;
  return ["expression", open, close < 0 ? line.length : close + 2];
}

/**
 * The token holding `at` outside expressions, quotes excluded: the quoted string it is in (an unclosed
 * one runs to the line's end); else, in a flow collection (`[a, b]`, `{k: v}`), the item between
 * delimiters; else the key (up to its `:`) or the plain value after the line's first `key: ` (the whole
 * rest of the line: `prompt: Summarize ticket: ` is one value being typed, whose `: ` YAML rejects).
 */
function tokenAt(line: string, at: number): ["token", number, number] | undefined {
  // quoted strings and flow delimiters, left to right (a `#` after a space starts a comment)
  let flowStart = -1;
  let flowDepth = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < line.length && line[j] !== c) j += line[j] === "\\" && c === '"' ? 2 : 1;
      const close = Math.min(j, line.length);
      if (i < at && at <= close) return ["token", i + 1, close];
      i = close;
    } else if (c === "#" && (i === 0 || line[i - 1] === " " || line[i - 1] === "\t")) {
      if (at > i) return undefined; // in a comment
      break;
    } else if (i >= at) {
      break;
    } else if (c === "[" || c === "{") {
      flowDepth++;
      flowStart = i + 1;
    } else if (c === "]" || c === "}") {
      flowDepth = Math.max(0, flowDepth - 1);
      flowStart = i + 1;
    } else if (c === "," && flowDepth > 0) {
      flowStart = i + 1;
    } else if (c === ":" && flowDepth > 0 && (line[i + 1] === " " || i + 1 === at)) {
      flowStart = i + 1; // `{key: value}`: the value
    }
  }
  let start: number;
  let stop: RegExp;
  if (flowDepth > 0) {
    start = flowStart;
    stop = /[,\]}]|[ \t]#/;
  } else {
    // block context: `[- ]*key: value`, `- value`, or a key alone
    const lead = /^[ \t]*(?:-[ \t]+)*/.exec(line)![0].length;
    const key = /^[^:#]*?:(?=[ \t]|$)/.exec(line.slice(lead));
    const valueStart = key ? lead + key[0].length : -1;
    if (key && at >= valueStart) start = valueStart;
    else if (lead === line.length) return undefined; // a blank line
    else start = lead;
    stop = key && at < valueStart ? /:(?=[ \t]|$)/ : /[ \t]#/;
  }
  while (start < line.length && (line[start] === " " || line[start] === "\t")) start++;
  if (at < start) return undefined;
  const m = stop.exec(line.slice(start));
  let end = m ? start + m.index : line.length;
  while (end > start && (line[end - 1] === " " || line[end - 1] === "\t")) end--;
  // the cursor just after the token's last character, or after spaces typed after it (`ticket: `)
  if (at > end && line.slice(end, at).trim() === "") end = at;
  return at <= end ? ["token", start, end] : undefined;
}
