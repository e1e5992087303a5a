// Where each character of a string scalar is written in the source: JSON strings (escapes), and YAML
// plain, single-quoted, double-quoted (escapes, line folding) and block scalars (literal and folded,
// chomping). Used by every feature that points into strings: diagnostics on a reference, quick fixes that
// rewrite one, semantic tokens, selection ranges (`spanInString` below is the one way to do it).
// Decoding here is only a map: callers that know the parsed value check `value` against it and do not
// use a map that disagrees.
import type { Format, LwirDocument } from "../document/types";
import { valueAt } from "../lwir/path";
import type { PathSegment } from "../lwir/types";

export interface StringSource {
  /** The decoded value, as this module reads the source. */
  value: string;
  /** Source offset of the first code unit written for each value character. */
  starts: number[];
  /** Source offset just after the code units written for each value character. */
  ends: number[];
  /** The text between the quotes (quoted scalars), after a block scalar's header, or the whole plain scalar. */
  contentStart: number;
  contentEnd: number;
}

const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;

/** The map of the scalar written at text[start, end), or undefined when it is not a string scalar this module reads. */
export function stringSource(text: string, start: number, end: number, format: Format): StringSource | undefined {
  if (end <= start && format === "json") return undefined;
  const first = text.charCodeAt(start);
  if (format === "json") return first === 0x22 ? jsonString(text, start, end) : undefined;
  if (first === 0x22) return yamlQuoted(text, start, end, true);
  if (first === 0x27) return yamlQuoted(text, start, end, false);
  if (first === 0x7c || first === 0x3e) return yamlBlock(text, start, end);
  if (first === 0x5b || first === 0x7b || first === 0x2a) return undefined; // flow collection, alias
  return yamlFolded(text, start, end, start, end, "plain");
}

/** The source span [from, to) of value characters [a, b) (b > a), or undefined if it crosses a line break. */
export function sourceSpan(source: StringSource, a: number, b: number, text?: string): [number, number] | undefined {
  if (!(a >= 0 && b > a && b <= source.value.length)) return undefined;
  const from = source.starts[a];
  const to = source.ends[b - 1];
  if (text !== undefined) {
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (c === LF || c === CR) return undefined;
    }
  }
  return [from, to];
}

/** The cursor position in the value for a source offset: how many characters start before it. */
export function valueIndexAt(source: StringSource, offset: number): number {
  let lo = 0;
  let hi = source.starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (source.starts[mid] < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What spanInString reads of a document. */
export type LocatedText = Pick<LwirDocument, "format" | "text" | "value" | "locate">;

/**
 * Source offsets of value[a, b) of the string at `segments`: from the scalar's character map when it
 * reads back the same value, else by matching the same spelling in the source; never across lines.
 */
export function spanInString(doc: LocatedText, segments: readonly PathSegment[], value: string, a: number, b: number): [number, number] | undefined {
  const loc = doc.locate(segments);
  if (!loc || valueAt(doc.value, segments) !== value || throughAlias(doc, segments)) return undefined;
  const raw = doc.text.slice(loc.valueStart, loc.valueEnd);
  // the common case: written as is, in quotes or not (no escapes, no line folding)
  const quoted = raw.length === value.length + 2 && (raw[0] === '"' || raw[0] === "'") ? 1 : 0;
  if ((quoted || raw.length === value.length) && raw.startsWith(value, quoted) && !/[\r\n]/.test(value)) {
    return [loc.valueStart + quoted + a, loc.valueStart + quoted + b];
  }
  const source = stringSource(doc.text, loc.valueStart, loc.valueEnd, doc.format);
  if (source && source.value === value) return sourceSpan(source, a, b, doc.text);
  const at = sourceOffsetOf(value, raw, a, b);
  if (at === undefined) return undefined;
  const start = loc.valueStart + at;
  const end = start + (b - a);
  return /[\r\n]/.test(doc.text.slice(start, end)) ? undefined : [start, end];
}

/** A YAML path that passes through an alias points into the anchored node's text: not this occurrence's. */
function throughAlias(doc: LocatedText, segments: readonly PathSegment[]): boolean {
  if (!mayHaveAliases(doc)) return false;
  for (let k = 1; k <= segments.length; k++) {
    const loc = doc.locate(segments.slice(0, k));
    if (loc && doc.text.charCodeAt(loc.valueStart) === 0x2a /* * */) return true;
  }
  return false;
}

const aliasGate = new WeakMap<LocatedText, boolean>();

/** A YAML document with something that looks like an alias (`*name` after a space, `[`, `{` or `,`). */
function mayHaveAliases(doc: LocatedText): boolean {
  if (doc.format !== "yaml") return false;
  let found = aliasGate.get(doc);
  if (found === undefined) aliasGate.set(doc, (found = /(?:^|[\s[{,])\*[^\s,[\]{}]/.test(doc.text)));
  return found;
}

/**
 * Where `value[start, end)` sits inside `source` (the scalar as written, quotes and escapes included).
 * The k-th occurrence of that text in the value is taken to be the k-th in the source, which holds
 * whenever the text has the same spelling in both (identifiers and dots never need escaping); when
 * the counts differ the answer is unknown.
 */
export function sourceOffsetOf(value: string, source: string, start: number, end: number): number | undefined {
  const needle = value.slice(start, end);
  if (needle.length === 0) return undefined;
  const inValue = occurrences(value, needle);
  const inSource = occurrences(source, needle);
  if (inValue.length !== inSource.length) return undefined;
  const k = inValue.indexOf(start);
  return k === -1 ? undefined : inSource[k];
}

function occurrences(haystack: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

// ---- JSON ---------------------------------------------------------------------------------------

const JSON_SIMPLE: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

function jsonString(text: string, start: number, end: number): StringSource {
  const contentStart = start + 1;
  const contentEnd = end > contentStart && text.charCodeAt(end - 1) === 0x22 ? end - 1 : end;
  const out = new Builder();
  let i = contentStart;
  while (i < contentEnd) {
    const c = text[i];
    if (c === "\\" && i + 1 < contentEnd) {
      const d = text[i + 1];
      if (d === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
        out.push(String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)), i, i + 6);
        i += 6;
      } else {
        out.push(JSON_SIMPLE[d] ?? d, i, i + 2);
        i += 2;
      }
      continue;
    }
    out.push(c, i, i + 1);
    i++;
  }
  return out.done(contentStart, contentEnd);
}

// ---- YAML flow scalars ---------------------------------------------------------------------------

const YAML_SIMPLE: Record<string, string> = {
  "0": "\0", a: "\x07", b: "\b", t: "\t", "\t": "\t", n: "\n", v: "\v", f: "\f", r: "\r", e: "\x1b", " ": " ",
  '"': '"', "/": "/", "\\": "\\", N: "\x85", _: "\xa0", L: "\u2028", P: "\u2029",
};
const HEX_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };

function yamlQuoted(text: string, start: number, end: number, double: boolean): StringSource | undefined {
  const quote = double ? 0x22 : 0x27;
  if (end - start < 2 || text.charCodeAt(end - 1) !== quote) return undefined;
  return yamlFolded(text, start + 1, end - 1, start + 1, end - 1, double ? "double" : "single");
}

function isBreak(c: number): boolean {
  return c === LF || c === CR;
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

/** Offset after the line break at `i` (\r\n counts as one). */
function afterBreak(text: string, i: number): number {
  return text.charCodeAt(i) === CR && text.charCodeAt(i + 1) === LF ? i + 2 : i + 1;
}

/**
 * Plain and quoted scalars: escapes (double quotes), `''` (single quotes), and line folding: white space
 * around a line break is dropped, a single break becomes a space, each empty line a line feed.
 */
function yamlFolded(text: string, from: number, to: number, contentStart: number, contentEnd: number, style: "plain" | "single" | "double"): StringSource | undefined {
  const out = new Builder();
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (isBlank(c) || isBreak(c)) {
      // a run of blanks: kept unless a line break follows it
      let j = i;
      while (j < to && isBlank(text.charCodeAt(j))) j++;
      if (j >= to || !isBreak(text.charCodeAt(j))) {
        for (let k = i; k < j; k++) out.push(text[k], k, k + 1);
        i = j;
        continue;
      }
      i = fold(text, j, to, out);
      continue;
    }
    if (style === "double" && c === 0x5c /* \ */ && i + 1 < to) {
      const d = text[i + 1];
      if (isBreak(d.charCodeAt(0))) {
        // escaped line break: nothing, and the next line's leading blanks go too
        let j = afterBreak(text, i + 1);
        while (j < to && isBlank(text.charCodeAt(j))) j++;
        i = j;
        continue;
      }
      const hex = HEX_LENGTH[d];
      if (hex !== undefined) {
        const digits = text.slice(i + 2, i + 2 + hex);
        if (digits.length !== hex || !/^[0-9a-fA-F]+$/.test(digits)) return undefined;
        const code = parseInt(digits, 16);
        if (code > 0x10ffff) return undefined;
        out.push(String.fromCodePoint(code), i, i + 2 + hex);
        i += 2 + hex;
        continue;
      }
      const simple = YAML_SIMPLE[d];
      if (simple === undefined) return undefined;
      out.push(simple, i, i + 2);
      i += 2;
      continue;
    }
    if (style === "single" && c === 0x27 && text.charCodeAt(i + 1) === 0x27) {
      out.push("'", i, i + 2);
      i += 2;
      continue;
    }
    out.push(text[i], i, i + 1);
    i++;
  }
  return out.done(contentStart, contentEnd);
}

/** Folds the line break at `i`: returns where the next line's content starts. */
function fold(text: string, i: number, to: number, out: Builder): number {
  const breakAt = i;
  let j = afterBreak(text, i);
  let empty = 0;
  const emptyAt: number[] = [];
  for (;;) {
    let k = j;
    while (k < to && isBlank(text.charCodeAt(k))) k++;
    if (k < to && isBreak(text.charCodeAt(k))) {
      emptyAt.push(k);
      empty++;
      j = afterBreak(text, k);
      continue;
    }
    j = k;
    break;
  }
  if (empty === 0) out.push(" ", breakAt, breakAt + 1);
  else for (const at of emptyAt) out.push("\n", at, at + 1);
  return j;
}

// ---- YAML block scalars ------------------------------------------------------------------------------

const HEADER = /^([|>])([1-9]?)([+-]?)([1-9]?)[ \t]*(?:#[^\r\n]*)?$/;

function yamlBlock(text: string, start: number, end: number): StringSource | undefined {
  let headerEnd = start;
  while (headerEnd < end && !isBreak(text.charCodeAt(headerEnd))) headerEnd++;
  const header = HEADER.exec(text.slice(start, headerEnd));
  if (!header) return undefined;
  const folded = header[1] === ">";
  const chomp = header[3];
  // the lines after the header, as [start, end) without their break
  const lines: Array<[number, number]> = [];
  for (let at = headerEnd < end ? afterBreak(text, headerEnd) : end; at < end;) {
    let e = at;
    while (e < end && !isBreak(text.charCodeAt(e))) e++;
    lines.push([at, e]);
    at = e < end ? afterBreak(text, e) : end;
  }
  const spaces = ([s, e]: [number, number]) => {
    let k = s;
    while (k < e && text.charCodeAt(k) === SPACE) k++;
    return k - s;
  };
  // Content indentation: an explicit indicator counts from the parent node's indentation; otherwise the
  // first line with a non-space character sets it (only spaces indent; a tab is content).
  const explicit = Number(header[2] || header[4] || 0);
  const first = lines.find((l) => spaces(l) < l[1] - l[0]);
  const indent = explicit > 0 ? parentIndent(text, start) + explicit
    : first ? spaces(first) : lines.reduce((m, l) => Math.max(m, spaces(l)), 0);
  // a line of at most `indent` spaces is empty; any other line holds content
  const content = lines.map((l) => !(l[1] - l[0] <= indent && spaces(l) === l[1] - l[0]));
  const out = new Builder();
  /** A line feed for the break that ends line k, if the text has one there. */
  const lineFeed = (k: number, as = "\n") => {
    const b = lines[k][1];
    if (b < text.length && isBreak(text.charCodeAt(b))) out.push(as, b, b + 1);
  };
  let previous = -1;
  for (let k = 0; k < lines.length; k++) {
    if (!content[k]) continue;
    const [s, e] = lines[k];
    const body = s + indent;
    if (previous < 0) {
      for (let m = 0; m < k; m++) lineFeed(m);
    } else {
      const joinable = folded && !isBlank(text.charCodeAt(lines[previous][0] + indent)) && !isBlank(text.charCodeAt(body));
      if (!joinable) lineFeed(previous);
      else if (k === previous + 1) lineFeed(previous, " ");
      for (let m = previous + 1; m < k; m++) lineFeed(m);
    }
    for (let p = body; p < e; p++) out.push(text[p], p, p + 1);
    previous = k;
  }
  if (chomp !== "-" && previous >= 0) lineFeed(previous);
  if (chomp === "+") for (let m = previous + 1; m < lines.length; m++) lineFeed(m);
  return out.done(lines.length > 0 ? lines[0][0] : end, end);
}

/**
 * The indentation of the collection that holds a block scalar whose header is at `header`: the column of
 * the key before it on its line (a mapping value), else of the `-` before it (a sequence item).
 */
function parentIndent(text: string, header: number): number {
  let lineStart = header;
  while (lineStart > 0 && !isBreak(text.charCodeAt(lineStart - 1))) lineStart--;
  let i = lineStart;
  let dash = 0;
  for (;;) {
    while (i < header && text.charCodeAt(i) === SPACE) i++;
    if (i < header && text.charCodeAt(i) === 0x2d && isBlank(text.charCodeAt(i + 1))) {
      dash = i - lineStart;
      i++;
      continue;
    }
    break;
  }
  return i < header ? i - lineStart : dash;
}

// ---- building ------------------------------------------------------------------------------------

class Builder {
  private parts: string[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  /** Appends `s` (one character, or a surrogate pair) written at source [from, to). */
  push(s: string, from: number, to: number): void {
    this.parts.push(s);
    for (let k = 0; k < s.length; k++) {
      this.starts.push(from);
      this.ends.push(to);
    }
  }

  done(contentStart: number, contentEnd: number): StringSource {
    return { value: this.parts.join(""), starts: this.starts, ends: this.ends, contentStart, contentEnd };
  }
}
