// What is at the cursor, read from the current TEXT only (no parse of the whole document, and it
// works while the text is broken mid-typing): the path of the key or value being typed, the scalar
// under the cursor, and the containers around it with the members already written in them.
//
// JSON (and YAML written in flow style) is read by a tolerant forward scan from the start of the
// document to the cursor: strings cannot span lines in JSON, so an unterminated string ends at its
// line and the scan stays in step. Block YAML is read backwards from the cursor line by indentation,
// which costs a few lines per level (plus the sibling items of each list on the way up) instead of
// a parse. Both cost far less than parsing the document (a few ms for a 1 MB JSON document).
//
// Pure TypeScript, no Node APIs (runs in the browser server too).
import type { Format, Position } from "../document/types";
import type { PathSegment } from "../lwir/types";

/** A scalar written in the text (a JSON string or word; a YAML quoted or plain scalar, or one line of a block scalar). */
export interface TextScalar {
  /** Offset of the first character (the opening quote of a quoted scalar). */
  start: number;
  /** Offset after the scalar (after its closing quote; where it stops when unterminated). */
  end: number;
  quote: '"' | "'" | "";
  closed: boolean;
  contentStart: number;
  contentEnd: number;
  /** YAML: one line of a block scalar or of a multi-line scalar (the cursor line only). */
  block?: boolean;
}

/** A container on the way from the root to the cursor, as written in the text. */
export interface TextFrame {
  kind: "object" | "array";
  path: PathSegment[];
  /** Flow syntax (JSON, or YAML `{...}`/`[...]`). */
  flow: boolean;
  /** Flow: offset of `{`/`[`. Block YAML: offset of the first entry seen (a key, or a `-` marker). */
  start: number;
  /** Block YAML: column of the entries. */
  column?: number;
  /** Keys seen in the text before the cursor (block YAML: before and after), with their scalar values. */
  members: Map<string, string | undefined>;
  /** Scalar elements of an array seen in the text. */
  items: string[];
}

export interface CursorInfo {
  format: Format;
  text: string;
  offset: number;
  /** Start of the cursor line. */
  lineStart: number;
  /**
   * key: a property name goes here (in the object at `path`);
   * value: the value at `path` (its last segment is the key or the index);
   * entry: block YAML on a blank line directly under `path`: a key or a `- ` item, depending on what `path` holds.
   */
  kind: "key" | "value" | "entry";
  path: PathSegment[];
  /** The scalar under the cursor (being typed). */
  token?: TextScalar;
  /** Containers from the root to the innermost one. */
  frames: TextFrame[];
  /** The insertion point is in flow syntax. */
  flow: boolean;
  /** Column that multi-line insertions are indented from. */
  column: number;
  /** Flow: a comma is missing before the insertion point; it goes at this offset. */
  commaBefore?: number;
  /** Flow: more members/elements follow, so an inserted one needs a comma after it. */
  commaAfter?: boolean;
  /** key: a colon already follows the key being typed (complete the name only). */
  hasColon?: boolean;
  /** Block YAML value: a `- ` marker must be written first (a blank line in a sequence). */
  yamlItem?: boolean;
  /** Block YAML value after `- `: the plain word typed may be the first key of a mapping item. */
  maybeKey?: boolean;
  /** Block YAML: the cursor is right after a `-` with no space yet. */
  spaceBefore?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Positions (local: no line table of the whole document is built)

/** Offset of an LSP position; clamps like TextDocument.offsetAt. */
export function offsetOf(text: string, position: Position): number {
  let line = 0;
  let i = 0;
  const target = Math.max(0, Math.floor(position.line) || 0);
  const cr = text.indexOf("\r") >= 0;
  while (line < target) {
    const nl = cr ? nextBreak(text, i) : text.indexOf("\n", i);
    if (nl < 0) return text.length;
    i = nl + (text.charCodeAt(nl) === 13 && text.charCodeAt(nl + 1) === 10 ? 2 : 1);
    line++;
  }
  const end = lineEndAt(text, i);
  return Math.min(i + Math.max(0, Math.floor(position.character) || 0), end);
}

/** Converts offsets to positions by counting line breaks from an anchor of known line (cheap for offsets near it). */
export class Positioner {
  constructor(private readonly text: string, private readonly anchor: number, private readonly anchorLine: number) {}

  static at(text: string, position: Position, offset: number): Positioner {
    return new Positioner(text, lineStartAt(text, offset), position.line);
  }

  positionAt(offset: number): Position {
    const t = this.text;
    const o = Math.max(0, Math.min(offset, t.length));
    let line = this.anchorLine;
    if (o >= this.anchor) {
      let i = this.anchor;
      for (;;) {
        const nl = nextBreak(t, i);
        if (nl < 0 || nl >= o) break;
        const after = nl + (t.charCodeAt(nl) === 13 && t.charCodeAt(nl + 1) === 10 ? 2 : 1);
        if (after > o) break;
        line++;
        i = after;
      }
      return { line, character: o - i };
    }
    let start = this.anchor;
    while (start > o) {
      // step over the previous line's break (\n, \r\n or \r) to that line's start
      let brk = start - 1;
      if (t.charCodeAt(brk) === 10 && t.charCodeAt(brk - 1) === 13) brk--;
      start = lineStartAt(t, brk);
      line--;
    }
    return { line, character: o - start };
  }
}

function nextBreak(text: string, from: number): number {
  const lf = text.indexOf("\n", from);
  const end = lf < 0 ? text.length : lf;
  for (let i = from; i < end; i++) if (text.charCodeAt(i) === 13) return i;
  return lf;
}

/** Start of the line holding `offset`. */
export function lineStartAt(text: string, offset: number): number {
  let i = Math.min(offset, text.length) - 1;
  while (i >= 0) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) break;
    i--;
  }
  return i + 1;
}

/** End of the line holding `offset` (before its line break). */
export function lineEndAt(text: string, offset: number): number {
  const nl = nextBreak(text, offset);
  return nl < 0 ? text.length : nl;
}

/** The indentation unit the document uses (2 when it cannot tell). */
/** indentUnit reads this many lines at most. */
export const INDENT_SAMPLE_LINES = 200;

export function indentUnit(text: string): number {
  let best = 0;
  let i = 0;
  for (let n = 0; n < INDENT_SAMPLE_LINES && i < text.length; n++) {
    const end = lineEndAt(text, i);
    let j = i;
    while (j < end && text.charCodeAt(j) === 32) j++;
    const w = j - i;
    if (j < end && w > 0 && (best === 0 || w < best)) best = w;
    i = end + 1;
    if (text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10) i++;
  }
  return best >= 1 && best <= 8 ? best : 2;
}

const isWs = (c: number) => c === 32 || c === 9;
const isBreakOrEnd = (c: number) => Number.isNaN(c) || c === 10 || c === 13;

// ---------------------------------------------------------------------------------------------
// Flow scanning (JSON, YAML flow collections)

const enum Tok {
  EOF,
  LBrace,
  RBrace,
  LBracket,
  RBracket,
  Comma,
  Colon,
  Str,
  Word,
}

const JSON_STRING_BODY = /[^"\\\n\r]*(?:\\[^\n\r][^"\\\n\r]*)*/y;

/** A tokenizer that allocates nothing per token: the current token is in its fields. */
class FlowLexer {
  kind: Tok = Tok.EOF;
  start = 0;
  end = 0;
  closed = true;
  quote: '"' | "'" | "" = "";
  private prev: Tok = Tok.EOF;

  constructor(private readonly text: string, public pos: number, private readonly yaml: boolean, private readonly limit: number) {}

  next(): Tok {
    const t = this.text;
    const n = this.limit;
    let i = this.pos;
    for (;;) {
      if (i >= n) {
        this.start = this.end = this.pos = n;
        return (this.kind = Tok.EOF);
      }
      const c = t.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff) {
        i++;
        continue;
      }
      if (!this.yaml && c === 47 /* / */) {
        const d = t.charCodeAt(i + 1);
        if (d === 47) { i = lineEndAt(t, i); continue; }
        if (d === 42) { const e = t.indexOf("*/", i + 2); i = e < 0 || e >= n ? n : e + 2; continue; }
      }
      if (this.yaml && c === 35 /* # */ && (i === 0 || isWs(t.charCodeAt(i - 1)) || t.charCodeAt(i - 1) === 10 || t.charCodeAt(i - 1) === 13)) {
        i = lineEndAt(t, i);
        continue;
      }
      break;
    }
    this.start = i;
    this.closed = true;
    this.quote = "";
    const c = t.charCodeAt(i);
    let kind: Tok;
    switch (c) {
      case 123: kind = Tok.LBrace; this.end = i + 1; break;
      case 125: kind = Tok.RBrace; this.end = i + 1; break;
      case 91: kind = Tok.LBracket; this.end = i + 1; break;
      case 93: kind = Tok.RBracket; this.end = i + 1; break;
      case 44: kind = Tok.Comma; this.end = i + 1; break;
      case 58: // :
        if (!this.yaml || this.prev === Tok.Str || this.isYamlColon(i)) { kind = Tok.Colon; this.end = i + 1; }
        else kind = this.word(i);
        break;
      case 34: { // "
        JSON_STRING_BODY.lastIndex = i + 1;
        JSON_STRING_BODY.exec(t);
        let e = Math.min(JSON_STRING_BODY.lastIndex, n);
        if (t.charCodeAt(e) === 92) e++; // a backslash right before the line end
        this.quote = '"';
        if (e < n && t.charCodeAt(e) === 34) this.end = e + 1;
        else { this.end = Math.min(e, n); this.closed = false; }
        kind = Tok.Str;
        break;
      }
      case 39: // '
        if (this.yaml) {
          let e = i + 1;
          this.closed = false;
          while (e < n) {
            const d = t.charCodeAt(e);
            if (d === 10 || d === 13) break;
            if (d === 39) {
              if (t.charCodeAt(e + 1) === 39) { e += 2; continue; }
              this.closed = true;
              e++;
              break;
            }
            e++;
          }
          this.end = e;
          this.quote = "'";
          kind = Tok.Str;
          break;
        }
        kind = this.word(i);
        break;
      default:
        kind = this.word(i);
    }
    this.pos = this.end;
    this.prev = kind;
    return (this.kind = kind);
  }

  private isYamlColon(i: number): boolean {
    const d = this.text.charCodeAt(i + 1);
    return i + 1 >= this.limit || isWs(d) || d === 10 || d === 13 || d === 44 || d === 91 || d === 93 || d === 123 || d === 125;
  }

  private word(i: number): Tok {
    const t = this.text;
    const n = this.limit;
    let e = i + 1;
    if (this.yaml) {
      let last = i + 1;
      while (e < n) {
        const d = t.charCodeAt(e);
        if (d === 10 || d === 13 || d === 44 || d === 91 || d === 93 || d === 123 || d === 125) break;
        if (d === 58 && this.isYamlColon(e)) break;
        if (d === 35 && isWs(t.charCodeAt(e - 1))) break;
        e++;
        if (!isWs(d)) last = e;
      }
      this.end = last;
    } else {
      while (e < n) {
        const d = t.charCodeAt(e);
        if (d <= 32 || d === 44 || d === 58 || d === 91 || d === 93 || d === 123 || d === 125 || d === 34) break;
        e++;
      }
      this.end = e;
    }
    return Tok.Word;
  }

  /** The decoded value of the current Str/Word token. */
  value(): string {
    return decodeScalar(this.text, this.start, this.end, this.quote, this.closed);
  }
}

/** The value of a scalar as written (JSON or YAML escapes). */
export function decodeScalar(text: string, start: number, end: number, quote: '"' | "'" | "", closed: boolean): string {
  if (quote === "") return text.slice(start, end);
  const inner = text.slice(start + 1, closed ? end - 1 : end);
  if (quote === "'") return inner.replace(/''/g, "'");
  if (inner.indexOf("\\") < 0) return inner;
  try {
    return JSON.parse(`"${inner}"`) as string;
  } catch {
    return decodeWithMap(inner).value;
  }
}

/**
 * Decodes backslash escapes (JSON / YAML double-quoted) or `''` (YAML single-quoted) leniently, with
 * a map from each decoded index to the raw index (map[value.length] = raw.length).
 */
export function decodeWithMap(raw: string, quote: '"' | "'" | "" = '"'): { value: string; map: number[] } {
  let value = "";
  const map: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (quote === '"' && c === "\\" && i + 1 < raw.length) {
      const d = raw[i + 1];
      const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", "/": "/", "\\": "\\", '"': '"', "'": "'", "0": "\0" };
      if (d === "u" && /^[0-9a-fA-F]{4}$/.test(raw.slice(i + 2, i + 6))) {
        map.push(i);
        value += String.fromCharCode(parseInt(raw.slice(i + 2, i + 6), 16));
        i += 5;
        continue;
      }
      map.push(i);
      value += simple[d] ?? d;
      i++;
      continue;
    }
    if (quote === "'" && c === "'" && raw[i + 1] === "'") {
      map.push(i);
      value += "'";
      i++;
      continue;
    }
    map.push(i);
    value += c;
  }
  map.push(raw.length);
  return { value, map };
}

/** One open container of the flow scan. Frames are reused by depth, so the scan allocates almost nothing. */
interface ScanFrame {
  object: boolean;
  start: number;
  state: "key" | "colon" | "value" | "after";
  /** Where the current key is written (decoded only for the frames left open at the cursor). */
  keyStart: number;
  keyEnd: number;
  keyQuote: '"' | "'" | "";
  keyClosed: boolean;
  index: number;
  lastEnd: number;
  /** `id` and `uses` scalars of an object (what completion reads from a frame). */
  id?: string;
  uses?: string;
  items: string[];
}

interface FlowResult {
  kind: "key" | "value";
  path: PathSegment[];
  token?: TextScalar;
  frames: TextFrame[];
  commaBefore?: number;
  commaAfter?: boolean;
  hasColon?: boolean;
}

/** `text[start, end)` is the key `name` written as a JSON/YAML scalar (quoted or not)? */
function isKey(text: string, start: number, end: number, name: string): boolean {
  const len = end - start;
  if (len === name.length) return text.startsWith(name, start);
  return len === name.length + 2 && text.startsWith(name, start + 1) && (text[start] === '"' || text[start] === "'");
}

/** Scans flow text from `from` to the cursor; paths are relative to the value that starts at `from`. */
/**
 * Completion gives up inside text nested deeper than this: each open level gets a copy of its path (and, in YAML
 * block style, a bounded look at the lines below), so the work grows with the square of the nesting, and a hostile
 * document nested 100,000 levels would take minutes and gigabytes. No LWIR structure comes near it (YAML deeper
 * than 400 levels does not even parse).
 */
export const MAX_CURSOR_DEPTH = 500;

function scanFlow(text: string, from: number, cursor: number, yaml: boolean, limit: number): FlowResult | undefined {
  const lx = new FlowLexer(text, from, yaml, limit);
  const pool: ScanFrame[] = [];
  let depth = 0;
  let rootDone = false;
  let at: TextScalar | undefined;
  const keyOf = (f: ScanFrame) => (f.keyEnd > f.keyStart ? decodeScalar(text, f.keyStart, f.keyEnd, f.keyQuote, f.keyClosed) : "");
  const valueDone = (f: ScanFrame | undefined, end: number, scalar: boolean) => {
    if (!f) { rootDone = true; return; }
    if (scalar) {
      if (f.object) {
        if (isKey(text, f.keyStart, f.keyEnd, "id")) f.id = lx.value();
        else if (isKey(text, f.keyStart, f.keyEnd, "uses")) f.uses = lx.value();
      } else if (end - lx.start < 200) f.items.push(lx.value());
    }
    f.state = "after";
    f.lastEnd = end;
  };
  for (;;) {
    const k = lx.next();
    if (k === Tok.EOF || lx.start >= cursor) break;
    if ((k === Tok.Str && (lx.end > cursor || (!lx.closed && lx.end >= cursor))) || (k === Tok.Word && lx.end >= cursor)) {
      at = {
        start: lx.start, end: lx.end, quote: lx.quote, closed: lx.closed,
        contentStart: lx.quote ? lx.start + 1 : lx.start, contentEnd: lx.quote && lx.closed ? lx.end - 1 : lx.end,
      };
      break;
    }
    if (rootDone) break; // the value that started at `from` ended before the cursor
    const top = depth > 0 ? pool[depth - 1] : undefined;
    switch (k) {
      case Tok.LBrace:
      case Tok.LBracket: {
        if (top && !top.object) { if (top.state === "after") top.index++; top.state = "value"; }
        if (top && top.object && top.state !== "value") { top.keyStart = top.keyEnd = 0; top.state = "value"; }
        const f = pool[depth] ??= { object: true, start: 0, state: "key", keyStart: 0, keyEnd: 0, keyQuote: "", keyClosed: true, index: 0, lastEnd: -1, items: [] };
        f.object = k === Tok.LBrace;
        f.start = lx.start;
        f.state = f.object ? "key" : "value";
        f.keyStart = f.keyEnd = 0;
        f.index = 0;
        f.lastEnd = -1;
        f.id = f.uses = undefined;
        f.items = [];
        depth++;
        break;
      }
      case Tok.RBrace:
      case Tok.RBracket:
        if (depth === 0) break;
        depth--;
        valueDone(depth > 0 ? pool[depth - 1] : undefined, lx.end, false);
        break;
      case Tok.Comma:
        if (!top) break;
        if (top.object) { top.state = "key"; top.keyStart = top.keyEnd = 0; }
        else { top.index++; top.state = "value"; }
        break;
      case Tok.Colon:
        if (top && top.object && top.state === "colon") top.state = "value";
        break;
      default:
        if (!top) { rootDone = true; break; }
        if (top.object) {
          if (top.state === "key" || top.state === "after") {
            top.keyStart = lx.start;
            top.keyEnd = lx.end;
            top.keyQuote = lx.quote;
            top.keyClosed = lx.closed;
            top.state = "colon";
          } else if (top.state === "value") {
            valueDone(top, lx.end, true);
          }
        } else {
          if (top.state === "after") top.index++;
          valueDone(top, lx.end, true);
        }
    }
  }
  // Each open frame gets a copy of its path, so the work is quadratic in the nesting: beyond any document
  // worth completing in (a hostile one nested 100,000 levels would need gigabytes), give up.
  if (depth > MAX_CURSOR_DEPTH) return undefined;
  // The frames left open hold the cursor: build their paths and members.
  const frames: TextFrame[] = [];
  const path: PathSegment[] = [];
  for (let i = 0; i < depth; i++) {
    const f = pool[i];
    const members = new Map<string, string | undefined>();
    if (f.id !== undefined) members.set("id", f.id);
    if (f.uses !== undefined) members.set("uses", f.uses);
    frames.push({ kind: f.object ? "object" : "array", path: [...path], flow: true, start: f.start, members, items: f.items });
    if (i < depth - 1) path.push(f.object ? keyOf(f) : f.index);
  }
  const top = depth > 0 ? pool[depth - 1] : undefined;
  const peekAfter = (from: number): Tok => new FlowLexer(text, from, yaml, limit).next();
  const startsValue = (t: Tok) => t === Tok.Str || t === Tok.Word || t === Tok.LBrace || t === Tok.LBracket;
  const result = (r: Omit<FlowResult, "frames">): FlowResult => ({ ...r, frames });
  if (!top) {
    if (rootDone) return undefined;
    return result({ kind: "value", path: [], token: at });
  }
  const after = at ? at.end : cursor;
  if (top.object) {
    if (top.state === "key" || top.state === "after") {
      const next = peekAfter(after);
      const hasColon = at !== undefined && next === Tok.Colon;
      return result({
        kind: "key", path, token: at, hasColon,
        commaBefore: top.state === "after" ? top.lastEnd : undefined,
        commaAfter: !hasColon && (next === Tok.Str || next === Tok.Word),
      });
    }
    if (top.state === "value") return result({ kind: "value", path: [...path, keyOf(top)], token: at });
    return undefined;
  }
  const index = top.state === "after" ? top.index + 1 : top.index;
  return result({
    kind: "value", path: [...path, index], token: at,
    commaBefore: top.state === "after" ? top.lastEnd : undefined,
    commaAfter: startsValue(peekAfter(after)),
  });
}

/** A member of an object as written in the text. */
export interface MemberLoc {
  key: string;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  /** The scalar value, when it is one. */
  scalar?: string;
  /** Array values: their scalar elements, `[`/`]` offsets (flow) or the item lines (block). */
  elements?: Array<{ start: number; end: number; value?: string }>;
  open?: number;
  close?: number;
  /** Block YAML: the value is a block sequence on the following lines. */
  blockSequence?: boolean;
  /** Block YAML: the value is empty (nothing after the colon and no lines below). */
  empty?: boolean;
  /** Block YAML: column of the key. */
  column?: number;
}

/** The members of the flow object whose `{` is at `start` (depth-1 keys only). */
export function flowMembers(text: string, start: number, yaml: boolean): { members: MemberLoc[]; close: number | undefined } {
  const lx = new FlowLexer(text, start, yaml, text.length);
  const members: MemberLoc[] = [];
  if (lx.next() !== Tok.LBrace) return { members, close: undefined };
  let state: "key" | "colon" | "value" | "after" = "key";
  let current: MemberLoc | undefined;
  for (;;) {
    const k = lx.next();
    if (k === Tok.EOF) return { members, close: undefined };
    if (k === Tok.RBrace) return { members, close: lx.start };
    if (k === Tok.Comma) { state = "key"; continue; }
    if (k === Tok.Colon) { if (state === "colon") state = "value"; continue; }
    if (k === Tok.Str || k === Tok.Word) {
      if (state === "key" || state === "after") {
        current = { key: lx.value(), keyStart: lx.start, keyEnd: lx.end, valueStart: lx.end, valueEnd: lx.end };
        members.push(current);
        state = "colon";
      } else if (state === "value" && current) {
        current.valueStart = lx.start;
        current.valueEnd = lx.end;
        current.scalar = lx.value();
        state = "after";
      }
      continue;
    }
    // a nested container: skip it (recording array elements one level down)
    const open = lx.start;
    const asValue = state === "value" && current !== undefined;
    const elements: MemberLoc["elements"] = [];
    let depth = 1;
    while (depth > 0) {
      const d = lx.next();
      if (d === Tok.EOF) return { members, close: undefined };
      if (d === Tok.LBrace || d === Tok.LBracket) depth++;
      else if (d === Tok.RBrace || d === Tok.RBracket) depth--;
      else if (depth === 1 && k === Tok.LBracket && (d === Tok.Str || d === Tok.Word)) elements.push({ start: lx.start, end: lx.end, value: lx.value() });
    }
    if (asValue && current) {
      current.valueStart = open;
      current.valueEnd = lx.end;
      if (k === Tok.LBracket) {
        current.elements = elements;
        current.open = open;
        current.close = lx.start;
      }
    }
    state = "after";
  }
}

// ---------------------------------------------------------------------------------------------
// Block YAML

interface YTok {
  item: boolean;
  col: number;
  offset: number;
  key?: string;
  keyEnd?: number;
  quote?: '"' | "'" | "";
  colon?: number;
  /** Where the value (after the colon, or after the marker) starts. */
  valueStart: number;
}

interface YLine {
  start: number;
  end: number;
  kind: "blank" | "doc" | "content";
  toks: YTok[];
  /** After the markers. */
  contentStart: number;
}

function yamlLine(text: string, start: number, end: number): YLine {
  let i = start;
  while (i < end && text.charCodeAt(i) === 32) i++;
  if (i >= end || text.charCodeAt(i) === 35 /* # */) return { start, end, kind: "blank", toks: [], contentStart: i };
  if (i === start && (text.startsWith("---", i) || text.startsWith("...", i)) && (i + 3 >= end || isWs(text.charCodeAt(i + 3)))) {
    return { start, end, kind: "doc", toks: [], contentStart: i };
  }
  const toks: YTok[] = [];
  while (text.charCodeAt(i) === 45 /* - */ && (i + 1 >= end || isWs(text.charCodeAt(i + 1)))) {
    const marker: YTok = { item: true, col: i - start, offset: i, valueStart: end };
    toks.push(marker);
    i++;
    while (i < end && isWs(text.charCodeAt(i))) i++;
    marker.valueStart = i;
  }
  const key = readKey(text, i, end);
  if (key) {
    let v = key.colon + 1;
    while (v < end && isWs(text.charCodeAt(v))) v++;
    toks.push({ item: false, col: i - start, offset: i, key: key.name, keyEnd: key.end, quote: key.quote, colon: key.colon, valueStart: v });
  }
  return { start, end, kind: "content", toks, contentStart: i };
}

function readKey(text: string, i: number, end: number): { name: string; end: number; colon: number; quote: '"' | "'" | "" } | undefined {
  if (i >= end) return undefined;
  const c = text.charCodeAt(i);
  if (c === 34 || c === 39) {
    let j = i + 1;
    while (j < end) {
      const d = text.charCodeAt(j);
      if (c === 34 && d === 92) { j += 2; continue; }
      if (d === c) {
        if (c === 39 && text.charCodeAt(j + 1) === 39) { j += 2; continue; }
        break;
      }
      j++;
    }
    if (j >= end) return undefined;
    const keyEnd = j + 1;
    let k = keyEnd;
    while (k < end && isWs(text.charCodeAt(k))) k++;
    if (text.charCodeAt(k) !== 58 || !(k + 1 >= end || isWs(text.charCodeAt(k + 1)))) return undefined;
    const quote = c === 34 ? '"' : "'";
    return { name: decodeScalar(text, i, keyEnd, quote, true), end: keyEnd, colon: k, quote };
  }
  // flow collections, block scalars, aliases, tags, directives: not a plain key
  if ("[{|>!&*%@`#,?".includes(text[i])) return undefined;
  for (let j = i; j < end; j++) {
    const d = text.charCodeAt(j);
    if (d === 58 && (j + 1 >= end || isWs(text.charCodeAt(j + 1)))) {
      let e = j;
      while (e > i && isWs(text.charCodeAt(e - 1))) e--;
      return { name: text.slice(i, e), end: e, colon: j, quote: "" };
    }
    if (d === 35 && j > i && isWs(text.charCodeAt(j - 1))) return undefined;
  }
  return undefined;
}

/** The plain scalar starting at `from` on its line: up to a ` #` comment, trailing blanks trimmed. */
function plainEnd(text: string, from: number, end: number): number {
  let e = from;
  let last = from;
  while (e < end) {
    const d = text.charCodeAt(e);
    if (d === 35 && e > from && isWs(text.charCodeAt(e - 1))) break;
    e++;
    if (!isWs(d)) last = e;
  }
  return last;
}

/** A quoted scalar starting at `from` (its quote), limited to the line. */
function quotedOnLine(text: string, from: number, end: number): TextScalar {
  const q = text.charCodeAt(from);
  let j = from + 1;
  let closed = false;
  while (j < end) {
    const d = text.charCodeAt(j);
    if (q === 34 && d === 92) { j += 2; continue; }
    if (d === q) {
      if (q === 39 && text.charCodeAt(j + 1) === 39) { j += 2; continue; }
      closed = true;
      j++;
      break;
    }
    j++;
  }
  const e = Math.min(j, end);
  return { start: from, end: e, quote: q === 34 ? '"' : "'", closed, contentStart: from + 1, contentEnd: closed ? e - 1 : e };
}

interface YLevel {
  ty: "key" | "item" | "unknown";
  col: number;
  /** key level: the key whose value holds the cursor (undefined where a new key is typed). */
  key?: string;
  /** item level: siblings above, i.e. the index of the item holding the cursor. */
  count: number;
  start: number;
  members: Map<string, string | undefined>;
  items: string[];
}

type ValueAt = { token?: TextScalar; flow?: FlowResult; none?: boolean };

/** What the cursor is on in a block YAML value that starts at `valueStart` on the cursor line. */
function yamlValueAt(text: string, valueStart: number, lineEnd: number, offset: number): ValueAt {
  if (valueStart >= lineEnd || offset <= valueStart) return {};
  const c = text.charCodeAt(valueStart);
  if (c === 34 || c === 39) {
    const tok = quotedOnLine(text, valueStart, lineEnd);
    if (tok.closed && offset >= tok.end) return { none: true };
    return { token: tok };
  }
  if (c === 91 || (c === 123 && text.charCodeAt(valueStart + 1) !== 123)) {
    const flow = scanFlow(text, valueStart, offset, true, lineEnd);
    return flow ? { flow } : { none: true };
  }
  if (c === 124 || c === 62) return { none: true }; // | > block scalar header
  if (c === 35) return { none: true }; // a comment
  const plain = plainEnd(text, valueStart, lineEnd);
  if (offset > plain && text.slice(plain, offset).includes(" #")) return { none: true }; // in a trailing comment
  const e = Math.max(plain, offset);
  return { token: { start: valueStart, end: e, quote: "", closed: true, contentStart: valueStart, contentEnd: e } };
}

function scalarOf(text: string, tok: YTok, lineEnd: number): string | undefined {
  const v = tok.valueStart;
  if (v >= lineEnd) return undefined;
  const c = text.charCodeAt(v);
  if (c === 34 || c === 39) {
    const q = quotedOnLine(text, v, lineEnd);
    return decodeScalar(text, q.start, q.end, q.quote, q.closed);
  }
  if (c === 91 || c === 123 || c === 124 || c === 62 || c === 35 || c === 38 || c === 42) return undefined;
  return text.slice(v, plainEnd(text, v, lineEnd));
}

function yamlCursor(text: string, offset: number): CursorInfo | undefined {
  const lineStart = lineStartAt(text, offset);
  const lineEnd = lineEndAt(text, offset);
  const line = yamlLine(text, lineStart, lineEnd);
  if (line.kind === "blank" && line.contentStart < offset) return undefined; // typing in a comment
  if (line.kind === "doc") return undefined;
  const before = line.toks.filter((t) => t.offset < offset);
  const info: CursorInfo = { format: "yaml", text, offset, lineStart, kind: "value", path: [], frames: [], flow: false, column: offset - lineStart };
  let state: YLevel;
  let rest: YTok[];
  let inner: FlowResult | undefined;
  let unreadable = false;
  const level = (ty: YLevel["ty"], col: number, start: number, key?: string): YLevel =>
    ({ ty, col, start, key, count: 0, members: new Map(), items: [] });

  const last = before[before.length - 1];
  if (last && !last.item) {
    rest = before.slice(0, -1);
    if (offset > (last.colon ?? 0)) {
      const v = yamlValueAt(text, last.valueStart, lineEnd, offset);
      if (v.none) return undefined;
      info.token = v.token;
      inner = v.flow;
      info.column = last.col;
      if (offset === (last.colon ?? 0) + 1 && !v.token && !v.flow) info.spaceBefore = true; // `key:|`
      state = level("key", last.col, last.offset, last.key);
      state.members.set(last.key ?? "", undefined);
    } else {
      info.kind = "key";
      const q = last.quote ?? "";
      info.token = { start: last.offset, end: last.keyEnd ?? offset, quote: q, closed: true, contentStart: q ? last.offset + 1 : last.offset, contentEnd: q ? (last.keyEnd ?? offset) - 1 : last.keyEnd ?? offset };
      info.hasColon = true;
      info.column = last.col;
      state = level("key", last.col, last.offset);
    }
  } else {
    const marker = last;
    rest = marker ? before.slice(0, -1) : before;
    const contentStart = marker ? Math.min(marker.valueStart, offset) : line.contentStart;
    const typed = contentStart < offset ? text.slice(contentStart, offset) : "";
    if (typed.trim() === "") {
      if (marker) {
        state = level("item", marker.col, marker.offset);
        info.column = offset - lineStart;
        if (marker.offset === offset - 1) { info.spaceBefore = true; info.column = offset - lineStart + 1; }
      } else {
        info.kind = "entry";
        info.column = offset - lineStart;
        state = level("unknown", offset - lineStart, offset);
      }
    } else if (marker) {
      const v = yamlValueAt(text, contentStart, lineEnd, offset);
      if (v.none) return undefined;
      info.token = v.token;
      inner = v.flow;
      info.maybeKey = v.token !== undefined && v.token.quote === "";
      info.column = contentStart - lineStart;
      state = level("item", marker.col, marker.offset);
    } else {
      const c = text.charCodeAt(contentStart);
      // a line starting with a flow collection: only completable as the text of a block scalar
      if (c === 91 || c === 123) unreadable = true;
      info.kind = "key";
      info.column = contentStart - lineStart;
      if (c === 34 || c === 39) info.token = quotedOnLine(text, contentStart, lineEnd);
      else {
        const e = Math.max(plainEnd(text, contentStart, lineEnd), offset);
        info.token = { start: contentStart, end: e, quote: "", closed: true, contentStart, contentEnd: e };
      }
      state = level("key", contentStart - lineStart, contentStart);
    }
  }

  const levels: YLevel[] = [];
  let scalarLine = false; // the cursor turned out to be inside a multi-line scalar
  const enterScalar = (tok: YTok, lineEndOf: number) => {
    // Everything below a key (or item) with an inline scalar or block scalar header is that scalar's text.
    levels.length = 0;
    inner = undefined;
    scalarLine = true;
    info.kind = "value";
    info.hasColon = info.maybeKey = info.yamlItem = info.spaceBefore = undefined;
    let s = lineStart;
    while (s < lineEnd && isWs(text.charCodeAt(s))) s++;
    if (s > offset) s = offset;
    const v = tok.valueStart;
    const head = text.charCodeAt(v);
    let quote: '"' | "'" | "" = "";
    if (head === 34 || head === 39) {
      const q = quotedOnLine(text, v, lineEndOf);
      if (!q.closed) quote = q.quote;
    }
    info.token = { start: s, end: lineEnd, quote, closed: true, contentStart: s, contentEnd: lineEnd, block: true };
  };
  const ascend = (tok: YTok, lineEndOf: number, last: boolean) => {
    levels.push(state);
    if (tok.item) {
      state = level("item", tok.col, tok.offset);
      // `- text` with more-indented lines below: they continue the scalar (not so for `- key: …` or `- - …`)
      if (last && tok.valueStart < lineEndOf && text.charCodeAt(tok.valueStart) !== 35 && !scalarLine) enterScalar(tok, lineEndOf);
    } else {
      state = level("key", tok.col, tok.offset, tok.key);
      state.members.set(tok.key ?? "", undefined);
      if (tok.valueStart < lineEndOf && text.charCodeAt(tok.valueStart) !== 35 && !scalarLine) enterScalar(tok, lineEndOf);
    }
  };
  /** `trailing`: the line has more after these tokens (the cursor line: what is being typed). */
  const visit = (toks: YTok[], lineEndOf: number, trailing = false): boolean => {
    for (let k = toks.length - 1; k >= 0; k--) {
      const tok = toks[k];
      if (tok.col > state.col) continue;
      if (tok.col === state.col) {
        if (state.ty === "unknown") {
          state.ty = tok.item ? "item" : "key";
          if (state.ty === "key") info.kind = "key";
          else { info.kind = "value"; info.yamlItem = true; }
        }
        if (tok.item && state.ty === "item") {
          state.count++;
          state.start = tok.offset;
          if (k === toks.length - 1) {
            const s = scalarOf(text, tok, lineEndOf);
            if (s !== undefined) state.items.unshift(s);
          }
          continue;
        }
        if (!tok.item && state.ty === "key") {
          if (!state.members.has(tok.key ?? "")) state.members.set(tok.key ?? "", scalarOf(text, tok, lineEndOf));
          state.start = tok.offset;
          continue;
        }
        if (!tok.item && state.ty === "item") {
          ascend(tok, lineEndOf, !trailing && k === toks.length - 1); // an indentless sequence under this key
          continue;
        }
        return false;
      }
      ascend(tok, lineEndOf, !trailing && k === toks.length - 1);
    }
    return true;
  };

  if (!visit(rest, lineEnd, true)) return undefined;
  // Walk up, line by line.
  const cr = text.indexOf("\r") >= 0;
  let end = lineStart - 1;
  while (end >= 0) {
    if (text.charCodeAt(end) === 10 && text.charCodeAt(end - 1) === 13) end--;
    // (lastIndexOf clamps a negative start to 0 and would find a break at 0 again: never search below 0)
    const start = cr ? lineStartAt(text, end) : end > 0 ? text.lastIndexOf("\n", end - 1) + 1 : 0;
    // Every token of a line is at or right of its indentation: a line indented deeper than the
    // current level cannot hold a sibling or a parent, so it is skipped without being read.
    let ind = start;
    while (ind < end && text.charCodeAt(ind) === 32) ind++;
    if (ind - start > state.col && state.ty !== "unknown" && ind < end) { end = start - 1; continue; }
    const l = yamlLine(text, start, end);
    end = start - 1;
    if (l.kind === "blank") continue;
    if (l.kind === "doc") break;
    if (!visit(l.toks, l.end)) break;
    if (state.col === 0 && state.ty === "key" && l.toks.length > 0 && l.toks[0].col === 0 && !l.toks[0].item && levels.length > 0) {
      // At the root mapping: siblings above only matter for what they say about the root; stop early.
      break;
    }
  }
  if (unreadable && !scalarLine) return undefined;
  levels.push(state);
  if (levels.length > MAX_CURSOR_DEPTH) return undefined;
  // Members after the cursor, for the key levels (bounded): a step's id and uses may follow the cursor.
  for (const lv of levels) if (lv.ty === "key" && lv.col > 0) forwardMembers(text, lineEnd, lv);

  levels.reverse();
  const path: PathSegment[] = [];
  const frames: TextFrame[] = [];
  for (let i = 0; i < levels.length; i++) {
    const lv = levels[i];
    frames.push({
      kind: lv.ty === "item" ? "array" : "object", path: [...path], flow: false, start: lv.start, column: lv.col,
      members: lv.members, items: lv.items,
    });
    const innermost = i === levels.length - 1;
    if (lv.ty === "item") path.push(lv.count);
    else if (lv.ty === "key" && lv.key !== undefined) path.push(lv.key);
    else if (!innermost) path.push("");
  }
  info.path = path;
  info.frames = frames;
  if (inner) {
    const prefix = path;
    info.kind = inner.kind;
    info.path = [...prefix, ...inner.path];
    info.token = inner.token;
    info.frames = [...frames, ...inner.frames.map((f) => ({ ...f, path: [...prefix, ...f.path] }))];
    info.flow = true;
    info.commaBefore = inner.commaBefore;
    info.commaAfter = inner.commaAfter;
    info.hasColon = inner.hasColon;
    info.maybeKey = undefined;
  }
  return info;
}

/** Adds the sibling keys written below the cursor line to a block mapping level (at most 400 lines). */
function forwardMembers(text: string, from: number, lv: YLevel): void {
  let i = from;
  for (let n = 0; n < 400 && i < text.length; n++) {
    i += text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
    if (i > text.length) return;
    const end = lineEndAt(text, i);
    const l = yamlLine(text, i, end);
    i = end;
    if (l.kind === "blank") continue;
    if (l.kind === "doc") return;
    const first = l.toks[0];
    if (!first) continue; // a scalar continuation line
    if (first.col < lv.col || (first.col === lv.col && first.item)) return;
    if (first.col === lv.col && !first.item && first.key !== undefined && !lv.members.has(first.key)) {
      lv.members.set(first.key, scalarOf(text, first, end));
    }
  }
}

/** The members of the block mapping whose first key is at `start` (keys at its column, until the mapping ends). */
export function blockMembers(text: string, start: number, column: number): MemberLoc[] {
  const members: MemberLoc[] = [];
  let i = lineStartAt(text, start);
  let first = true;
  let current: MemberLoc | undefined;
  let seqCol = -1;
  for (let n = 0; n < 5000 && i <= text.length; n++) {
    const end = lineEndAt(text, i);
    const l = yamlLine(text, i, end);
    const next = end + (text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? 2 : 1);
    if (l.kind === "doc") break;
    if (l.kind === "content") {
      const toks = first ? l.toks.filter((t) => t.offset >= start) : l.toks;
      const head = toks[0];
      if (!head) {
        if (current) current.valueEnd = end; // a continuation line of a multi-line scalar
      } else if (head.col < column) {
        break;
      } else if (head.col === column && !head.item) {
        current = {
          key: head.key ?? "", keyStart: head.offset, keyEnd: head.keyEnd ?? head.offset, valueStart: head.valueStart,
          valueEnd: Math.max(head.valueStart, plainEnd(text, head.valueStart, end)), column: head.col,
        };
        seqCol = -1;
        const v = head.valueStart;
        if (v >= end || text.charCodeAt(v) === 35) current.empty = true;
        else if (text.charCodeAt(v) === 91) {
          const fa = flowArray(text, v, end);
          if (fa) { current.elements = fa.elements; current.open = v; current.close = fa.close; }
        } else current.scalar = scalarOf(text, head, end);
        members.push(current);
      } else if (current && head.item && (current.empty || current.blockSequence) && (seqCol < 0 || head.col === seqCol)) {
        // an item of a block sequence under the last key (indented, or indentless at the key's column)
        seqCol = head.col;
        current.empty = false;
        current.blockSequence = true;
        (current.elements ??= []).push({ start: head.offset, end, value: toks.length === 1 ? scalarOf(text, head, end) : undefined });
        current.valueEnd = end;
      } else if (head.col === column) {
        break; // a `-` at the mapping's column that is not a sequence under a key: the mapping ended
      } else if (current) {
        current.empty = false;
        current.valueEnd = end;
      }
    }
    first = false;
    if (end >= text.length) break;
    i = next;
  }
  return members;
}

/** Elements of a one-line flow array starting at `open`. */
function flowArray(text: string, open: number, end: number): { elements: Array<{ start: number; end: number; value?: string }>; close: number } | undefined {
  const lx = new FlowLexer(text, open, true, end);
  if (lx.next() !== Tok.LBracket) return undefined;
  const elements: Array<{ start: number; end: number; value?: string }> = [];
  let depth = 1;
  for (;;) {
    const k = lx.next();
    if (k === Tok.EOF) return undefined;
    if (k === Tok.LBrace || k === Tok.LBracket) depth++;
    else if (k === Tok.RBrace || k === Tok.RBracket) {
      depth--;
      if (depth === 0) return { elements, close: lx.start };
    } else if (depth === 1 && (k === Tok.Str || k === Tok.Word)) elements.push({ start: lx.start, end: lx.end, value: lx.value() });
  }
}

// ---------------------------------------------------------------------------------------------
// Entry point

/** Length of the common prefix of two texts, up to `limit` (compares 64 KB slices, then characters). */
export function commonPrefix(a: string, b: string, limit: number): number {
  const n = Math.min(a.length, b.length, limit);
  const chunk = 65536;
  let i = 0;
  while (i + chunk <= n && a.slice(i, i + chunk) === b.slice(i, i + chunk)) i += chunk;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Is the YAML document written in flow style (a JSON-like `{...}` at the top)? */
function yamlIsFlow(text: string): boolean {
  const m = /^(?:\s|#[^\n]*\n|---[ \t]*\n)*/.exec(text);
  const c = text.charCodeAt(m ? m[0].length : 0);
  return c === 123 || c === 91;
}

/**
 * Where a flow scan may start instead of the document start: a container of an earlier version of
 * the text (`start`, its path) that begins in the part both versions share, so it is at the same
 * offset now. Its enclosing containers are listed too (outermost first), for the frames.
 */
export interface SyncPoint {
  start: number;
  path: PathSegment[];
  ancestors: Array<{ start: number; path: PathSegment[]; kind: "object" | "array" }>;
}

/** What is at `offset` in the text; undefined where nothing can be completed (inside a block scalar header, …). */
export function cursorAt(text: string, format: Format, offset: number, sync?: SyncPoint): CursorInfo | undefined {
  const at = Math.max(0, Math.min(offset, text.length));
  if (format === "yaml" && !yamlIsFlow(text)) return yamlCursor(text, at);
  let start = 0;
  if (format === "yaml") {
    const m = /^(?:\s|#[^\n]*\n|---[ \t]*\n)*/.exec(text);
    start = m ? m[0].length : 0;
  }
  let r: FlowResult | undefined;
  if (sync && sync.start <= at && format === "json") {
    const part = scanFlow(text, sync.start, at, false, text.length);
    if (part && part.frames.length > 0) {
      const prefix = sync.path;
      r = {
        ...part,
        path: [...prefix, ...part.path],
        frames: [
          ...sync.ancestors.map((a) => ({ kind: a.kind, path: a.path, flow: true, start: a.start, members: new Map<string, string | undefined>(), items: [] })),
          ...part.frames.map((f) => ({ ...f, path: [...prefix, ...f.path] })),
        ],
      };
    }
  }
  r ??= scanFlow(text, start, at, format === "yaml", text.length);
  if (!r) return undefined;
  const lineStart = lineStartAt(text, at);
  let column = at - lineStart;
  const lineText = text.slice(lineStart, at);
  const indent = /^[ \t]*/.exec(lineText)![0].length;
  // New lines of an insertion follow the line's indentation unless the cursor sits in it.
  if (lineText.trim() !== "") column = r.token ? r.token.start - lineStart : indent;
  if (r.kind === "value" && !r.token) column = lineText.trim() === "" ? at - lineStart : indent;
  return {
    format, text, offset: at, lineStart, kind: r.kind, path: r.path, token: r.token, frames: r.frames, flow: true, column,
    commaBefore: r.commaBefore, commaAfter: r.commaAfter, hasColon: r.hasColon,
  };
}
