// JSON documents. The value is always native JSON.parse's (what the runtime reads: last duplicate wins,
// `__proto__` an own key, 1e400 → Infinity, -0, lone surrogates), and a text JSON.parse accepts has no parse
// errors. Positions are only computed when asked for:
// - valid text: on the first request, one pass matches every bracket; then each container's members are
//   indexed when a path goes through it (a valid document without findings never pays for positions);
// - invalid text: jsonc-parser's error-tolerant tree, which also gives the error ranges.
import { createScanner, parseTree, type Node as JsoncNode, type ParseError } from "jsonc-parser";
import type { PathSegment } from "../lwir/types";
import { MAX_JSON_DEPTH, scanJsonDepth, scanValidJsonDepth } from "./depth";
import { BaseDocument, type TrailNode } from "./text";
import type { ParseProblem, PathAt } from "./types";

// ---- containers: the members of one object/array, with offsets ---------------------------------------

/** One object or array: its members' key and value offsets (keys absent for arrays). */
class Container {
  private keyIndex: Map<string, number> | undefined;
  private readonly kids = new Map<number, Container | undefined>();

  constructor(
    readonly isObject: boolean,
    readonly start: number,
    readonly end: number,
    readonly ks: number[],
    readonly ke: number[],
    readonly vs: number[],
    readonly ve: number[],
    private readonly keyText: (i: number) => string,
    readonly isContainer: (i: number) => boolean,
    private readonly open: (i: number) => Container | undefined,
  ) {}

  get count(): number {
    return this.vs.length;
  }

  key(i: number): string {
    return this.keyText(i);
  }

  /** Member index for a path segment; for a repeated key the last one (what JSON.parse keeps). */
  indexOf(seg: PathSegment): number {
    if (this.isObject) {
      if (!this.keyIndex) {
        this.keyIndex = new Map();
        for (let i = 0; i < this.count; i++) this.keyIndex.set(this.keyText(i), i);
      }
      return this.keyIndex.get(String(seg)) ?? -1;
    }
    return typeof seg === "number" && Number.isInteger(seg) && seg >= 0 && seg < this.count ? seg : -1;
  }

  child(i: number): Container | undefined {
    if (!this.kids.has(i)) this.kids.set(i, this.isContainer(i) ? this.open(i) : undefined);
    return this.kids.get(i);
  }

  /** Last member starting at or before `offset` (members are in text order), or -1. */
  memberBefore(offset: number): number {
    let lo = 0;
    let hi = this.count - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = this.isObject ? this.ks[mid] : this.vs[mid];
      if (s <= offset) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }
}

// ---- structural scan of text known to be valid JSON -----------------------------------------------------

function skipWs(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

/** Offset just after the string starting at `i` (its opening quote). */
function stringEnd(text: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) return text.length;
    let b = q - 1;
    while (text.charCodeAt(b) === 0x5c) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1; // an even run of backslashes: the quote is not escaped
    from = q + 1;
  }
}

/** Where each object/array starts and ends (just after its closing bracket), in order of their starts. */
interface Brackets {
  starts: Int32Array;
  ends: Int32Array;
}

/** Matches every bracket of valid JSON text in one pass, so opening a container never rescans its contents. */
function matchBrackets(text: string): Brackets {
  const n = text.length;
  let starts = new Int32Array(1024);
  let ends = new Int32Array(1024);
  let count = 0;
  const open: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = stringEnd(text, i) - 1;
    else if (c === 0x7b || c === 0x5b) {
      if (count === starts.length) {
        const grownStarts = new Int32Array(count * 2);
        grownStarts.set(starts);
        starts = grownStarts;
        const grownEnds = new Int32Array(count * 2);
        grownEnds.set(ends);
        ends = grownEnds;
      }
      starts[count] = i;
      ends[count] = n;
      open.push(count++);
    } else if (c === 0x7d || c === 0x5d) {
      const k = open.pop();
      if (k !== undefined) ends[k] = i + 1;
    }
  }
  return { starts: starts.subarray(0, count), ends: ends.subarray(0, count) };
}

function containerEnd(brackets: Brackets, start: number): number {
  const { starts, ends } = brackets;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] === start) return ends[mid];
    if (starts[mid] < start) lo = mid + 1;
    else hi = mid - 1;
  }
  return start + 1; // not a container start (cannot happen in valid text)
}

/** Offset just after the value starting at `i`. */
function valueEnd(text: string, i: number, brackets: Brackets): number {
  const n = text.length;
  const c = text.charCodeAt(i);
  if (c === 0x22) return stringEnd(text, i);
  if (c === 0x7b || c === 0x5b) return containerEnd(brackets, i);
  let k = i;
  while (k < n) {
    const d = text.charCodeAt(k);
    if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) break;
    k++;
  }
  return k;
}

function isBracket(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c === 0x7b || c === 0x5b;
}

/**
 * Indexes the members of the object/array at `start` (valid JSON only): nested containers are jumped over
 * with the bracket table and opened on demand, so a path costs the members along it, not the text's size.
 */
function scanContainer(text: string, start: number, brackets: Brackets): Container {
  const n = text.length;
  const isObject = text.charCodeAt(start) === 0x7b;
  const ks: number[] = [];
  const ke: number[] = [];
  const vs: number[] = [];
  const ve: number[] = [];
  let i = skipWs(text, start + 1);
  let end = n;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x7d || c === 0x5d) {
      end = i + 1;
      break;
    }
    if (isObject) {
      ks.push(i);
      i = stringEnd(text, i);
      ke.push(i);
      i = skipWs(text, skipWs(text, i) + 1); // past the colon
    }
    vs.push(i);
    i = valueEnd(text, i, brackets);
    ve.push(i);
    i = skipWs(text, i);
    if (text.charCodeAt(i) === 0x2c) i = skipWs(text, i + 1);
  }
  return new Container(
    isObject, start, end, ks, ke, vs, ve,
    (k) => {
      const raw = text.slice(ks[k] + 1, ke[k] - 1);
      return raw.indexOf("\\") < 0 ? raw : (JSON.parse(text.slice(ks[k], ke[k])) as string);
    },
    (k) => isBracket(text, vs[k]),
    (k) => scanContainer(text, vs[k], brackets),
  );
}

// ---- jsonc-parser's tree (documents with syntax errors) ------------------------------------------------

function isJsoncContainer(node: JsoncNode | undefined): node is JsoncNode {
  return node !== undefined && (node.type === "object" || node.type === "array");
}

function fromJsonc(node: JsoncNode): Container {
  const isObject = node.type === "object";
  const ks: number[] = [];
  const ke: number[] = [];
  const vs: number[] = [];
  const ve: number[] = [];
  const keys: string[] = [];
  const values: (JsoncNode | undefined)[] = [];
  for (const child of node.children ?? []) {
    if (isObject) {
      const key = child.children?.[0];
      if (!key) continue;
      const value = child.children?.[1];
      ks.push(key.offset);
      ke.push(key.offset + key.length);
      keys.push(String(key.value));
      values.push(value);
      // a member whose value is missing (broken text) sits just after its colon, or its key
      const at = value ? value.offset : child.colonOffset !== undefined ? child.colonOffset + 1 : key.offset + key.length;
      vs.push(at);
      ve.push(value ? value.offset + value.length : at);
    } else {
      values.push(child);
      vs.push(child.offset);
      ve.push(child.offset + child.length);
    }
  }
  return new Container(
    isObject, node.offset, node.offset + node.length, ks, ke, vs, ve,
    (k) => keys[k],
    (k) => isJsoncContainer(values[k]),
    (k) => {
      const v = values[k];
      return isJsoncContainer(v) ? fromJsonc(v) : undefined;
    },
  );
}

// ---- parse errors ---------------------------------------------------------------------------------------

// jsonc-parser's ParseErrorCode / ScanError values (declared as const enums, so not imported)
const JSONC_MESSAGES: Record<number, [string, string]> = {
  1: ["InvalidSymbol", "Unexpected character: not valid JSON"],
  2: ["InvalidNumberFormat", "Invalid number"],
  3: ["PropertyNameExpected", "Property name expected (a double-quoted string)"],
  4: ["ValueExpected", "Value expected"],
  5: ["ColonExpected", "Colon expected"],
  6: ["CommaExpected", "Comma expected"],
  7: ["CloseBraceExpected", "Closing brace '}' expected"],
  8: ["CloseBracketExpected", "Closing bracket ']' expected"],
  9: ["EndOfFileExpected", "End of file expected: a JSON document holds a single value"],
  10: ["InvalidCommentToken", "Comments are not allowed in JSON"],
  11: ["UnexpectedEndOfComment", "Unterminated comment (comments are not allowed in JSON)"],
  12: ["UnexpectedEndOfString", "Unterminated string (a string ends on the line it starts)"],
  13: ["UnexpectedEndOfNumber", "Incomplete number"],
  14: ["InvalidUnicode", "Invalid Unicode escape: \\u needs four hex digits"],
  15: ["InvalidEscapeCharacter", "Invalid escape in string"],
  16: ["InvalidCharacter", "Control characters must be escaped in strings"],
};
const SCAN_TO_PARSE_ERROR: Record<number, number> = { 1: 11, 2: 12, 3: 13, 4: 14, 5: 15, 6: 16 };

interface RawError {
  code: number;
  offset: number;
  length: number;
}

/** The comma before a closing bracket at `offset`, if that is what made the error (a trailing comma). */
function trailingCommaBefore(text: string, offset: number): number {
  const c = text.charCodeAt(offset);
  if (c !== 0x7d && c !== 0x5d) return -1;
  let i = offset - 1;
  while (i >= 0 && /[ \t\r\n]/.test(text[i])) i--;
  return text.charCodeAt(i) === 0x2c ? i : -1;
}

/**
 * The first syntax error of a JSON text, found with jsonc-parser's scanner and an explicit stack: used where
 * the text is too deep for the recursive parseTree. Undefined when the scanner sees no error.
 */
export function firstJsonSyntaxError(text: string): RawError | undefined {
  const scanner = createScanner(text, false);
  const stack: boolean[] = []; // true: object
  // what may come next: a value, a key, a colon, a comma or close, or the end
  type Expect = "value" | "valueOrClose" | "key" | "keyOrClose" | "colon" | "commaOrClose" | "end";
  let expect: Expect = "value";
  for (;;) {
    const t = scanner.scan();
    const offset = scanner.getTokenOffset();
    const length = scanner.getTokenLength();
    if (t === 14 /* LineBreakTrivia */ || t === 15 /* Trivia */) continue;
    const scanError = scanner.getTokenError();
    if (scanError !== 0) return { code: SCAN_TO_PARSE_ERROR[scanError] ?? 1, offset, length };
    if (t === 12 || t === 13) return { code: 10, offset, length };
    if (t === 16 /* Unknown */) return { code: 1, offset, length };
    const afterValue = (): Expect => (stack.length === 0 ? "end" : "commaOrClose");
    switch (expect) {
      case "end":
        if (t === 17) return undefined;
        return { code: 9, offset, length };
      case "value":
      case "valueOrClose":
        if (expect === "valueOrClose" && t === 4) {
          stack.pop();
          expect = afterValue();
        } else if (t === 1 || t === 3) {
          stack.push(t === 1);
          expect = t === 1 ? "keyOrClose" : "valueOrClose";
        } else if (t >= 7 && t <= 11) expect = afterValue();
        else return { code: 4, offset, length };
        break;
      case "key":
      case "keyOrClose":
        if (expect === "keyOrClose" && t === 2) {
          stack.pop();
          expect = afterValue();
        } else if (t === 10) expect = "colon";
        else return { code: 3, offset, length };
        break;
      case "colon":
        if (t !== 6) return { code: 5, offset, length };
        expect = "value";
        break;
      case "commaOrClose": {
        const inObject = stack[stack.length - 1];
        if (t === 5) expect = inObject ? "key" : "value";
        else if (t === (inObject ? 2 : 4)) {
          stack.pop();
          expect = afterValue();
        } else return { code: inObject ? 7 : 8, offset, length };
        break;
      }
    }
  }
}

// ---- the document ---------------------------------------------------------------------------------------

export class JsonDocument extends BaseDocument {
  readonly format = "json" as const;
  readonly parseWarnings: ParseProblem[] = [];
  readonly parseErrors: ParseProblem[] = [];
  readonly tooDeep?: { depth: number; limit: number };
  private rootContainer: Container | undefined;
  private rootNode: TrailNode | undefined;

  constructor(
    text: string,
    readonly value: unknown,
    /** How positions are found: "scan" (valid text), a jsonc tree (text with errors), or none (too deep to parse). */
    private readonly source: "scan" | JsoncNode | undefined,
    tooDeep?: { depth: number; limit: number },
  ) {
    super(text);
    if (tooDeep) this.tooDeep = tooDeep;
  }

  /** Adds parse problems while the document is being built. */
  addErrors(errors: readonly RawError[]): void {
    let first = true;
    let lastOffset = -1;
    for (const e of errors) {
      if (e.offset === lastOffset) continue; // a second report at the same place adds nothing
      lastOffset = e.offset;
      const comma = e.code === 3 || e.code === 4 ? trailingCommaBefore(this.text, e.offset) : -1;
      // after the first error jsonc-parser's recovery mostly reports consequences of it; only comments and
      // trailing commas are independent mistakes worth listing each
      if (!first && comma < 0 && e.code !== 10) continue;
      first = false;
      if (comma >= 0) {
        this.parseErrors.push(this.problem("Trailing comma: not allowed in JSON", comma, comma + 1, "TrailingComma"));
        continue;
      }
      const [code, message] = JSONC_MESSAGES[e.code] ?? ["InvalidSymbol", "Invalid JSON"];
      const empty = e.code === 4 && this.text.trim() === "";
      // `0x10`, `1_000`: the scanner splits off a number; show the whole word
      let start = e.offset;
      if (e.code === 1 || e.code === 9) while (start > 0 && /[0-9.eE+-]/.test(this.text[start - 1])) start--;
      this.parseErrors.push(this.problem(empty ? "Empty document: a JSON value is expected" : message, start, e.offset + e.length, code));
    }
  }

  /** A leading U+FEFF: the first character, reported on its own. */
  addByteOrderMarkError(): void {
    this.parseErrors.push(this.problem(JSON_BOM_MESSAGE, 0, 1, "ByteOrderMark"));
  }

  /** JSON.parse's own complaint, for text it refuses where jsonc-parser saw nothing wrong. */
  addNativeError(nativeMessage: string): void {
    const at = /at position (\d+)/.exec(nativeMessage);
    const offset = at ? Number(at[1]) : 0;
    const message = nativeMessage.replace(/ in JSON at position \d+.*$/s, "") || "Invalid JSON";
    this.parseErrors.push(this.problem(message, offset, offset + 1, "InvalidJson"));
  }

  private root(): TrailNode | undefined {
    if (this.rootNode || this.source === undefined) return this.rootNode;
    if (this.source === "scan") {
      const start = skipWs(this.text, 0);
      let end = this.text.length;
      while (end > start && /[ \t\r\n]/.test(this.text[end - 1])) end--;
      if (start >= end) return undefined;
      this.rootNode = { valueStart: start, valueEnd: end, container: isBracket(this.text, start) };
    } else {
      const n = this.source;
      this.rootNode = { valueStart: n.offset, valueEnd: n.offset + n.length, container: isJsoncContainer(n) };
    }
    return this.rootNode;
  }

  private openRoot(): Container | undefined {
    const root = this.root();
    if (!root?.container) return undefined;
    if (!this.rootContainer) {
      this.rootContainer =
        this.source === "scan" ? scanContainer(this.text, root.valueStart, matchBrackets(this.text)) : fromJsonc(this.source as JsoncNode);
    }
    return this.rootContainer;
  }

  protected trail(segments: readonly PathSegment[]): TrailNode[] {
    const root = this.root();
    if (!root) return [];
    const out: TrailNode[] = [root];
    let parent: Container | undefined;
    let index = -1;
    for (const seg of segments) {
      // open the current node only now that a segment below it is wanted
      const current: Container | undefined = parent ? parent.child(index) : this.openRoot();
      if (!current) break;
      const i = current.indexOf(seg);
      if (i < 0) break;
      const node: TrailNode = { valueStart: current.vs[i], valueEnd: current.ve[i], container: current.isContainer(i) };
      if (current.isObject) {
        node.keyStart = current.ks[i];
        node.keyEnd = current.ke[i];
      }
      out.push(node);
      parent = current;
      index = i;
    }
    return out;
  }

  pathAt(offset: number): PathAt | undefined {
    const root = this.root();
    if (!root || offset < root.valueStart || offset > root.valueEnd) return undefined;
    const segments: PathSegment[] = [];
    let c = this.openRoot();
    if (!c || offset === root.valueStart || offset === root.valueEnd) return { segments, inKey: false };
    for (;;) {
      const i = c.memberBefore(offset);
      if (i < 0 || offset > c.ve[i]) return { segments, inKey: c.isObject, between: true };
      if (c.isObject) {
        segments.push(c.key(i));
        if (offset <= c.ke[i]) return { segments, inKey: true };
      } else segments.push(i);
      // strictly inside a nested container: go down; on its brackets or on a scalar: this member
      if (offset > c.vs[i] && offset < c.ve[i] && c.isContainer(i)) {
        const next = c.child(i);
        if (!next) return { segments, inKey: false };
        c = next;
      } else return { segments, inKey: false };
    }
  }
}

/** What a JSON document starting with U+FEFF is told: JSON.parse, and so the runtime, refuses it. */
export const JSON_BOM_MESSAGE =
  "The document starts with a byte-order mark (U+FEFF), which JSON does not allow and the runtime refuses: remove the byte-order mark (save the file as UTF-8 without BOM).";

export function parseJson(text: string): JsonDocument {
  // The runtime reads JSON with JSON.parse, which refuses a leading BOM. The rest is read as if the BOM
  // were a space (same length, so offsets hold) to report its own errors too.
  const bom = text.charCodeAt(0) === 0xfeff;
  const body = bom ? " " + text.slice(1) : text;
  let value: unknown;
  let parsed = false;
  let nativeMessage = "";
  try {
    value = JSON.parse(body);
    parsed = true;
  } catch (error) {
    nativeMessage = error instanceof Error ? error.message : String(error);
  }
  // nesting past the limit takes more brackets than a shorter text holds
  const depth = body.length <= MAX_JSON_DEPTH ? 0 : parsed ? scanValidJsonDepth(body) : scanJsonDepth(body).depth;
  const tooDeep = depth > MAX_JSON_DEPTH;
  // the runtime reads what JSON.parse accepts; the scan map is iterative, so depth does not matter to it
  if (parsed && !bom) return tooDeep ? new JsonDocument(text, undefined, "scan", { depth, limit: MAX_JSON_DEPTH }) : new JsonDocument(text, value, "scan");

  let doc: JsonDocument;
  const errors: RawError[] = [];
  if (tooDeep) {
    // too deep for jsonc-parser's recursive parser: locate the first error with an iterative check instead
    doc = new JsonDocument(text, undefined, undefined);
    const first = parsed ? undefined : firstJsonSyntaxError(body);
    if (first) errors.push(first);
  } else {
    const jsoncErrors: ParseError[] = [];
    const tree = parseTree(body, jsoncErrors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    doc = new JsonDocument(text, undefined, tree);
    for (const e of jsoncErrors) errors.push({ code: e.error, offset: e.offset, length: e.length });
  }
  if (bom) doc.addByteOrderMarkError();
  doc.addErrors(errors);
  // JSON.parse is the judge: if jsonc-parser saw nothing wrong, report JSON.parse's own words
  if (doc.parseErrors.length === 0) doc.addNativeError(nativeMessage);
  return doc;
}
