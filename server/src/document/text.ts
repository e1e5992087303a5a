// Shared by both formats: line index, offset ⇄ position, and the rules that turn a located node into the
// range a finding is shown at. Kept apart from document.ts so json.ts/yaml.ts need not import it (no cycle).
import type { PathSegment } from "../lwir/types";
import type { Format, LwirDocument, NodeLocation, ParseProblem, PathAt, Position, Range } from "./types";

const LF = 10;
const CR = 13;

/** Offsets where lines start; \n, \r\n and a lone \r each end a line, as LSP clients count them. */
export function computeLineStarts(text: string): number[] {
  const starts = [0];
  if (text.indexOf("\r") < 0) {
    // fast path for the common case: indexOf is much faster than a per-character loop
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    return starts;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === CR) {
      if (text.charCodeAt(i + 1) === LF) i++;
      starts.push(i + 1);
    } else if (c === LF) starts.push(i + 1);
  }
  return starts;
}

export function positionIn(starts: readonly number[], textLength: number, offset: number): Position {
  const at = Math.max(0, Math.min(Number.isFinite(offset) ? Math.floor(offset) : 0, textLength));
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, character: at - starts[lo] };
}

export function offsetIn(starts: readonly number[], text: string, position: Position): number {
  const line = Math.floor(position.line);
  if (!(line >= 0)) return 0;
  if (line >= starts.length) return text.length;
  const lineStart = starts[line];
  let lineEnd = line + 1 < starts.length ? starts[line + 1] : text.length;
  // never land inside the line break itself
  while (lineEnd > lineStart && (text.charCodeAt(lineEnd - 1) === LF || text.charCodeAt(lineEnd - 1) === CR)) lineEnd--;
  const character = Math.max(0, Math.floor(position.character) || 0);
  return Math.min(lineStart + character, lineEnd);
}

/** The first line break at or after `from`, or `limit` if none comes first. */
export function endOfLine(text: string, from: number, limit: number): number {
  for (let i = from; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || c === CR) return i;
  }
  return limit;
}

function trimEnd(text: string, start: number, end: number): number {
  while (end > start + 1) {
    const c = text.charCodeAt(end - 1);
    if (c !== 32 && c !== 9) break;
    end--;
  }
  return end;
}

/** A node found while walking a path. */
export interface TrailNode extends NodeLocation {
  /** An object/array (YAML map/sequence): shown by its key, or by its first line. */
  container: boolean;
}

const BLOCK_HEADER = /^[|>][0-9+-]*[ \t]*(#.*)?$/;

/**
 * The span a finding on this node is shown at (findings catalog paths; the editor's squiggle):
 * a collection with a key → the key; a collection without one (array element, root) → its first line;
 * a scalar → the value (a multi-line YAML scalar: its first line, a block scalar header through its first
 * content line); an empty value → its key.
 */
export function displaySpan(text: string, node: TrailNode): [number, number] {
  const { keyStart, keyEnd, valueStart: vs, valueEnd: ve } = node;
  const hasKey = keyStart !== undefined && keyEnd !== undefined && keyEnd > keyStart;
  if (node.container) {
    if (hasKey) return [keyStart, keyEnd];
    if (ve <= vs) return [vs, vs];
    return [vs, Math.max(vs + 1, trimEnd(text, vs, endOfLine(text, vs, ve)))];
  }
  if (ve > vs) {
    const lineEnd = endOfLine(text, vs, ve);
    if (lineEnd >= ve) return [vs, ve];
    if (BLOCK_HEADER.test(text.slice(vs, lineEnd))) {
      // extend to the end of the first content line that is not blank
      let at = lineEnd;
      while (at < ve) {
        while (at < ve && (text.charCodeAt(at) === LF || text.charCodeAt(at) === CR)) at++;
        const end = endOfLine(text, at, ve);
        if (text.slice(at, end).trim() !== "") return [vs, trimEnd(text, vs, end)];
        at = end;
      }
    }
    return [vs, Math.max(vs + 1, trimEnd(text, vs, lineEnd))];
  }
  if (hasKey) return [keyStart, keyEnd];
  return [vs, ve];
}

/** What both formats share; each supplies how a path is walked and what is under a cursor. */
export abstract class BaseDocument implements LwirDocument {
  abstract readonly format: Format;
  abstract readonly value: unknown;
  abstract readonly parseErrors: ParseProblem[];
  abstract readonly parseWarnings: ParseProblem[];
  private starts: number[] | undefined;

  constructor(readonly text: string) {}

  get lineStarts(): readonly number[] {
    return (this.starts ??= computeLineStarts(this.text));
  }

  positionAt(offset: number): Position {
    return positionIn(this.lineStarts, this.text.length, offset);
  }

  offsetAt(position: Position): number {
    return offsetIn(this.lineStarts, this.text, position);
  }

  rangeAt(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(Math.max(start, end)) };
  }

  /** The nodes along the path from the root; stops before the first segment that names nothing. */
  protected abstract trail(segments: readonly PathSegment[]): TrailNode[];

  abstract pathAt(offset: number): PathAt | undefined;

  locate(segments: readonly PathSegment[]): NodeLocation | undefined {
    const trail = this.trail(segments);
    if (trail.length !== segments.length + 1) return undefined;
    const { keyStart, keyEnd, valueStart, valueEnd } = trail[trail.length - 1];
    return keyStart === undefined ? { valueStart, valueEnd } : { keyStart, keyEnd, valueStart, valueEnd };
  }

  /** The node the path names, or where it is absent the nearest ancestor that exists, shown by displaySpan. */
  findingRange(segments: readonly PathSegment[]): Range {
    const trail = this.trail(segments);
    if (trail.length === 0) return this.rangeAt(0, 0);
    const [start, end] = displaySpan(this.text, trail[trail.length - 1]);
    return this.rangeAt(start, end);
  }

  /** A parse problem at [start, end), widened to one character where that is possible. */
  protected problem(message: string, start: number, end: number, code?: string): ParseProblem {
    const len = this.text.length;
    let s = Math.max(0, Math.min(start, len));
    let e = Math.max(s, Math.min(end, len));
    if (e === s) {
      const c = this.text.charCodeAt(s);
      if (s < len && c !== LF && c !== CR) e = s + 1;
      else {
        // at a line end or the end of the text ("… expected"): mark the last character written before it
        let p = s - 1;
        while (p >= 0 && /\s/.test(this.text[p])) p--;
        if (p >= 0) [s, e] = [p, p + 1];
      }
    }
    // Every message is a sentence, the parsers' own included ("Map keys must be unique").
    const p: ParseProblem = { message: /[.?!]$/.test(message) ? message : `${message}.`, range: this.rangeAt(s, e) };
    if (code !== undefined) p.code = code;
    return p;
  }
}

/** The end of text[start, end) without trailing white space and line breaks (YAML node ranges end after the line break). */
export function endWithoutWhiteSpace(text: string, start: number, end: number): number {
  while (end > start) {
    const c = text.charCodeAt(end - 1);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
    end--;
  }
  return end;
}
