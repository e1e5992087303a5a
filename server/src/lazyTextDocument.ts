// Open documents whose text after an edit is built only when it is read. The default TextDocument
// (vscode-languageserver-textdocument) concatenates the whole new text on every change and V8 then
// flattens it: an O(n) copy per keystroke. Here the last change stays pending over the text as last
// built, so completion right after an edit reads a slice around the cursor, and the full text is built
// once, later, by validation. Positions and offsets are the same as TextDocument's for every input.
//
// No Node APIs: bundled for the Node server and the browser web worker.
import type { Position, Range, TextDocumentContentChangeEvent, TextDocumentsConfiguration } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";

const LF = 10;
const CR = 13;

/** An edit of a text: `text` replaces the offsets [start, end). */
export interface TextChange {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export class LazyTextDocument {
  readonly uri: string;
  readonly languageId: string;
  private currentVersion: number;
  /** The text as last built. */
  private flat: string;
  /** The one change since `flat` not yet applied to it (offsets in `flat`). */
  private pending: TextChange | undefined;
  /** Offset of each line's first character in the current text (flat + pending). */
  private lineStarts: number[];

  constructor(uri: string, languageId: string, version: number, content: string) {
    this.uri = uri;
    this.languageId = languageId;
    this.currentVersion = version;
    this.flat = content;
    this.lineStarts = lineStartsOf(content);
  }

  get version(): number {
    return this.currentVersion;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** Length of the current text. */
  get length(): number {
    const p = this.pending;
    return p ? this.flat.length + p.text.length - (p.end - p.start) : this.flat.length;
  }

  getText(range?: Range): string {
    if (range) {
      const start = this.offsetAt(range.start);
      const end = this.offsetAt(range.end);
      // like String.prototype.substring, which TextDocument uses: reversed offsets are swapped
      return this.slice(Math.min(start, end), Math.max(start, end));
    }
    this.build();
    return this.flat;
  }

  /** The current text between two offsets (clamped to [0, length]), read from the pieces without building it. */
  slice(start: number, end: number): string {
    const length = this.length;
    start = Math.max(Math.min(start, length), 0);
    end = Math.max(Math.min(end, length), 0);
    const p = this.pending;
    if (!p) return this.flat.slice(start, end);
    if (start >= end) return "";
    const insertedEnd = p.start + p.text.length;
    // after the inserted text, offset o of the current text is o - delta in `flat`
    const delta = insertedEnd - p.end;
    let out = "";
    if (start < p.start) out += this.flat.slice(start, Math.min(end, p.start));
    if (start < insertedEnd && end > p.start) out += p.text.slice(Math.max(start, p.start) - p.start, Math.min(end, insertedEnd) - p.start);
    if (end > insertedEnd) out += this.flat.slice(Math.max(start, insertedEnd) - delta, end - delta);
    return out;
  }

  /**
   * The change that turns `text` into the current text, when `text` is the text as last built
   * (offsets in `text`); null when the current text is `text`; undefined when it does not derive
   * from `text` so (read getText() then).
   */
  changeSince(text: string): TextChange | null | undefined {
    if (text !== this.flat) return undefined;
    return this.pending ?? null;
  }

  positionAt(offset: number): Position {
    offset = Math.max(Math.min(offset, this.length), 0);
    const line = this.lineAt(offset);
    const lineStart = this.lineStarts[line];
    return { line, character: this.beforeLineBreak(offset, lineStart) - lineStart };
  }

  offsetAt(position: Position): number {
    const starts = this.lineStarts;
    if (position.line >= starts.length) return this.length;
    if (position.line < 0) return 0;
    const lineStart = starts[position.line];
    if (position.character <= 0) return lineStart;
    return this.beforeLineBreak(Math.min(lineStart + position.character, this.lineEnd(position.line)), lineStart);
  }

  /** The line without its break; past the last line, the last line (in TextDocument's interface). */
  getLineRange(line: number): Range {
    const starts = this.lineStarts;
    if (line >= starts.length) {
      const last = starts.length - 1;
      return { start: { line: last, character: 0 }, end: { line: last, character: this.length - starts[last] } };
    }
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const lineStart = starts[line];
    const end = this.beforeLineBreak(this.lineEnd(line), lineStart);
    return { start: { line, character: 0 }, end: { line, character: end - lineStart } };
  }

  /** The line's break: "\r\n", "\r", "\n", or "" for the last line and lines out of range (in TextDocument's interface). */
  getEOLCharacters(line: number): string {
    const starts = this.lineStarts;
    if (line >= starts.length || line < 0) return "";
    const lineEnd = this.lineEnd(line);
    return this.slice(this.beforeLineBreak(lineEnd, starts[line]), lineEnd);
  }

  /** Applies the changes in order, as TextDocument.update does. */
  update(changes: TextDocumentContentChangeEvent[], version: number): void {
    for (const change of changes) {
      if (isIncremental(change)) this.edit(change.range, change.text);
      else if (isFull(change)) this.replace(change.text);
      else throw new Error("Unknown change event received");
    }
    this.currentVersion = version;
  }

  private replace(text: string): void {
    this.flat = text;
    this.pending = undefined;
    this.lineStarts = lineStartsOf(text);
  }

  private edit(range: Range, text: string): void {
    const [from, to] = isBefore(range.end, range.start) ? [range.end, range.start] : [range.start, range.end];
    // offsetAt never lands between "\r" and "\n" nor past a line's break, so no existing pair is split
    const start = this.offsetAt(from);
    const end = this.offsetAt(to);
    this.build();
    this.pending = { start, end, text };
    const insertedEnd = start + text.length;
    if (this.isCrLfAt(start) || this.isCrLfAt(insertedEnd)) {
      // a "\r" and a "\n" joined across the change: one line break where the pieces saw two (rare)
      this.build();
      this.lineStarts = lineStartsOf(this.flat);
      return;
    }
    const starts = this.lineStarts;
    const startLine = this.lineAt(start);
    const endLine = this.lineAt(end);
    const added: number[] = [];
    collectLineStarts(text, start, added);
    const delta = text.length - (end - start);
    if (added.length === endLine - startLine) {
      // the usual keystroke: as many line breaks typed as replaced (mostly none), updated in place
      for (let i = 0; i < added.length; i++) starts[startLine + 1 + i] = added[i];
      if (delta !== 0) for (let i = startLine + 1 + added.length; i < starts.length; i++) starts[i] += delta;
    } else {
      const next = starts.slice(0, startLine + 1);
      for (const lineStart of added) next.push(lineStart);
      for (let i = endLine + 1; i < starts.length; i++) next.push(starts[i] + delta);
      this.lineStarts = next;
    }
  }

  /** Applies the pending change to `flat`. */
  private build(): void {
    const p = this.pending;
    if (!p) return;
    this.flat = this.flat.slice(0, p.start) + p.text + this.flat.slice(p.end);
    // The concatenation is a rope: reading a character makes V8 flatten it here, once, rather than
    // inside whichever later slice or scan touches it first.
    this.flat.charCodeAt(0);
    this.pending = undefined;
  }

  /** Character code at `offset` of the current text, read from the pieces (NaN out of range, like charCodeAt). */
  private charCodeAt(offset: number): number {
    const p = this.pending;
    if (!p || offset < p.start) return this.flat.charCodeAt(offset);
    const inInserted = offset - p.start;
    if (inInserted < p.text.length) return p.text.charCodeAt(inInserted);
    return this.flat.charCodeAt(p.end + inInserted - p.text.length);
  }

  private isCrLfAt(offset: number): boolean {
    return this.charCodeAt(offset - 1) === CR && this.charCodeAt(offset) === LF;
  }

  /** Where a line in range ends, after its break: the next line's start, or the text's end. */
  private lineEnd(line: number): number {
    return line + 1 < this.lineStarts.length ? this.lineStarts[line + 1] : this.length;
  }

  /** The line of an offset in [0, length]: the last line starting at or before it. */
  private lineAt(offset: number): number {
    const starts = this.lineStarts;
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const mid = Math.floor((low + high) / 2);
      if (starts[mid] > offset) high = mid;
      else low = mid + 1;
    }
    return low - 1;
  }

  /** Moves an offset of the line starting at `lineStart` back before the line's break. */
  private beforeLineBreak(offset: number, lineStart: number): number {
    while (offset > lineStart && isLineBreak(this.charCodeAt(offset - 1))) offset--;
    return offset;
  }
}

/** For `new TextDocuments(lazyTextDocuments)` (vscode-languageserver). */
export const lazyTextDocuments: TextDocumentsConfiguration<LazyTextDocument> = {
  // A malformed didOpen without a string text keeps what it sent (classifyDocument ignores such a
  // document, as before): TextDocument stores anything, this class would fail on it.
  create: (uri, languageId, version, content) =>
    typeof (content as unknown) === "string"
      ? new LazyTextDocument(uri, languageId, version, content)
      : (TextDocument.create(uri, languageId, version, content) as unknown as LazyTextDocument),
  update: (document, changes, version) => {
    document.update(changes, version);
    return document;
  },
};

function isLineBreak(code: number): boolean {
  return code === CR || code === LF;
}

function isBefore(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

// The change events TextDocument accepts, told apart as it does (so a malformed one fails the same way).
type ChangeFields = { range?: Range; rangeLength?: unknown; text?: unknown } | null | undefined;

function isIncremental(change: TextDocumentContentChangeEvent): change is { range: Range; text: string } {
  const c = change as ChangeFields;
  return typeof c?.text === "string" && c.range !== undefined && (c.rangeLength === undefined || typeof c.rangeLength === "number");
}

function isFull(change: TextDocumentContentChangeEvent): change is { text: string } {
  const c = change as ChangeFields;
  return typeof c?.text === "string" && c.range === undefined && c.rangeLength === undefined;
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  collectLineStarts(text, 0, starts);
  return starts;
}

/** Appends the offset after each line break of `text` ("\r\n", "\r" or "\n"), `text` being at `offset`. */
function collectLineStarts(text: string, offset: number, starts: number[]): void {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isLineBreak(code)) continue;
    if (code === CR && text.charCodeAt(i + 1) === LF) i++;
    starts.push(offset + i + 1);
  }
}
