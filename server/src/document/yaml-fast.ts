// A fast reader for the block-style YAML that LWIR documents are written in (by hand or by a YAML writer:
// long text folded over lines, `>-` blocks), with the same value and the same node ranges as the `yaml`
// package gives (the composed Document's `range` triples), or nothing: at the first construct it does not
// handle exactly (anchors, aliases, tags, flow mappings, escaped line breaks, kept (`+`) or indented block
// scalars, tabs, CR, document markers, duplicate keys, any syntax error…) it gives up and the caller parses
// with the `yaml` package. The `yaml` package's parser runs at 2–3 MB/s; this reads the common subset one
// line at a time at many times that, which is what makes validating a 1,000-step YAML workflow cheaper than
// parsing it with `yaml` once.
import { Document, isScalar } from "yaml";
import type { PathSegment } from "../lwir/types";
import { BaseDocument, type TrailNode } from "./text";
import type { ParseProblem, PathAt } from "./types";

/**
 * The member ranges of every block of one document, in one store: five int32 a member (key start, key
 * end, and the value's `yaml` range [vs, ve, ve2]; keys 0 in sequences), its key ("" in sequences) and
 * its nested block. A 5,000-step document has some 300,000 members: six small arrays a block cost 80 MB
 * of heap there, this a fifth of that, and it is what each validation of a large YAML file allocates.
 */
export class MemberStore {
  data = new Int32Array(4096);
  readonly keys: string[] = [];
  readonly kids: (FastBlock | undefined)[] = [];
  /** Members stored. */
  size = 0;

  /** Appends a finished block's members (from its builder) and returns the index of the first. */
  append(b: MemberBuilder): number {
    const first = this.size;
    const n = b.kids.length;
    if ((first + n) * 5 > this.data.length) {
      const grown = new Int32Array(Math.max(this.data.length * 2, (first + n) * 5));
      grown.set(this.data.subarray(0, first * 5));
      this.data = grown;
    }
    const data = this.data;
    const nums = b.nums;
    const base = first * 5;
    for (let i = 0; i < n * 5; i++) data[base + i] = nums[i];
    const keys = b.keys;
    const kids = b.kids;
    // (a sequence's builder has no keys: no reads past an array's end, which V8 makes slow)
    if (keys.length === n) for (let i = 0; i < n; i++) this.keys.push(keys[i]);
    else for (let i = 0; i < n; i++) this.keys.push("");
    for (let i = 0; i < n; i++) this.kids.push(kids[i]);
    this.size = first + n;
    return first;
  }
}

/** A block's members while it is read (nested blocks are read in between); reused from block to block. */
export class MemberBuilder {
  readonly nums: number[] = [];
  readonly keys: string[] = [];
  readonly kids: (FastBlock | undefined)[] = [];

  reset(): this {
    this.nums.length = 0;
    this.keys.length = 0;
    this.kids.length = 0;
    return this;
  }

  /** A map entry's key (its value follows with `value`). */
  key(key: string, ks: number, ke: number): void {
    this.keys.push(key);
    this.nums.push(ks, ke);
  }

  /** A member's value range (after its key, in a map). */
  value(vs: number, ve: number, ve2: number, kid: FastBlock | undefined, inMap: boolean): void {
    if (!inMap) this.nums.push(0, 0);
    this.nums.push(vs, ve, ve2);
    this.kids.push(kid);
  }

  lastEnd(): number {
    return this.nums[this.nums.length - 1];
  }
}

/** A block map or sequence: member ranges as the `yaml` package reports them, kept in the document's store. */
export class FastBlock {
  /** The `yaml` range of the block itself. */
  start = 0;
  end = 0;
  /** Its members: `count` from index `first` in the store. */
  first = 0;
  count = 0;
  private index: Map<string, number> | undefined;

  constructor(readonly isMap: boolean, private readonly store: MemberStore) {}

  ks(i: number): number { return this.store.data[(this.first + i) * 5]; }
  ke(i: number): number { return this.store.data[(this.first + i) * 5 + 1]; }
  vs(i: number): number { return this.store.data[(this.first + i) * 5 + 2]; }
  ve(i: number): number { return this.store.data[(this.first + i) * 5 + 3]; }
  ve2(i: number): number { return this.store.data[(this.first + i) * 5 + 4]; }
  kid(i: number): FastBlock | undefined { return this.store.kids[this.first + i]; }
  key(i: number): string { return this.store.keys[this.first + i]; }

  indexOf(key: string): number {
    if (!this.index) {
      this.index = new Map();
      for (let i = 0; i < this.count; i++) this.index.set(this.key(i), i);
    }
    return this.index.get(key) ?? -1;
  }
}

export interface FastYaml {
  value: unknown;
  root: FastBlock;
}

/** Thrown (and caught in parseFastYaml) at anything outside the subset. */
class Unsupported {}
const UNSUPPORTED = new Unsupported();
function bail(): never {
  throw UNSUPPORTED;
}

// The core schema's tags in the order the `yaml` package tries them on a plain scalar, taken from the
// package itself so that a number, boolean or null resolves exactly as YAML.parse resolves it.
interface PlainTag {
  test: RegExp;
  resolve: (s: string, onError: (m: string) => void, options: object) => unknown;
}
let plainTags: PlainTag[] | undefined;
function tags(): PlainTag[] {
  if (!plainTags) {
    const schema = new Document().schema as unknown as { tags: Array<{ default?: boolean; test?: RegExp; resolve?: PlainTag["resolve"] }> };
    plainTags = schema.tags.filter((t) => t.default && t.test && t.resolve).map((t) => ({ test: t.test as RegExp, resolve: t.resolve as PlainTag["resolve"] }));
  }
  return plainTags;
}
const TAG_OPTIONS = { intAsBigInt: false };
const noError = () => bail();

/** A plain scalar's value: the first core tag whose test matches resolves it, else the string itself. */
function plainValue(s: string): unknown {
  const c = s.charCodeAt(0);
  // only these can start a non-string core scalar: digits, sign, '.', '~', n/N, t/T, f/F, '0'
  if (!(c <= 0x39 || c === 0x7e || c === 0x6e || c === 0x4e || c === 0x74 || c === 0x54 || c === 0x66 || c === 0x46 || s.length === 0)) return s;
  for (const t of tags()) {
    if (!t.test.test(s)) continue;
    // some tags resolve to a Scalar node (null, booleans): the value is what toJS gives
    const v = t.resolve(s, noError, TAG_OPTIONS);
    return isScalar(v) ? v.value : v;
  }
  return s;
}

const SP = 0x20;
const LF = 0x0a;
const HASH = 0x23;
const COLON = 0x3a;
const DASH = 0x2d;
const DQ = 0x22;
const SQ = 0x27;

/** Characters a plain scalar in block context may not start with (or only in forms not handled here). */
function badPlainStart(c: number): boolean {
  // - ? : , [ ] { } # & * ! | > ' " % @ `
  return c === DASH || c === 0x3f || c === COLON || c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === HASH ||
    c === 0x26 || c === 0x2a || c === 0x21 || c === 0x7c || c === 0x3e || c === SQ || c === DQ || c === 0x25 || c === 0x40 || c === 0x60;
}

class Reader {
  private depth = 0;
  readonly store = new MemberStore();
  private readonly free: MemberBuilder[] = [];
  constructor(private readonly t: string) {}

  private builder(): MemberBuilder {
    return (this.free.pop() ?? new MemberBuilder()).reset();
  }

  /** The block's members go to the store; its builder goes back to the pool. */
  private seal(block: FastBlock, b: MemberBuilder): void {
    block.end = b.lastEnd();
    block.count = b.kids.length;
    block.first = this.store.append(b);
    this.free.push(b);
  }

  /** End of the line starting at or containing `p` (offset of its \n, or the text length). */
  eol(p: number): number {
    const i = this.t.indexOf("\n", p);
    return i < 0 ? this.t.length : i;
  }

  /** After the line break ending the line that contains `p`. */
  nextLine(p: number): number {
    const i = this.t.indexOf("\n", p);
    return i < 0 ? this.t.length : i + 1;
  }

  /** From a line start: the start of the next line holding content (not blank, not only a comment). */
  contentLine(p: number): number {
    const t = this.t;
    const n = t.length;
    while (p < n) {
      let q = p;
      while (t.charCodeAt(q) === SP) q++;
      const c = t.charCodeAt(q);
      if (q < n && c !== LF && c !== HASH) return p;
      p = this.nextLine(q);
    }
    return n;
  }

  indentAt(lineStart: number): number {
    let q = lineStart;
    while (this.t.charCodeAt(q) === SP) q++;
    return q - lineStart;
  }

  /**
   * After a scalar ending at `e` on its line: spaces, an optional comment, the line break. Returns the
   * offset after the line break (the `yaml` range's third number).
   */
  tail(e: number): number {
    const t = this.t;
    let q = e;
    while (t.charCodeAt(q) === SP) q++;
    if (q < t.length && t.charCodeAt(q) !== LF) {
      if (t.charCodeAt(q) !== HASH || q === e) bail(); // something after the value, or `#` glued to it
    }
    return this.nextLine(q);
  }

  /**
   * A block collection at `indent` ends before `next`: `yaml` stretches its range over the comment lines
   * after its last entry that are indented at least as far (but not at column 0), a rule not copied here.
   */
  private noTrailingComment(next: number, indent: number): void {
    for (let q = this.after; q < next; q = this.nextLine(q)) {
      const ind = this.indentAt(q);
      if (ind > 0 && ind >= indent && this.t.charCodeAt(q + ind) === HASH) bail();
    }
  }

  /** The whole document: a block map or sequence at indent 0, comments around it. */
  document(): FastYaml {
    const t = this.t;
    const first = this.contentLine(0);
    if (first >= t.length || this.indentAt(first) !== 0) bail();
    const root = { block: undefined as FastBlock | undefined };
    const value = this.block(first, 0, root, true);
    const rest = this.contentLine(this.after);
    if (rest < t.length) bail();
    return { value, root: root.block as FastBlock };
  }

  /** Where the last collection read ended (start of the line after it). */
  private after = 0;

  /** A block collection whose first line starts at `lineStart` with its first item at column `indent`. */
  private block(lineStart: number, indent: number, out: { block: FastBlock | undefined }, topLevel = false): unknown {
    if (++this.depth > 200) bail();
    const p = lineStart + indent;
    const c = this.t.charCodeAt(p);
    const d = this.t.charCodeAt(p + 1);
    const isSeq = c === DASH && (d === SP || d === LF || p + 1 >= this.t.length);
    void topLevel;
    const v = isSeq ? this.seq(p, indent, out) : this.map(p, indent, out);
    this.depth--;
    return v;
  }

  /** A block map whose first key starts at `p` (column `indent`); later keys start lines at that column. */
  private map(p: number, indent: number, out: { block: FastBlock | undefined }): Record<string, unknown> {
    const t = this.t;
    const n = t.length;
    const block = new FastBlock(true, this.store);
    out.block = block;
    block.start = p;
    const members = this.builder();
    const obj: Record<string, unknown> = {};
    const keys = members.keys;
    let seen: Set<string> | undefined;
    for (;;) {
      // the key
      let key: string;
      let ks = p;
      let ke: number;
      let colon: number;
      const c = t.charCodeAt(p);
      if (c === DQ) {
        const close = t.indexOf('"', p + 1);
        const lineEnd = this.eol(p);
        if (close < 0 || close > lineEnd) bail();
        key = t.slice(p + 1, close);
        if (key.indexOf("\\") >= 0) bail();
        ke = close + 1;
        colon = ke;
      } else {
        if (badPlainStart(c) || c === SP || c === LF || p >= n) bail();
        // the key runs to the first ": " or ":\n" on the line
        let q = p;
        for (;;) {
          const k = t.indexOf(":", q);
          const lineEnd = this.eol(q);
          if (k < 0 || k > lineEnd) bail();
          const after = t.charCodeAt(k + 1);
          if (after === SP || after === LF || k + 1 >= n) {
            colon = k;
            break;
          }
          q = k + 1;
        }
        ke = colon;
        key = t.slice(p, ke);
        // a key the core schema reads as something else than a string, a comment inside, trailing spaces
        if (key.indexOf(" #") >= 0 || key.charCodeAt(key.length - 1) === SP || plainValue(key) !== key) bail();
      }
      if (t.charCodeAt(colon) !== COLON) bail();
      if (key === "__proto__") bail();
      if (keys.length > 0) {
        if (keys.length < 16) {
          if (keys.indexOf(key) >= 0) bail();
        } else {
          if (!seen) seen = new Set(keys);
          if (seen.has(key)) bail();
        }
        seen?.add(key);
      }
      members.key(key, ks, ke);
      // the value
      const v = this.value(colon + 1, indent, members, true);
      obj[key] = v;
      // the next key, or the end of the map
      const next = this.contentLine(this.after);
      const ind = next < n ? this.indentAt(next) : -1;
      if (ind < indent) {
        this.noTrailingComment(next, indent);
        break;
      }
      if (ind > indent) bail();
      p = next + ind;
      ks = p;
      if (t.charCodeAt(p) === DASH && (t.charCodeAt(p + 1) === SP || t.charCodeAt(p + 1) === LF)) bail(); // a sequence where a key belongs
    }
    this.seal(block, members);
    return obj;
  }

  /** A block sequence whose first `-` is at `p` (column `indent`). */
  private seq(p: number, indent: number, out: { block: FastBlock | undefined }): unknown[] {
    const t = this.t;
    const n = t.length;
    const block = new FastBlock(false, this.store);
    out.block = block;
    block.start = p;
    const members = this.builder();
    const arr: unknown[] = [];
    for (;;) {
      // p is at "-"
      const q = p + 1;
      if (t.charCodeAt(q) !== SP) bail(); // `-` alone on its line: not handled
      let r = q;
      while (t.charCodeAt(r) === SP) r++;
      const c = t.charCodeAt(r);
      if (r >= n || c === LF || c === HASH) bail();
      if (c === DASH && (t.charCodeAt(r + 1) === SP || t.charCodeAt(r + 1) === LF)) bail(); // `- - x`
      const lineStart = t.lastIndexOf("\n", p) + 1;
      if (this.isMapEntry(r)) {
        const kid = { block: undefined as FastBlock | undefined };
        if (++this.depth > 200) bail();
        arr.push(this.map(r, r - lineStart, kid));
        this.depth--;
        const b = kid.block as FastBlock;
        members.value(b.start, b.end, b.end, b, false);
      } else {
        arr.push(this.value(r - 1, indent, members, false));
      }
      const next = this.contentLine(this.after);
      const ind = next < n ? this.indentAt(next) : -1;
      if (ind < indent) {
        this.noTrailingComment(next, indent);
        break;
      }
      if (ind > indent) bail();
      p = next + ind;
      if (!(t.charCodeAt(p) === DASH && (t.charCodeAt(p + 1) === SP || t.charCodeAt(p + 1) === LF))) {
        this.noTrailingComment(next, indent);
        break; // the parent map goes on
      }
    }
    this.seal(block, members);
    return arr;
  }

  /** Does a `key: …` entry start at `r` (a plain or double-quoted key followed by `:` and a space or line end)? */
  private isMapEntry(r: number): boolean {
    const t = this.t;
    const lineEnd = this.eol(r);
    if (t.charCodeAt(r) === DQ) {
      const close = t.indexOf('"', r + 1);
      if (close < 0 || close > lineEnd) return false;
      const a = t.charCodeAt(close + 1);
      return a === COLON;
    }
    if (t.charCodeAt(r) === SQ || t.charCodeAt(r) === 0x5b || t.charCodeAt(r) === 0x7b) return false;
    for (let k = t.indexOf(":", r); k >= 0 && k < lineEnd; k = t.indexOf(":", k + 1)) {
      const a = t.charCodeAt(k + 1);
      if (a === SP || a === LF || k + 1 >= t.length) {
        // a comment before the colon makes it no key
        const hash = t.slice(r, k).indexOf(" #");
        return hash < 0;
      }
    }
    return false;
  }

  /**
   * The value after a key's colon (or after `- ` when `inMap` is false, `at` being the space before it).
   * Adds its ranges to `members` and sets `this.after` to the start of the line after it.
   */
  private value(at: number, indent: number, members: MemberBuilder, inMap: boolean): unknown {
    const t = this.t;
    const n = t.length;
    let p = at;
    const c0 = t.charCodeAt(p);
    if (inMap && (p >= n || c0 === LF)) {
      // nothing on the line: a nested block on the next lines, or null
      const next = this.contentLine(this.nextLine(p));
      const ind = next < n ? this.indentAt(next) : -1;
      const startsSeq = ind >= 0 && t.charCodeAt(next + ind) === DASH && (t.charCodeAt(next + ind + 1) === SP || t.charCodeAt(next + ind + 1) === LF);
      if (ind > indent && !startsSeq && !this.isMapEntry(next + ind)) {
        // a scalar on the lines below its key, as YAML writers put long text
        return this.value(next + ind - 1, indent, members, inMap);
      }
      if (ind > indent || (ind === indent && startsSeq)) {
        const kid = { block: undefined as FastBlock | undefined };
        const v = this.block(next, ind, kid);
        const b = kid.block as FastBlock;
        members.value(b.start, b.end, b.end, b, inMap);
        return v;
      }
      // an empty value: null, written nowhere, just after the colon; `yaml` stretches its range over comment
      // lines that follow, a rule not worth copying
      for (let q = this.nextLine(p); q < next; q = this.nextLine(q)) if (q + this.indentAt(q) < n && t.charCodeAt(q + this.indentAt(q)) === HASH) bail();
      members.value(p, p, p, undefined, inMap);
      this.after = this.nextLine(p);
      return null;
    }
    if (c0 !== SP) bail();
    while (t.charCodeAt(p) === SP) p++;
    const c = t.charCodeAt(p);
    const lineEnd = this.eol(p);
    let value: unknown;
    const s = p;
    let e: number;
    let e2: number;
    if (c === DQ || c === SQ) {
      // a quoted scalar, on one line or folded over several
      const close = c === DQ ? this.doubleQuoteEnd(p) : this.singleQuoteEnd(p);
      e = close + 1;
      const raw = t.slice(p + 1, close);
      const folded = raw.indexOf("\n") < 0 ? raw : this.foldQuoted(raw, indent, c === DQ);
      if (c === SQ) value = folded.indexOf("'") < 0 ? folded : folded.replace(/''/g, "'");
      else if (folded.indexOf("\\") < 0) value = folded;
      else {
        // only escapes JSON spells the same way as YAML
        if (/\\[^"\\/bfnrtu]/.test(folded) || /\\u(?![0-9a-fA-F]{4})/.test(folded)) bail();
        value = JSON.parse(`"${folded}"`);
      }
      e2 = this.tail(e);
    } else if (c === 0x5b) {
      // a flow sequence of plain or double-quoted scalars on one line; a collection, so paths go into it
      const arr: unknown[] = [];
      const flow = new FastBlock(false, this.store);
      flow.start = p;
      const items = this.builder();
      let q = p + 1;
      while (t.charCodeAt(q) === SP) q++;
      if (t.charCodeAt(q) === 0x5d) q++;
      else {
        for (;;) {
          const d = t.charCodeAt(q);
          const itemStart = q;
          let item: unknown;
          if (d === DQ) {
            const k = t.indexOf('"', q + 1);
            if (k < 0 || k > lineEnd) bail();
            const raw = t.slice(q + 1, k);
            if (raw.indexOf("\\") >= 0) bail();
            item = raw;
            q = k + 1;
          } else {
            if (badPlainStart(d) || d === SP) bail();
            let k = q;
            for (;;) {
              const ch = t.charCodeAt(k);
              if (ch === 0x2c || ch === 0x5d || k >= lineEnd) break;
              // flow indicators, comments, quotes, colons and spaces before a separator: not handled
              if (ch === 0x5b || ch === 0x7b || ch === 0x7d || ch === DQ || ch === SQ || ch === HASH || ch === COLON) bail();
              k++;
            }
            if (t.charCodeAt(k - 1) === SP) bail();
            item = plainValue(t.slice(q, k));
            q = k;
          }
          arr.push(item);
          items.value(itemStart, q, q, undefined, false);
          const sep = t.charCodeAt(q);
          if (sep === 0x5d) {
            q++;
            break;
          }
          if (sep !== 0x2c) bail();
          q++;
          while (t.charCodeAt(q) === SP) q++;
          if (t.charCodeAt(q) === 0x5d) bail(); // a trailing comma
        }
      }
      e = q;
      this.seal(flow, items);
      flow.end = q; // `[]` has no member to end at
      value = arr;
      e2 = this.tail(e);
      members.value(s, e, e2, flow, inMap);
      this.after = e2;
      return value;
    } else if (c === 0x7c) {
      // a literal block scalar: `|` (clip) or `|-` (strip), header alone on its line
      let h = p + 1;
      const strip = t.charCodeAt(h) === DASH;
      if (strip) h++;
      if (h !== lineEnd) bail();
      return this.blockScalar(p, lineEnd, indent, strip, false, members, inMap);
    } else if (c === 0x3e) {
      // a folded block scalar: `>` (clip) or `>-` (strip), as YAML writers emit long text
      let h = p + 1;
      const strip = t.charCodeAt(h) === DASH;
      if (strip) h++;
      if (h !== lineEnd) bail();
      return this.blockScalar(p, lineEnd, indent, strip, true, members, inMap);
    } else {
      if (badPlainStart(c) || p >= n || c === LF) {
        // `-x`, `-1`, `:x`, `?x` are plain in YAML 1.2 but not worth the rules here
        bail();
      }
      // a plain scalar on one line
      let k = lineEnd;
      const hash = t.slice(p, k).indexOf(" #");
      if (hash >= 0) k = p + hash;
      let end = k;
      while (t.charCodeAt(end - 1) === SP) end--;
      const raw = t.slice(p, end);
      if (raw.indexOf(": ") >= 0 || raw.charCodeAt(raw.length - 1) === COLON || raw.indexOf("\t") >= 0) bail();
      e = hash >= 0 ? end : this.plainContinued(end, indent);
      value = plainValue(e === end ? raw : this.foldPlain(p, e));
      e2 = this.tail(e);
      // a more-indented line left after it (after a comment, say) would be an error
      const next = this.contentLine(e2);
      if (next < n && this.indentAt(next) > indent) bail();
    }
    members.value(s, e, e2, undefined, inMap);
    this.after = e2;
    return value;
  }

  /** The closing quote of the double-quoted scalar opening at `p` (an unescaped `"`, maybe lines later). */
  private doubleQuoteEnd(p: number): number {
    const t = this.t;
    for (let q = p + 1; ;) {
      const k = t.indexOf('"', q);
      if (k < 0) bail();
      let b = k - 1;
      while (t.charCodeAt(b) === 0x5c) b--;
      if ((k - 1 - b) % 2 === 0) return k;
      q = k + 1;
    }
  }

  /** The closing quote of the single-quoted scalar opening at `p` (`''` is a quote inside). */
  private singleQuoteEnd(p: number): number {
    const t = this.t;
    for (let q = p + 1; ;) {
      const k = t.indexOf("'", q);
      if (k < 0) bail();
      if (t.charCodeAt(k + 1) !== SQ) return k;
      q = k + 2;
    }
  }

  /**
   * A quoted scalar's text between its quotes, spread over lines, folded as YAML folds flow scalars: white
   * space around each line break goes, a single break becomes a space, n empty lines become n breaks (in a
   * double-quoted scalar written as the escape `\n`, to be read with the other escapes). Lines after the
   * first must be indented more than the parent (`indent`).
   */
  private foldQuoted(raw: string, indent: number, double: boolean): string {
    const lines = raw.split("\n");
    const last = lines.length - 1;
    let out = "";
    let empties = 0;
    let escapedBreak = false;
    for (let i = 0; i <= last; i++) {
      let line = lines[i];
      if (i > 0) {
        let lead = 0;
        while (line.charCodeAt(lead) === SP) lead++;
        if (lead === line.length && i < last) {
          empties++;
          continue;
        }
        if (lead <= indent) bail(); // not indented enough (or `---`/`...` at column 0)
        line = line.slice(lead);
      }
      if (i < last) {
        let end = line.length;
        while (line.charCodeAt(end - 1) === SP) end--;
        let escaped = false;
        if (double) {
          let b = end - 1;
          while (line.charCodeAt(b) === 0x5c) b--;
          // `\` at the end escapes the line break (the lines join with nothing between); before spaces it
          // would escape a space instead: not handled
          escaped = (end - 1 - b) % 2 === 1;
          if (escaped && end < line.length) bail();
        }
        line = line.slice(0, escaped ? end - 1 : end);
        if (i > 0) out += this.foldJoin(empties, escapedBreak, double);
        escapedBreak = escaped;
      } else if (i > 0) out += this.foldJoin(empties, escapedBreak, double);
      empties = 0;
      out += line;
    }
    return out;
  }

  /** What joins two lines of a quoted scalar with `empties` empty lines between them. */
  private foldJoin(empties: number, escapedBreak: boolean, double: boolean): string {
    if (escapedBreak) {
      if (empties > 0) bail(); // empty lines after an escaped break: not handled
      return "";
    }
    return empties === 0 ? " " : (double ? "\\n" : "\n").repeat(empties);
  }

  /**
   * Where a plain scalar whose first line ends at `end` ends: it goes on over the following lines that are
   * indented more than `indent` (blank lines in between), up to a comment line or a line not indented
   * enough. Lines that could be read otherwise (`key: `, `- x`, a comment at the end) are not handled.
   */
  private plainContinued(end: number, indent: number): number {
    const t = this.t;
    const n = t.length;
    let last = end;
    let q = this.nextLine(end);
    while (q < n) {
      const ind = this.indentAt(q);
      const lineEnd = this.eol(q);
      if (q + ind >= lineEnd) {
        q = lineEnd + 1;
        continue;
      }
      const c = t.charCodeAt(q + ind);
      if (ind <= indent || c === HASH) break;
      // a continuation line may start with any indicator but these (`- x`, `? x`, `: x` would be read apart)
      const d = t.charCodeAt(q + ind + 1);
      if ((c === DASH || c === 0x3f || c === COLON) && (d === SP || q + ind + 1 >= lineEnd)) bail();
      let k = lineEnd;
      while (t.charCodeAt(k - 1) === SP) k--;
      const line = t.slice(q + ind, k);
      if (line.indexOf(": ") >= 0 || line.indexOf(" #") >= 0 || line.charCodeAt(line.length - 1) === COLON) bail();
      last = k;
      q = lineEnd + 1;
    }
    return last;
  }

  /** The value of a multi-line plain scalar from `p` to `e`: lines trimmed, folded as in `foldQuoted`. */
  private foldPlain(p: number, e: number): string {
    const lines = this.t.slice(p, e).split("\n");
    let out = lines[0].replace(/ +$/, "");
    let empties = 0;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i].trim();
      if (line === "") {
        empties++;
        continue;
      }
      out += empties === 0 ? " " : "\n".repeat(empties);
      empties = 0;
      out += line;
    }
    return out;
  }

  /**
   * A literal (`|`, `|-`) or folded (`>`, `>-`) block scalar whose header is at `p`; content lines are
   * indented more than `indent`. Folding joins two adjacent lines with a space, keeps n breaks for n empty
   * lines between, and keeps every break next to a more-indented line.
   */
  private blockScalar(p: number, lineEnd: number, indent: number, strip: boolean, folded: boolean, members: MemberBuilder, inMap: boolean): string {
    const t = this.t;
    const n = t.length;
    let line = lineEnd + 1;
    if (lineEnd >= n) bail();
    const contentIndent = this.indentAt(line);
    const firstEnd = this.eol(line);
    if (contentIndent <= indent || line + contentIndent >= firstEnd) bail(); // empty first line or too little indent
    const parts: string[] = [];
    let lastContentEnd = firstEnd; // end (before \n) of the last non-empty line
    let lastKept = 0; // parts.length after the last non-empty line
    while (line < n) {
      const end = this.eol(line);
      const ind = this.indentAt(line);
      if (line + ind >= end) {
        // a blank line: empty content unless it carries more spaces than the content indent
        if (ind > contentIndent) bail();
        parts.push("");
      } else if (ind >= contentIndent) {
        parts.push(t.slice(line + contentIndent, end));
        lastKept = parts.length;
        lastContentEnd = end;
      } else {
        if (ind > indent) bail(); // less indented than the content, more than the parent: an error
        break;
      }
      line = end + 1;
    }
    parts.length = lastKept;
    const hasBreak = lastContentEnd < n;
    const value = (folded ? foldBlock(parts) : parts.join("\n")) + (!strip && hasBreak ? "\n" : "");
    const e = hasBreak ? lastContentEnd + 1 : n;
    members.value(p, e, e, undefined, inMap);
    this.after = e;
    return value;
  }
}

/** A folded block scalar's lines (content indent removed, "" for empty lines) joined as YAML folds them. */
function foldBlock(parts: readonly string[]): string {
  let out = parts[0];
  let moreIndented = parts[0].charCodeAt(0) === SP;
  let empties = 0;
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i];
    if (part === "") {
      empties++;
      continue;
    }
    const more = part.charCodeAt(0) === SP;
    out += !moreIndented && !more ? (empties === 0 ? " " : "\n".repeat(empties)) : "\n".repeat(empties + 1);
    out += part;
    moreIndented = more;
    empties = 0;
  }
  return out;
}

/** The value and ranges of `text`, or undefined when it is outside the subset this reader handles exactly. */
export function parseFastYaml(text: string): FastYaml | undefined {
  // whole-text screens: tabs, CR, BOM, control characters, Unicode line breaks, aliases/anchors/tags at a
  // value start are checked where they occur; document markers and directives here
  if (/[\t\r\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u0085\u2028\u2029\ufeff]/.test(text)) return undefined;
  if (/^(?:---|\.\.\.)(?:[ \n]|$)|^%/m.test(text)) return undefined;
  try {
    return new Reader(text).document();
  } catch (e) {
    if (e === UNSUPPORTED) return undefined;
    throw e;
  }
}

// ---- the document --------------------------------------------------------------------------------

/** An LwirDocument read by parseFastYaml: what YamlDocument answers, from the ranges recorded here. */
export class FastYamlDocument extends BaseDocument {
  readonly format = "yaml" as const;
  readonly parseErrors: ParseProblem[] = [];
  readonly parseWarnings: ParseProblem[] = [];

  constructor(text: string, readonly value: unknown, private readonly root: FastBlock) {
    super(text);
  }

  protected trail(segments: readonly PathSegment[]): TrailNode[] {
    const root = this.root;
    const out: TrailNode[] = [{ valueStart: root.start, valueEnd: root.end, container: true }];
    let b: FastBlock | undefined = root;
    for (const seg of segments) {
      if (!b) break;
      let i: number;
      if (b.isMap) i = b.indexOf(String(seg));
      else i = typeof seg === "number" && Number.isInteger(seg) && seg >= 0 && seg < b.count ? seg : -1;
      if (i < 0) break;
      const kid: FastBlock | undefined = b.kid(i);
      const node: TrailNode = { valueStart: b.vs(i), valueEnd: b.ve(i), container: kid !== undefined };
      if (b.isMap) {
        node.keyStart = b.ks(i);
        node.keyEnd = b.ke(i);
      }
      out.push(node);
      b = kid;
    }
    return out;
  }

  pathAt(offset: number): PathAt | undefined {
    const root = this.root;
    if (offset < root.start || offset > root.end) return undefined;
    const segments: PathSegment[] = [];
    let b = root;
    for (;;) {
      let lo = 0;
      let hi = b.count - 1;
      let i = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if ((b.isMap ? b.ks(mid) : b.vs(mid)) <= offset) {
          i = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      if (i < 0 || offset > b.ve2(i)) return { segments, inKey: b.isMap, between: true };
      const kid = b.kid(i);
      if (b.isMap) {
        segments.push(b.key(i));
        if (offset <= b.ke(i)) return { segments, inKey: true };
        if (offset < b.vs(i) || !kid) return { segments, inKey: false };
      } else {
        segments.push(i);
        if (!kid) return { segments, inKey: false };
      }
      b = kid;
    }
  }
}

/** The document read by the fast reader, or undefined when the text needs the `yaml` package. */
export function parseFastYamlDocument(text: string): FastYamlDocument | undefined {
  const fast = parseFastYaml(text);
  return fast ? new FastYamlDocument(text, fast.value, fast.root) : undefined;
}
