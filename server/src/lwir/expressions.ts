// The LWIR template expression language as the reference validator reads it (findings catalog,
// section 5): scanning `{{ ... }}` in strings (5.2), the safety screen (5.3), the grammar (5.4,
// 5.5), whole-string templates (5.7) and step-reference extraction (5.8).
//
// Pure TypeScript (its one import is a table of names): it also runs in a browser worker. Nothing here evaluates
// code, and no exported function throws on any input string (recursion is depth-bounded).
// Performance matters: these run on every string of large documents on every keystroke, so the
// plain-string path is two indexOf calls, regexes are module constants and scans are linear.

import { OBJECT_PROTOTYPE_NAMES } from "./jsObject";

// ---------------------------------------------------------------------------------------------
// Public tables

export const EXPRESSION_FUNCTIONS: ReadonlyArray<{
  name: string;
  minArgs: number;
  maxArgs: number | undefined;
  signature: string;
  doc: string;
}> = [
  {
    name: "coalesce",
    minArgs: 2,
    maxArgs: undefined,
    signature: "coalesce(a, b, ...rest)",
    doc: "The first argument that resolves to something other than null or undefined. Arguments that cannot be resolved (missing path, step not yet run) are skipped; undefined if none.",
  },
  {
    name: "date",
    minArgs: 1,
    maxArgs: 1,
    signature: "date(value)",
    doc: "ISO-8601 string of `new Date(String(value))`; an invalid date is a run-time error.",
  },
  {
    name: "hmac",
    minArgs: 2,
    maxArgs: 2,
    signature: "hmac(key, value)",
    doc: "`sha256:` + hex HMAC-SHA256 with key `String(key)` over `value` (strings as-is, other values JSON-stringified).",
  },
  {
    name: "json",
    minArgs: 1,
    maxArgs: 1,
    signature: "json(value)",
    doc: "`JSON.stringify(value)`.",
  },
  {
    name: "len",
    minArgs: 1,
    maxArgs: 1,
    signature: "len(value)",
    doc: "Length of a string or array, or number of keys of an object; any other value is a run-time error.",
  },
  {
    name: "lower",
    minArgs: 1,
    maxArgs: 1,
    signature: "lower(value)",
    doc: "`String(value).toLowerCase()`.",
  },
  {
    name: "sha256",
    minArgs: 1,
    maxArgs: undefined,
    signature: "sha256(value, ...more)",
    doc: "Canonical-JSON digest (`sha256:<hex>`) of the single argument, or of the array of all arguments when there are several.",
  },
  {
    name: "upper",
    minArgs: 1,
    maxArgs: 1,
    signature: "upper(value)",
    doc: "`String(value).toUpperCase()`.",
  },
];

export const EXPRESSION_ROOTS: ReadonlyArray<{ name: string; doc: string }> = [
  { name: "input", doc: "The workflow input." },
  {
    name: "steps",
    doc: "Results of other steps: `steps.<id>.output` (single-visit result), `steps.<id>.lastOutput` (latest visit, falling back to output) or `steps.<id>.allVisits` (array of all visits). The step must be listed in this step's `needs`.",
  },
  { name: "item", doc: "The current element of the parallel step's `items` (only inside a parallel body)." },
  { name: "workflow", doc: "The whole LWIR document as written (`workflow.metadata.name`)." },
  { name: "step", doc: "The current step's own definition as the document writes it (`step.id`, `step.uses`, `step.with.prompt` with its templates unresolved)." },
];

/** Segment names refused by the grammar (5.4), as dot segments and as quoted bracket indexes. */
export const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** The properties a step reference normally reads (5.6); others are syntactically fine. */
export const STEP_PROPERTIES: ReadonlyArray<{ name: string; doc: string }> = [
  { name: "output", doc: "The step's single-visit result. Ambiguous (refused) when the step has maxVisits > 1." },
  { name: "lastOutput", doc: "The result of the latest visit, falling back to `output`." },
  { name: "allVisits", doc: "Array of the results of all visits (`[output]` or `[]` without visit history)." },
];

const FUNCTION_BY_NAME: ReadonlyMap<string, (typeof EXPRESSION_FUNCTIONS)[number]> = new Map(
  EXPRESSION_FUNCTIONS.map((f) => [f.name, f]),
);
const FUNCTION_NAMES = EXPRESSION_FUNCTIONS.map((f) => f.name).join(", ");
// `steps` before `step` so the longer root wins.
const ROOT_NAMES = ["steps", "step", "input", "item", "workflow"] as const;
const ROOT_SET: ReadonlySet<string> = new Set(ROOT_NAMES);

// ---------------------------------------------------------------------------------------------
// Types

/** A `{{ ... }}` match in a string: offsets of the whole match in the string, and the trimmed body. */
export interface TemplateMatch {
  start: number;
  end: number;
  body: string;
  /** Offset in the string of the first char of the trimmed body. */
  bodyStart: number;
}

export type TemplateStatus = "plain" | "ok" | "malformed" | "unsafe";

export interface TemplateCheck {
  /** plain: no `{{` nor `}}` at all. */
  status: TemplateStatus;
  /** For malformed/unsafe: a specific message (which body, what is wrong). */
  message?: string;
  /** [] for plain and malformed (malformed strings yield no expressions). */
  matches: TemplateMatch[];
  /** For malformed/unsafe: where in the string the problem is (for editor underlines). */
  errorStart?: number;
  errorEnd?: number;
}

export interface StepReference {
  stepId: string;
  property: string | undefined;
  /** Offsets of `steps...id` (+ `.property`); within the body for extractStepReferences, within the string for stepReferencesOf. */
  start: number;
  end: number;
}

export type BinaryOp = "||" | "&&" | "===" | "!==" | ">=" | "<=" | "==" | "!=" | ">" | "<";

/** One step of a path after its root. Offsets cover `.name` / `[index]` including the punctuation. */
export type PathSegmentNode =
  | { kind: "name"; name: string; start: number; end: number }
  | { kind: "index"; value: string | number; quoted: boolean; start: number; end: number };

/** Node of the tolerant parse tree; offsets are within the body given to parseExpression. */
export type ExprNode =
  | { kind: "path"; root: string; rootStart: number; rootEnd: number; segments: PathSegmentNode[]; start: number; end: number }
  | { kind: "call"; name: string; nameStart: number; nameEnd: number; args: ExprNode[]; start: number; end: number }
  | {
      kind: "literal";
      type: "string" | "number" | "boolean" | "null";
      value: string | number | boolean | null;
      start: number;
      end: number;
    }
  | { kind: "binary"; op: BinaryOp; opStart: number; left: ExprNode; right: ExprNode; start: number; end: number }
  /** Text that is not valid; `partial` is what could still be read (e.g. the path before a bad segment). */
  | { kind: "error"; message: string; partial?: ExprNode; start: number; end: number };

export interface ExprError {
  message: string;
  start: number;
  end: number;
}

export interface CompletionContext {
  /**
   * root: a root or function name is being typed; steps: a step id after `steps.` / `steps["`;
   * stepProperty: the property after `steps.<id>.`; path: a later segment of a path;
   * none: nothing to complete here (inside a string literal, a number, after a bad path...).
   */
  kind: "root" | "steps" | "stepProperty" | "path" | "none";
  /** Step id read from `steps.<id>` / `steps["<id>"]` when the path starts with one. */
  stepId?: string;
  /** Path typed before the segment being completed, root included (`["steps", "a"]`); [] for root/none. */
  segments: string[];
  /** Text already typed of the segment being completed (from replaceStart to the offset). */
  prefix: string;
  /** Offset in the body where the completed text starts (the offset minus prefix length). */
  replaceStart: number;
}

// ---------------------------------------------------------------------------------------------
// Character helpers

const CH_LBRACE = 123; // {
const CH_RBRACE = 125; // }

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
/** `[A-Za-z0-9_$]`: the characters 5.8 refuses before `steps`. */
function isIdentChar(c: number): boolean {
  return isAsciiLetter(c) || isDigit(c) || c === 95 /* _ */ || c === 36 /* $ */;
}
/** `[A-Za-z_$]`: first character of a segment. */
function isSegmentStart(c: number): boolean {
  return isAsciiLetter(c) || c === 95 || c === 36;
}
/** `[A-Za-z0-9_$-]`: later characters of a segment. */
function isSegmentChar(c: number): boolean {
  return isIdentChar(c) || c === 45 /* - */;
}
/** The code units JavaScript's String.prototype.trim removes (WhiteSpace and LineTerminator). */
function isJsSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}
function isJsWhitespace(ch: string): boolean {
  return ch.length === 1 && isJsSpace(ch.charCodeAt(0));
}

/** End offset of the segment (5.4) starting at `i`, or -1 when none starts there. */
function segmentEnd(s: string, i: number, limit = s.length): number {
  if (i >= limit || !isSegmentStart(s.charCodeAt(i))) return -1;
  let j = i + 1;
  while (j < limit && isSegmentChar(s.charCodeAt(j))) j++;
  return j;
}

/**
 * Offset just after the closing quote of the literal whose opening quote is at `i`, or -1 when it
 * is not closed. A backslash escapes any next character (5.4).
 */
export function stringLiteralEnd(s: string, i: number, limit = s.length): number {
  const q = s.charCodeAt(i);
  let j = i + 1;
  while (j < limit) {
    const c = s.charCodeAt(j);
    if (c === 92 /* \ */) j += 2;
    else if (c === q) return j + 1;
    else j++;
  }
  return -1;
}

/**
 * Offset of the ")" or "]" that closes the "(" or "[" at `open` (one depth counter for both, quoted text
 * skipped), or -1 when none does before `end` or a quote is never closed. The validator's call parsing and
 * the dry run's evaluator (server/src/run/) find the end of a call this way.
 */
export function matchingClose(s: string, open: number, end = s.length): number {
  let depth = 0;
  let i = open;
  while (i < end) {
    const c = s.charCodeAt(i);
    if (c === 34 || c === 39) {
      const e = stringLiteralEnd(s, i, end);
      if (e < 0) return -1;
      i = e;
      continue;
    }
    if (c === 40 || c === 91) depth++;
    else if ((c === 41 || c === 93) && --depth === 0) return i;
    i++;
  }
  return -1;
}

/** Value of a closed literal: backslash + any character stands for that character. Copied in slices (a literal may be megabytes long). */
export function decodeStringLiteral(raw: string): string {
  const end = raw.length - 1;
  let out = "";
  let from = 1;
  for (let i = raw.indexOf("\\", 1); i >= 0 && i + 1 < end; i = raw.indexOf("\\", from)) {
    out += raw.slice(from, i) + raw[i + 1];
    from = i + 2;
  }
  return out + raw.slice(from, end);
}

function snippet(text: string, max = 60): string {
  return text.length <= max ? text : text.slice(0, max - 1) + "…";
}

// ---------------------------------------------------------------------------------------------
// 5.2 Scanning

export interface TemplateScan {
  /** Every `{{ body }}` match, left to right (what `/\{\{([^{}]+)\}\}/g` finds). */
  matches: TemplateMatch[];
  /** Offset in the string of a `{{` or `}}` left once the matches are removed; undefined when the string scans. */
  malformedAt: number | undefined;
}

/**
 * The 5.2 scanner. Equivalent to the reference's regex plus "remove each matched text once"
 * without its quadratic cost: removing the first occurrence of each match text gives the same
 * verdict as removing the matches where they were found (an earlier copy of a match text can
 * only be made of left-over characters, which then already contain `{{`).
 */
export function scanTemplates(s: string): TemplateScan {
  const matches: TemplateMatch[] = [];
  let malformedAt: number | undefined;
  // The remainder is the concatenation of the gaps between matches; track its last character so
  // a `{{` or `}}` formed across a removed match is caught too.
  let prevCode = -1;
  let prevOffset = -1;
  const checkGap = (from: number, to: number): void => {
    if (malformedAt !== undefined || from >= to) return;
    const first = s.charCodeAt(from);
    if ((first === CH_LBRACE || first === CH_RBRACE) && first === prevCode) {
      malformedAt = prevOffset;
      return;
    }
    const a = s.indexOf("{{", from);
    const b = s.indexOf("}}", from);
    const hit = Math.min(a < 0 || a + 1 >= to ? Infinity : a, b < 0 || b + 1 >= to ? Infinity : b);
    if (hit !== Infinity) {
      malformedAt = hit;
      return;
    }
    prevCode = s.charCodeAt(to - 1);
    prevOffset = to - 1;
  };
  let gapStart = 0;
  let pos = 0;
  for (;;) {
    const i = s.indexOf("{{", pos);
    if (i < 0) break;
    let j = i + 2;
    while (j < s.length) {
      const c = s.charCodeAt(j);
      if (c === CH_LBRACE || c === CH_RBRACE) break;
      j++;
    }
    if (j > i + 2 && s.charCodeAt(j) === CH_RBRACE && s.charCodeAt(j + 1) === CH_RBRACE) {
      checkGap(gapStart, i);
      const raw = s.slice(i + 2, j);
      const body = raw.trim();
      const lead = body === "" ? raw.length : raw.length - raw.trimStart().length;
      matches.push({ start: i, end: j + 2, body, bodyStart: i + 2 + lead });
      gapStart = pos = j + 2;
    } else {
      pos = i + 1;
    }
  }
  checkGap(gapStart, s.length);
  return { matches, malformedAt };
}

function malformedMessage(s: string, at: number): string {
  const where = `character ${at + 1} of the text`;
  if (s.startsWith("{{}}", at)) return `The "{{}}" at ${where} has no expression between the braces.`;
  const opening = s.startsWith("{{", at);
  return `The "${s.slice(at, at + 2)}" at ${where} has no ${opening ? 'closing "}}"' : 'opening "{{"'}: each expression is written {{ … }}, with no "{" or "}" inside it.`;
}

/** An expression the runtime refuses, the reason after it: `{{ x + 1 }} is not a valid expression: arithmetic is not supported.` */
export function refusedExpression(body: string, reason: string): string {
  return `{{ ${snippet(body)} }} is not a valid expression: ${reason.replace(/[.\s]+$/, "")}.`;
}
/** Catalog 5.2–5.5: one string in `with`/`input`. */
export function checkTemplateString(s: string, itemAllowed: boolean): TemplateCheck {
  if (typeof s !== "string" || (s.indexOf("{{") < 0 && s.indexOf("}}") < 0)) return { status: "plain", matches: [] };
  const scan = scanTemplates(s);
  if (scan.malformedAt !== undefined) {
    const at = scan.malformedAt;
    return {
      status: "malformed",
      message: malformedMessage(s, at),
      matches: [],
      errorStart: at,
      errorEnd: at + 2,
    };
  }
  for (const m of scan.matches) {
    const problem = bodyProblem(m.body, itemAllowed);
    if (problem !== undefined) {
      // Underline the precise part when known and non-empty, else the whole {{ ... }}.
      const precise = problem.start !== undefined && problem.end !== undefined && problem.end > problem.start;
      const errorStart = precise ? m.bodyStart + (problem.start as number) : m.start;
      const errorEnd = precise ? m.bodyStart + (problem.end as number) : m.end;
      return {
        status: "unsafe",
        message: refusedExpression(m.body, problem.message),
        matches: scan.matches,
        errorStart,
        errorEnd,
      };
    }
  }
  return { status: "ok", matches: scan.matches };
}

// ---------------------------------------------------------------------------------------------
// 5.3 Safety screen

const FORBIDDEN_WORD_RE = /\b(?:await|new|function|import|require|process|globalThis|global|eval|constructor|prototype)\b/;
// After string literals are deleted: `item` at the start or after a non-path character, followed
// by the end, whitespace or one of . [ ] , = ! < > | & )
const ITEM_ROOT_RE = /(?:^|[^A-Za-z0-9_$.\-])item(?=$|[\s.[\],=!<>|&)])/;
const STEPS_INDEX_RE = /(?:^|[^A-Za-z0-9_$.\-])steps *\[ *[0-9]+ *\]/;

/**
 * The body with its complete string literals (with backslash escapes) deleted, as a regex
 * replace would: a quote that is never closed stays as an ordinary character.
 */
function deleteStringLiterals(body: string): string {
  if (body.indexOf('"') < 0 && body.indexOf("'") < 0) return body;
  let out = "";
  let from = 0;
  // Once a literal opened by a given quote kind runs off the end, every later one of that kind
  // does too (the escape parsing re-synchronises), so remembering it keeps this linear.
  let doubleOpen = false;
  let singleOpen = false;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c !== 34 && c !== 39) continue;
    if ((c === 34 && doubleOpen) || (c === 39 && singleOpen)) continue;
    const end = stringLiteralEnd(body, i);
    if (end < 0) {
      if (c === 34) doubleOpen = true;
      else singleOpen = true;
      continue;
    }
    out += body.slice(from, i);
    from = end;
    i = end - 1;
  }
  return out + body.slice(from);
}

/** Catalog 5.3 rule 3 pattern: does the body use the `item` root (outside string literals)? */
export function usesItemRoot(body: string): boolean {
  if (typeof body !== "string" || body.indexOf("item") < 0) return false;
  return ITEM_ROOT_RE.test(deleteStringLiterals(body));
}

interface BodyProblem {
  message: string;
  /** Range within the body, when a precise one is known. */
  start?: number;
  end?: number;
}

function safetyProblem(body: string, itemAllowed: boolean): BodyProblem | undefined {
  if (body.length === 0) return { message: "the expression is empty" };
  const semi = body.indexOf(";");
  if (semi >= 0) return { message: 'it contains ";" (only one expression is allowed, no statements)', start: semi, end: semi + 1 };
  const tick = body.indexOf("`");
  if (tick >= 0) return { message: "it contains a backtick (template literals are not supported)", start: tick, end: tick + 1 };
  const arrow = body.indexOf("=>");
  if (arrow >= 0) return { message: 'it contains "=>" (functions are not supported)', start: arrow, end: arrow + 2 };
  const proto = body.indexOf("__proto__");
  if (proto >= 0) return { message: 'it contains "__proto__"', start: proto, end: proto + 9 };
  const word = FORBIDDEN_WORD_RE.exec(body);
  if (word) {
    return {
      message: `it contains the reserved word "${word[0]}" (refused anywhere in an expression, even inside quotes, as a path segment or in a hyphenated id)`,
      start: word.index,
      end: word.index + word[0].length,
    };
  }
  if (!itemAllowed && body.indexOf("item") >= 0) {
    const stripped = deleteStringLiterals(body);
    if (ITEM_ROOT_RE.test(stripped)) {
      const at = findItemRootOffset(body);
      return {
        message: '"item" can only be used inside the body of a parallel step',
        start: at,
        end: at === undefined ? undefined : at + 4,
      };
    }
  }
  if (body.indexOf("steps") >= 0) {
    const m = STEPS_INDEX_RE.exec(deleteStringLiterals(body));
    if (m) {
      const at = locateOutsideStrings(body, "steps");
      return {
        message: 'numeric step indexes such as "steps[0]" are not allowed; write steps.<id> or steps["<id>"]',
        start: at,
        end: at === undefined ? undefined : at + 5,
      };
    }
  }
  return undefined;
}

/** The first offset outside string literals where `matches` holds (for underlines only). */
function firstOutsideStrings(body: string, matches: (i: number) => boolean): number | undefined {
  let i = 0;
  while (i < body.length) {
    const c = body.charCodeAt(i);
    if (c === 34 || c === 39) {
      const end = stringLiteralEnd(body, i);
      if (end > 0) {
        i = end;
        continue;
      }
    }
    if (matches(i)) return i;
    i++;
  }
  return undefined;
}

/** Best-effort offset of the first `item` root outside string literals. */
function findItemRootOffset(body: string): number | undefined {
  return firstOutsideStrings(body, (i) => {
    if (!body.startsWith("item", i)) return false;
    const prev = i === 0 ? -1 : body.charCodeAt(i - 1);
    const next = body[i + 4];
    return !(prev >= 0 && (isSegmentChar(prev) || prev === 46)) && (next === undefined || /[\s.[\],=!<>|&)]/.test(next));
  });
}

function locateOutsideStrings(body: string, text: string): number | undefined {
  return firstOutsideStrings(body, (i) => body.startsWith(text, i));
}

// ---------------------------------------------------------------------------------------------
// 5.4 / 5.5 Grammar: a tolerant parser that follows the reference's splitting algorithm exactly,
// so "no errors" is the reference's "matches the grammar".

/** Deeper nesting of calls/brackets is refused rather than risking the stack (not in the catalog). */
export const MAX_EXPRESSION_NESTING = 300;

const COMPARISON_OPS: readonly BinaryOp[] = ["===", "!==", ">=", "<=", "==", "!=", ">", "<"];
const NUMBER_RE = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;
const NUMBERISH_RE = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]*)?$/;
const CALL_HEAD_RE = /^([A-Za-z_$][A-Za-z0-9_$]*)\s*\(/;
const DIGITS_RE = /^[0-9]+$/;

function isOrAt(s: string, i: number, c: number): boolean {
  return c === 124 && s.charCodeAt(i + 1) === 124;
}
function isAndAt(s: string, i: number, c: number): boolean {
  return c === 38 && s.charCodeAt(i + 1) === 38;
}
function isCommaAt(_s: string, _i: number, c: number): boolean {
  return c === 44;
}
/** A comparison starts here: "<", ">", or "=="/"!=" (a lone "=" or "!" is not an operator). */
function isComparisonStart(s: string, i: number, c: number): boolean {
  if (c === 60 || c === 62) return true;
  return (c === 61 || c === 33) && s.charCodeAt(i + 1) === 61;
}

class Parser {
  readonly errors: ExprError[] = [];
  constructor(private readonly src: string) {}

  private error(message: string, start: number, end: number, partial?: ExprNode): ExprNode {
    this.errors.push({ message, start, end });
    return partial ? { kind: "error", message, partial, start, end } : { kind: "error", message, start, end };
  }

  /** The range with JavaScript-trim whitespace removed from both ends. */
  private trim(start: number, end: number): [number, number] {
    const s = this.src;
    // Code-unit-wise trimming equals trim(): every whitespace is one BMP code unit.
    while (start < end && isJsSpace(s.charCodeAt(start))) start++;
    while (end > start && isJsSpace(s.charCodeAt(end - 1))) end--;
    return [start, end];
  }

  /**
   * Next top-level position in [from, end) where `test` holds: outside quotes (backslash escapes
   * inside them) and at depth 0 of one counter shared by ( ) [ ]. -1 when none.
   */
  private nextTopLevel(from: number, end: number, test: (s: string, i: number, c: number) => boolean): number {
    const s = this.src;
    let depth = 0;
    let i = from;
    while (i < end) {
      const c = s.charCodeAt(i);
      if (c === 34 || c === 39) {
        let j = i + 1;
        while (j < end) {
          const d = s.charCodeAt(j);
          if (d === 92) j += 2;
          else if (d === c) break;
          else j++;
        }
        i = j + 1;
        continue;
      }
      if (c === 40 || c === 91) depth++;
      else if (c === 41 || c === 93) depth--;
      else if (depth === 0 && test(s, i, c)) return i;
      i++;
    }
    return -1;
  }

  /** Parts of [start, end) between top-level occurrences of `sep`; sepAt is the separator before each part (-1 for the first). */
  private split(start: number, end: number, sep: string): { start: number; end: number; sepAt: number }[] {
    const parts: { start: number; end: number; sepAt: number }[] = [];
    const test = sep === "||" ? isOrAt : sep === "&&" ? isAndAt : isCommaAt;
    let from = start;
    let sepAt = -1;
    // Separators end where the scan resumes, so the quote/depth state restarts at depth 0 there,
    // which is where it was (separators are only found at depth 0 outside quotes).
    for (;;) {
      const at = this.nextTopLevel(from, end, test);
      if (at < 0) break;
      parts.push({ start: from, end: at, sepAt });
      sepAt = at;
      from = at + sep.length;
    }
    parts.push({ start: from, end, sepAt });
    return parts;
  }

  /** First top-level comparison operator, trying the longer spellings first at each position. */
  private findComparison(start: number, end: number): { at: number; op: BinaryOp } | undefined {
    const at = this.nextTopLevel(start, end, isComparisonStart);
    if (at < 0) return undefined;
    const s = this.src;
    for (const op of COMPARISON_OPS) {
      if (at + op.length <= end && s.startsWith(op, at)) return { at, op };
    }
    return undefined;
  }

  parseExpr(start: number, end: number, depth: number): ExprNode {
    if (depth > MAX_EXPRESSION_NESTING) {
      return this.error(`the expression is nested too deeply (more than ${MAX_EXPRESSION_NESTING} levels)`, start, end);
    }
    return this.parseChain(start, end, "||", depth);
  }

  private parseChain(start: number, end: number, op: "||" | "&&", depth: number): ExprNode {
    [start, end] = this.trim(start, end);
    const parts = this.split(start, end, op);
    const sub = (a: number, b: number): ExprNode =>
      op === "||" ? this.parseChain(a, b, "&&", depth) : this.parseComparison(a, b, depth);
    if (parts.length === 1) return sub(start, end);
    let node: ExprNode | undefined;
    for (let k = 0; k < parts.length; k++) {
      const p = parts[k] as (typeof parts)[number];
      const [a, b] = this.trim(p.start, p.end);
      // An empty side is reported on the neighbouring operator.
      const opAt = k === 0 ? (parts[1] as (typeof parts)[number]).sepAt : p.sepAt;
      const right =
        a === b ? this.error(`missing operand ${k === 0 ? "before" : "after"} "${op}"`, opAt, opAt + op.length) : sub(a, b);
      node = node === undefined ? right : { kind: "binary", op, opStart: p.sepAt, left: node, right, start, end: right.end };
    }
    return node ?? this.error("missing operand", start, end);
  }

  private parseComparison(start: number, end: number, depth: number): ExprNode {
    [start, end] = this.trim(start, end);
    const cmp = this.findComparison(start, end);
    if (!cmp) return this.parseOperand(start, end, depth);
    const opEnd = cmp.at + cmp.op.length;
    const [la, lb] = this.trim(start, cmp.at);
    const left = la === lb ? this.error(`missing operand before "${cmp.op}"`, cmp.at, opEnd) : this.parseOperand(la, lb, depth);
    const [ra, rb] = this.trim(opEnd, end);
    let right: ExprNode;
    if (ra === rb) right = this.error(`missing operand after "${cmp.op}"`, cmp.at, opEnd);
    else {
      const again = this.findComparison(ra, rb);
      right = again
        ? this.error(
            `comparisons cannot be chained: "${snippet(this.src.slice(start, end), 40)}" has a second operator "${again.op}" (at most one comparison per && / || term)`,
            again.at,
            again.at + again.op.length,
            this.parseOperand(ra, again.at, depth),
          )
        : this.parseOperand(ra, rb, depth);
    }
    return { kind: "binary", op: cmp.op, opStart: cmp.at, left, right, start, end };
  }

  private parseOperand(start: number, end: number, depth: number): ExprNode {
    [start, end] = this.trim(start, end);
    const s = this.src;
    if (start === end) return this.error("missing operand", start, end);
    const text = s.slice(start, end);
    const c0 = s.charCodeAt(start);
    if (c0 === 34 || c0 === 39) {
      const close = stringLiteralEnd(s, start, end);
      if (close === end) return { kind: "literal", type: "string", value: decodeStringLiteral(text), start, end };
      if (close < 0) return this.error("unterminated string literal", start, end);
      return this.trailingError(close, end, {
        kind: "literal",
        type: "string",
        value: decodeStringLiteral(s.slice(start, close)),
        start,
        end: close,
      });
    }
    if (NUMBER_RE.test(text)) return { kind: "literal", type: "number", value: Number(text), start, end };
    if (text === "true" || text === "false") return { kind: "literal", type: "boolean", value: text === "true", start, end };
    if (text === "null") return { kind: "literal", type: "null", value: null, start, end };
    const head = CALL_HEAD_RE.exec(text);
    if (head) return this.parseCall(start, end, head[1] ?? "", start + head[0].length - 1, depth);
    if (isSegmentStart(c0)) return this.parsePath(start, end);
    return this.error(this.badOperandMessage(text), start, end);
  }

  private badOperandMessage(text: string): string {
    if (text.startsWith("!")) return 'negation ("!") is not supported; compare instead, e.g. x == false';
    if (text.startsWith("(")) return "parentheses for grouping are not supported";
    if (text.startsWith("[")) return "array literals are not supported";
    if (text.startsWith("{")) return "object literals are not supported";
    if (NUMBERISH_RE.test(text)) {
      if (/[eE]/.test(text)) return `"${text}": numbers cannot use exponent notation`;
      if (text.startsWith("+")) return `"${text}": numbers cannot start with "+"`;
      if (/^-?\./.test(text)) return `"${text}": write a digit before the decimal point (0.5, not .5)`;
      if (text.endsWith(".")) return `"${text}": write a digit after the decimal point`;
      return `"${text}": numbers cannot have leading zeros`;
    }
    if (/^-/.test(text)) return `"${snippet(text, 30)}": negation and arithmetic are not supported (only number literals may start with "-")`;
    if (/^[0-9]/.test(text)) return `"${snippet(text, 30)}" is not a valid number or path`;
    return `"${snippet(text, 30)}" is not a valid operand (expected a string, number, true, false, null, a function call or a path)`;
  }

  /** Error for unexpected text from `at` on, underlined from its first non-space character. */
  private trailingError(at: number, end: number, partial: ExprNode): ExprNode {
    let from = at;
    while (from < end - 1 && isJsSpace(this.src.charCodeAt(from))) from++;
    return this.error(this.afterOperandMessage(at, end), from, end, partial);
  }

  private afterOperandMessage(at: number, end: number): string {
    const rest = this.src.slice(at, end);
    const t = rest.trimStart();
    if (/^[+\-*/%]/.test(t)) return "arithmetic is not supported";
    if (t.startsWith("?")) return "the conditional operator (?:) is not supported";
    if (/^[|&]/.test(t)) return `"${t[0]}" is not an operator here (use || or &&)`;
    if (t.startsWith("=")) return 'assignment is not supported (use == or === to compare)';
    if (rest !== t) return `unexpected "${snippet(t, 20)}" after the operand (a path has no spaces inside it, and operands are joined by operators)`;
    return `unexpected "${snippet(t, 20)}" after the operand`;
  }

  private parseCall(start: number, end: number, name: string, open: number, depth: number): ExprNode {
    const s = this.src;
    const nameEnd = start + name.length;
    const close = matchingClose(s, open, end);
    const argsEnd = close < 0 ? end : close;
    const args: ExprNode[] = [];
    const [ia, ib] = this.trim(open + 1, argsEnd);
    if (ia < ib) {
      for (const p of this.split(ia, ib, ",")) {
        const [a, b] = this.trim(p.start, p.end);
        if (a === b) args.push(this.error(`empty argument in ${name}(...) (write each argument between commas)`, a, a));
        else args.push(this.parseExpr(a, b, depth + 1));
      }
    }
    const node: ExprNode = { kind: "call", name, nameStart: start, nameEnd, args, start, end: close < 0 ? end : close + 1 };
    if (close < 0) return this.error(`missing ")" to close ${name}(`, open, open + 1, node);
    if (s.charCodeAt(close) !== 41) return this.error(`"]" where ")" was expected to close ${name}(`, close, close + 1, node);
    if (close + 1 !== end) return this.trailingError(close + 1, end, node);
    const fn = FUNCTION_BY_NAME.get(name);
    // The runtime looks the name up in a plain object: an inherited Object.prototype name is "found",
    // with any number of arguments (catalog 5.5). The editor warns about it separately.
    if (!fn && OBJECT_PROTOTYPE_NAMES.has(name)) return node;
    if (!fn) return this.error(`unknown function "${name}" (available: ${FUNCTION_NAMES})`, start, nameEnd, node);
    const n = args.length;
    if (n < fn.minArgs || (fn.maxArgs !== undefined && n > fn.maxArgs)) {
      const want =
        fn.maxArgs === fn.minArgs
          ? `exactly ${fn.minArgs} argument${fn.minArgs === 1 ? "" : "s"}`
          : `at least ${fn.minArgs} argument${fn.minArgs === 1 ? "" : "s"}`;
      return this.error(`${name}() takes ${want}, got ${n}: ${fn.signature}`, start, end, node);
    }
    return node;
  }

  private parsePath(start: number, end: number): ExprNode {
    const s = this.src;
    let identEnd = start;
    while (identEnd < end && isIdentChar(s.charCodeAt(identEnd))) identEnd++;
    const word = s.slice(start, identEnd);
    const root = ROOT_NAMES.find((r) => word === r);
    if (!root) {
      return this.error(`unknown root "${snippet(word, 30)}" (expected input, steps, item, workflow or step)`, start, identEnd);
    }
    const segments: PathSegmentNode[] = [];
    let i = identEnd;
    // The path read so far, kept as `partial` on errors (completion and hover still use it).
    const node = (): ExprNode => ({ kind: "path", root, rootStart: start, rootEnd: identEnd, segments: segments.slice(), start, end: i });
    while (i < end) {
      const c = s.charCodeAt(i);
      if (c === 46 /* . */) {
        const e = segmentEnd(s, i + 1, end);
        if (e < 0) {
          const next = s[i + 1];
          const msg =
            i + 1 >= end
              ? 'the path ends with "."'
              : next !== undefined && /[0-9]/.test(next)
                ? `a segment after "." cannot start with a digit; write [${/^[0-9]+/.exec(s.slice(i + 1, end))?.[0] ?? "0"}] instead`
                : next === "-"
                  ? 'a segment cannot start with "-"'
                  : isJsWhitespace(next ?? "")
                    ? "a path cannot contain whitespace"
                    : `"${next}" cannot start a path segment`;
          return this.error(msg, i, Math.min(end, i + 2), node());
        }
        const name = s.slice(i + 1, e);
        if (FORBIDDEN_SEGMENTS.has(name)) return this.error(`"${name}" is not allowed as a path segment`, i + 1, e, node());
        segments.push({ kind: "name", name, start: i, end: e });
        i = e;
        continue;
      }
      if (c === 91 /* [ */) {
        const c1 = s.charCodeAt(i + 1);
        if (i + 1 < end && (c1 === 34 || c1 === 39)) {
          const e = stringLiteralEnd(s, i + 1, end);
          if (e < 0) return this.error("unterminated string literal in [ ]", i + 1, end, node());
          if (e >= end || s.charCodeAt(e) !== 93) return this.error('expected "]" after the quoted index', e, Math.min(end, e + 1), node());
          const value = decodeStringLiteral(s.slice(i + 1, e));
          if (FORBIDDEN_SEGMENTS.has(value)) return this.error(`"${value}" is not allowed as a path segment`, i + 1, e, node());
          segments.push({ kind: "index", value, quoted: true, start: i, end: e + 1 });
          i = e + 1;
          continue;
        }
        let j = i + 1;
        while (j < end && isDigit(s.charCodeAt(j))) j++;
        if (j > i + 1 && j < end && s.charCodeAt(j) === 93) {
          const digits = s.slice(i + 1, j);
          segments.push({ kind: "index", value: Number(digits), quoted: false, start: i, end: j + 1 });
          i = j + 1;
          continue;
        }
        return this.error("an index in [ ] must be digits or a quoted string, with no spaces", i, Math.min(end, Math.max(j, i + 1) + 1), node());
      }
      if (c === 40 /* ( */) return this.error("method calls are not supported; use the functions " + FUNCTION_NAMES, i, end, node());
      return this.trailingError(i, end, node());
    }
    return node();
  }
}

/** Cheap pre-check so deep nesting is refused before any recursion (keeps the stack and the work bounded). */
export function nestingTooDeep(body: string): boolean {
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c === 34 || c === 39) {
      const e = stringLiteralEnd(body, i);
      if (e < 0) break;
      i = e - 1;
    } else if (c === 40 || c === 91) {
      if (++depth > MAX_EXPRESSION_NESTING) return true;
    } else if (c === 41 || c === 93) depth--;
  }
  return false;
}

/** The calls of a parsed expression that `wanted` picks, left to right, through arguments and operators. */
export function callsIn(root: ExprNode, wanted: (name: string) => boolean): Array<Extract<ExprNode, { kind: "call" }>> {
  const out: Array<Extract<ExprNode, { kind: "call" }>> = [];
  const stack: ExprNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === "call") {
      if (wanted(node.name)) out.push(node);
      for (let k = node.args.length - 1; k >= 0; k--) stack.push(node.args[k]);
    } else if (node.kind === "binary") {
      stack.push(node.right, node.left);
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Tolerant parse of one body (the grammar of 5.4/5.5 only, no safety screen); errors are empty exactly when the grammar accepts it. */
export function parseExpression(body: string): { node: ExprNode | undefined; errors: ExprError[] } {
  if (typeof body !== "string") return { node: undefined, errors: [{ message: "not a string", start: 0, end: 0 }] };
  const p = new Parser(body);
  if (nestingTooDeep(body)) {
    const message = `the expression is nested too deeply (more than ${MAX_EXPRESSION_NESTING} levels)`;
    return { node: { kind: "error", message, start: 0, end: body.length }, errors: [{ message, start: 0, end: body.length }] };
  }
  if (body.trim() === "") {
    return { node: undefined, errors: [{ message: "the expression is empty", start: 0, end: body.length }] };
  }
  const node = p.parseExpr(0, body.length, 0);
  return { node, errors: p.errors };
}

// A path made of dot segments only: the common body. Such a body is grammatical, and of the
// safety rules only the forbidden words, `__proto__` and a leading `item` root can apply to it.
const SIMPLE_PATH_RE = /^(?:input|steps|step|workflow|item)(?:\.[A-Za-z_$][A-Za-z0-9_$-]*)*$/;

function bodyProblem(body: string, itemAllowed: boolean): BodyProblem | undefined {
  if (
    SIMPLE_PATH_RE.test(body) &&
    !FORBIDDEN_WORD_RE.test(body) &&
    body.indexOf("__proto__") < 0 &&
    (itemAllowed || !(body.startsWith("item") && (body.length === 4 || body.charCodeAt(4) === 46)))
  ) {
    return undefined;
  }
  const unsafe = safetyProblem(body, itemAllowed);
  if (unsafe) return unsafe;
  const { errors } = parseExpression(body);
  const first = errors[0];
  return first ? { message: first.message, start: first.start, end: first.end } : undefined;
}

/** Catalog 5.3–5.5 on one trimmed body; undefined when acceptable, else the reason. */
export function checkExpressionBody(body: string, itemAllowed: boolean): string | undefined {
  if (typeof body !== "string") return "not a string";
  return bodyProblem(body, itemAllowed)?.message;
}

// ---------------------------------------------------------------------------------------------
// 5.7 Whole-string templates

/** Catalog 5.7 (decision when, parallel items/itemKey): undefined when acceptable, else the reason. For itemKey pass requireItem = true. */
export function checkWholeTemplate(s: unknown, itemAllowed: boolean, requireItem = false, name = "The value"): string | undefined {
  if (typeof s !== "string") return `${name} must be a string holding one {{ … }} template, not ${describeValue(s)}.`;
  if (!s.startsWith("{{") || !s.endsWith("}}")) {
    return s.trim().startsWith("{{") && s.trim().endsWith("}}")
      ? `${name} must be exactly one {{ … }} template, with nothing outside it (not even spaces).`
      : `${name} must be exactly one {{ … }} template, with nothing outside it.`;
  }
  const scan = scanTemplates(s);
  if (scan.malformedAt !== undefined) return malformedMessage(s, scan.malformedAt);
  if (scan.matches.length !== 1) return `${name} must hold exactly one expression, not ${scan.matches.length}.`;
  const body = (scan.matches[0] as TemplateMatch).body;
  const reason = checkExpressionBody(body, itemAllowed);
  if (reason !== undefined) return refusedExpression(body, reason);
  if (requireItem && !usesItemRoot(body)) return `${name} must use item, the branch's element (e.g. {{ item.id }}).`;
  return undefined;
}

function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (v === undefined) return "missing";
  return `a ${typeof v}`;
}

// ---------------------------------------------------------------------------------------------
// 5.8 Step references

/** Catalog 5.8 on one body (bodies that failed 5.3/5.4 still yield references). */
export function extractStepReferences(body: string): StepReference[] {
  const refs: StepReference[] = [];
  if (typeof body !== "string") return refs;
  if (body.indexOf("steps") < 0) return refs;
  let i = 0;
  const n = body.length;
  while (i < n) {
    const c = body.charCodeAt(i);
    if (c === 34 || c === 39) {
      // An unclosed literal runs to the end of the body.
      const e = stringLiteralEnd(body, i);
      i = e < 0 ? n : e;
      continue;
    }
    if (c === 115 /* s */ && body.startsWith("steps", i) && (i === 0 || !isIdentChar(body.charCodeAt(i - 1)))) {
      let stepId: string | undefined;
      let k = i + 5;
      const next = body.charCodeAt(k);
      if (next === 46 /* . */) {
        const e = segmentEnd(body, k + 1);
        // A forbidden name (steps.constructor) makes no reference at all, as in the bracket form (catalog 5.8).
        if (e > 0 && !FORBIDDEN_SEGMENTS.has(body.slice(k + 1, e))) {
          stepId = body.slice(k + 1, e);
          k = e;
        }
      } else if (next === 91 /* [ */) {
        const q = body.charCodeAt(k + 1);
        if (q === 34 || q === 39) {
          const e = stringLiteralEnd(body, k + 1);
          if (e > 0 && body.charCodeAt(e) === 93) {
            const id = decodeStringLiteral(body.slice(k + 1, e));
            if (!FORBIDDEN_SEGMENTS.has(id)) {
              stepId = id;
              k = e + 1;
            }
          }
        }
      }
      if (stepId !== undefined) {
        let property: string | undefined;
        if (body.charCodeAt(k) === 46) {
          const e = segmentEnd(body, k + 1);
          if (e > 0) {
            property = body.slice(k + 1, e);
            k = e;
          }
        }
        refs.push({ stepId, property, start: i, end: k });
        i = k;
        continue;
      }
    }
    i++;
  }
  return refs;
}

/** Convenience: references of every body of a string (offsets within the string), [] for plain and malformed strings. */
export function stepReferencesOf(s: string): StepReference[] {
  if (typeof s !== "string" || s.indexOf("steps") < 0 || (s.indexOf("{{") < 0 && s.indexOf("}}") < 0)) return [];
  const scan = scanTemplates(s);
  if (scan.malformedAt !== undefined) return [];
  const out: StepReference[] = [];
  for (const m of scan.matches) {
    for (const r of extractStepReferences(m.body)) {
      out.push({ stepId: r.stepId, property: r.property, start: m.bodyStart + r.start, end: m.bodyStart + r.end });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Completion context (language server)

/**
 * The `{{ ...` around `offset` in a string, possibly not closed yet (while typing): `bodyStart`
 * is just after `{{`, `body` runs to the next `}}` (or to the first brace, or the end) and is not
 * trimmed, so `offset - bodyStart` is the offset to give completionContextAt. undefined when the
 * offset is not inside one.
 */
export function templateAt(s: string, offset: number): { start: number; bodyStart: number; body: string; closed: boolean } | undefined {
  if (typeof s !== "string" || !(offset >= 0 && offset <= s.length)) return undefined;
  // Walk back to the nearest brace; it must be the second "{" of a "{{".
  let i = offset - 1;
  while (i >= 0) {
    const c = s.charCodeAt(i);
    if (c === CH_LBRACE || c === CH_RBRACE) break;
    i--;
  }
  if (i < 1 || s.charCodeAt(i) !== CH_LBRACE || s.charCodeAt(i - 1) !== CH_LBRACE) return undefined;
  const bodyStart = i + 1;
  let j = offset;
  while (j < s.length) {
    const c = s.charCodeAt(j);
    if (c === CH_LBRACE || c === CH_RBRACE) break;
    j++;
  }
  const closed = s.charCodeAt(j) === CH_RBRACE && s.charCodeAt(j + 1) === CH_RBRACE;
  return { start: i - 1, bodyStart, body: s.slice(bodyStart, j), closed };
}

interface Tok {
  kind: "ident" | "number" | "string" | "punct";
  text: string;
  start: number;
  end: number;
  /** For strings: decoded value; undefined when unterminated. */
  value?: string;
  closed?: boolean;
}

/** Small lexer for completion: identifiers after "." may contain hyphens (path segments). */
function lex(text: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isJsWhitespace(text[i] ?? "")) {
      i++;
      continue;
    }
    if (c === 34 || c === 39) {
      const e = stringLiteralEnd(text, i);
      if (e < 0) {
        toks.push({ kind: "string", text: text.slice(i), start: i, end: n, closed: false });
        break;
      }
      toks.push({ kind: "string", text: text.slice(i, e), start: i, end: e, value: decodeStringLiteral(text.slice(i, e)), closed: true });
      i = e;
      continue;
    }
    const prev = toks[toks.length - 1];
    if (isSegmentStart(c)) {
      const afterDot = prev !== undefined && prev.kind === "punct" && prev.text === "." && prev.end === i;
      let j = i + 1;
      while (j < n && (afterDot ? isSegmentChar(text.charCodeAt(j)) : isIdentChar(text.charCodeAt(j)))) j++;
      toks.push({ kind: "ident", text: text.slice(i, j), start: i, end: j });
      i = j;
      continue;
    }
    if (isDigit(c)) {
      let j = i + 1;
      while (j < n && (isIdentChar(text.charCodeAt(j)) || text[j] === ".")) j++;
      toks.push({ kind: "number", text: text.slice(i, j), start: i, end: j });
      i = j;
      continue;
    }
    toks.push({ kind: "punct", text: text[i] ?? "", start: i, end: i + 1 });
    i++;
  }
  return toks;
}

/**
 * Reads the path that ends just before token index `last` (inclusive) backwards, requiring the
 * tokens to touch (paths have no spaces). Returns the segments root first, or undefined.
 */
function pathEndingAt(toks: Tok[], last: number): string[] | undefined {
  const segs: string[] = [];
  let k = last;
  for (;;) {
    const t = toks[k];
    if (!t) return undefined;
    const touchesNext = (idx: number): boolean => {
      const a = toks[idx];
      const b = toks[idx + 1];
      return a !== undefined && b !== undefined && a.end === b.start;
    };
    if (t.kind === "ident") {
      const before = toks[k - 1];
      if (before && before.kind === "punct" && before.text === "." && touchesNext(k - 1)) {
        segs.unshift(t.text);
        k -= 2;
        if (!toks[k] || !touchesNext(k)) return undefined;
        continue;
      }
      // The root: must not itself follow something that makes it a segment.
      if (!ROOT_SET.has(t.text)) return undefined;
      if (before && before.end === t.start && (before.kind === "ident" || before.kind === "number" || before.text === "." || before.text === "]")) return undefined;
      segs.unshift(t.text);
      return segs;
    }
    if (t.kind === "punct" && t.text === "]") {
      const idx = toks[k - 1];
      const open = toks[k - 2];
      if (!idx || !open || open.text !== "[" || !touchesNext(k - 2) || !touchesNext(k - 1)) return undefined;
      if (idx.kind === "string" && idx.closed) segs.unshift(idx.value ?? "");
      else if (idx.kind === "number" && DIGITS_RE.test(idx.text)) segs.unshift(idx.text);
      else return undefined;
      k -= 3;
      if (!toks[k] || !touchesNext(k)) return undefined;
      continue;
    }
    return undefined;
  }
}

function contextFromPath(segments: string[], prefix: string, replaceStart: number): CompletionContext {
  if (segments[0] === "steps") {
    if (segments.length === 1) return { kind: "steps", segments, prefix, replaceStart };
    const stepId = segments[1];
    if (segments.length === 2) return { kind: "stepProperty", stepId, segments, prefix, replaceStart };
    return { kind: "path", stepId, segments, prefix, replaceStart };
  }
  return { kind: "path", segments, prefix, replaceStart };
}

/** What is being typed at `offset` in a possibly incomplete body (e.g. "steps.", "steps.a.", "steps.a.output.x", "inp", "coalesce(input.a, st"). */
export function completionContextAt(body: string, offset: number): CompletionContext {
  const none = (at: number): CompletionContext => ({ kind: "none", segments: [], prefix: "", replaceStart: at });
  if (typeof body !== "string") return none(0);
  const at = Math.max(0, Math.min(Number.isFinite(offset) ? Math.floor(offset) : body.length, body.length));
  const toks = lex(body.slice(0, at));
  const last = toks[toks.length - 1];
  if (last && last.kind === "string" && !last.closed) {
    // Typing inside quotes: only a step id after `steps[` is worth completing.
    const open = toks[toks.length - 2];
    const root = toks[toks.length - 3];
    if (open && root && open.text === "[" && open.end === last.start && root.end === open.start && root.kind === "ident" && root.text === "steps") {
      const before = toks[toks.length - 4];
      if (!before || before.end !== root.start || !(before.kind === "ident" || before.kind === "number")) {
        let prefix = "";
        const raw = last.text.slice(1);
        for (let j = 0; j < raw.length; j++) {
          if (raw.charCodeAt(j) === 92 && j + 1 < raw.length) j++;
          prefix += raw[j];
        }
        return { kind: "steps", segments: ["steps"], prefix, replaceStart: last.start + 1 };
      }
    }
    return none(at);
  }
  let prefix = "";
  let replaceStart = at;
  let k = toks.length - 1;
  if (last && last.end === at && last.kind === "ident") {
    prefix = last.text;
    replaceStart = last.start;
    k--;
  } else if (last && last.end === at && (last.kind === "number" || last.kind === "string")) {
    return none(at);
  }
  const before = toks[k];
  if (before && before.text === "[" && before.kind === "punct") return none(at);
  if (before && before.kind === "punct" && before.text === "." && before.end === replaceStart) {
    const segs = pathEndingAt(toks, k - 1);
    const prevTok = toks[k - 1];
    if (!segs || !prevTok || prevTok.end !== before.start) return none(at);
    return contextFromPath(segs, prefix, replaceStart);
  }
  if (before && before.end === replaceStart && (before.kind === "ident" || before.kind === "number" || before.kind === "string" || before.text === "]")) {
    return none(at);
  }
  return { kind: "root", segments: [], prefix, replaceStart };
}
