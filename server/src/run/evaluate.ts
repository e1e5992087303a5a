// Templates and expressions evaluated as the runtime evaluates them (runtime semantics, sections 1–6).
//
// The runtime reads an expression by splitting text, not through a grammar: `||` first, then `&&`, then
// the leftmost comparison, then one operand; operands after the one that decides are never read, so a
// mistake there is no error. This file follows that reading (not the validator's parser, which refuses
// some of what runs and lets in some of what fails; docs/dry-run.md lists where they disagree).
// Pure: no Node API, no eval; recursion is bounded (calls nest at most MAX_EXPRESSION_NESTING deep).
import {
  FORBIDDEN_SEGMENTS,
  MAX_EXPRESSION_NESTING,
  decodeStringLiteral,
  matchingClose,
  nestingTooDeep,
  parseExpression,
  refusedExpression,
  scanTemplates,
  stringLiteralEnd,
} from "../lwir/expressions";
import type { EvalContext, StepEnvelope } from "./context";
import { EAGER_FUNCTIONS, EvalFailure, fail, isFunctionName, refuse } from "./functions";
import { compare, describeValue, truthy, type ComparisonOp } from "./values";

export type EvalResult = { ok: true; value: unknown } | { ok: false; error: EvalError };

export interface EvalError {
  /** What goes wrong, in our words (docs/messages.md). */
  message: string;
  /** The error the runtime throws there, as its text reads (its meaning is what we match; wording may differ). */
  runtime: string;
  /** The expression (the trimmed body of the `{{ }}`) being evaluated, when the error is in one. */
  expression?: string;
  /** The whole string being resolved. */
  template?: string;
  /** Where in a walked value (resolveValue) the string or key is: keys and indexes from the value's root. */
  path?: (string | number)[];
  /** True when LWIR Tools did not evaluate the input (nested past its bounds): `runtime` is then empty. */
  limit?: true;
}

/** Values nested deeper than this are not walked (the document layer refuses deeper documents anyway). */
export const MAX_VALUE_DEPTH = 5000;

/** One string (1.3–1.7): a template-only string gives the raw value, others text. */
export function evaluateTemplate(template: string, context: EvalContext): EvalResult {
  return guarded(() => new Evaluator(context).template(template), { template });
}

/** A value walked as the runtime walks a step input (1.2): arrays and objects rebuilt, strings resolved. */
export function resolveValue(value: unknown, context: EvalContext): EvalResult {
  const path: (string | number)[] = [];
  return guarded(() => new Evaluator(context).walk(value, path, 0), { path });
}

/** One expression body (what is between `{{` and `}}`), its raw value. */
export function evaluateExpression(body: string, context: EvalContext): EvalResult {
  return guarded(() => new Evaluator(context).body(body), {});
}

function guarded(run: () => unknown, where: { template?: string; path?: (string | number)[] }): EvalResult {
  try {
    return { ok: true, value: run() };
  } catch (e) {
    // A RangeError here is the engine's stack running out on deeply nested data (stringified, joined).
    const error: EvalError =
      e instanceof EvalFailure
        ? { message: e.message, runtime: e.runtime, ...(e.expression !== undefined ? { expression: e.expression } : {}), ...(e.limit ? { limit: true as const } : {}) }
        : e instanceof RangeError
          ? { message: "The value is nested too deeply for LWIR Tools to evaluate.", runtime: "", limit: true }
          : { message: `The evaluation failed: ${e instanceof Error ? e.message : String(e)}.`, runtime: String(e) };
    const template = e instanceof EvalFailure && e.template !== undefined ? e.template : where.template;
    if (template !== undefined) error.template = template;
    if (where.path !== undefined) error.path = where.path.slice();
    return { ok: false, error };
  }
}

const NESTED_TOO_DEEPLY = `The expression is nested more than ${MAX_EXPRESSION_NESTING} levels deep; LWIR Tools does not evaluate it.`;

// ---------------------------------------------------------------------------------------------
// Scanning at top level (2.2): outside quotes, outside ( ) and [ ]; an unmatched closer gives up.

const CH_QUOTE = 34;
const CH_APOS = 39;
const CH_BACKSLASH = 92;

/**
 * Calls `hit(i)` at each top-level position from `from` (which must be at top level) until it returns
 * true; false when the scan gives up (an unmatched `)` or `]`).
 */
function scanTopLevel(text: string, hit: (i: number) => boolean, from = 0): boolean {
  let depth = 0;
  let i = from;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === CH_QUOTE || c === CH_APOS) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === CH_BACKSLASH) j += 2;
        else if (d === c) break;
        else j++;
      }
      i = j + 1;
      continue;
    }
    if (c === 40 || c === 91) depth++;
    else if (c === 41 || c === 93) {
      if (depth === 0) return false;
      depth--;
    } else if (depth === 0 && hit(i)) return true;
    i++;
  }
  return true;
}

/** The parts of `text` between top-level `sep`s; one part when there is none or the scan gives up. */
function splitTopLevel(text: string, sep: string): string[] {
  if (text.indexOf(sep) < 0) return [text];
  const parts: string[] = [];
  let from = 0;
  const c0 = sep.charCodeAt(0);
  const ok = scanTopLevel(text, (i) => {
    if (text.charCodeAt(i) === c0 && text.startsWith(sep, i) && i >= from) {
      parts.push(text.slice(from, i));
      from = i + sep.length;
    }
    return false;
  });
  if (!ok || parts.length === 0) return [text];
  parts.push(text.slice(from));
  return parts;
}

const COMPARISON_OPS: readonly ComparisonOp[] = ["===", "!==", ">=", "<=", "==", "!=", ">", "<"];

const COMPARISON_CHARS = /[<>=!]/;

/** The leftmost top-level comparison operator from `from` on (the longest spelling at a position first), or undefined. */
function findComparison(text: string, from: number): { at: number; op: ComparisonOp } | undefined {
  let found: { at: number; op: ComparisonOp } | undefined;
  if (from === 0 && !COMPARISON_CHARS.test(text)) return undefined;
  scanTopLevel(text, (i) => {
    const c = text.charCodeAt(i);
    if (c !== 60 && c !== 62 && c !== 61 && c !== 33) return false;
    for (const op of COMPARISON_OPS) {
      if (text.startsWith(op, i)) {
        found = { at: i, op };
        return true;
      }
    }
    return false;
  }, from);
  return found;
}

// ---------------------------------------------------------------------------------------------
// Operands (3–5)

const NUMBER_RE = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;
const CALL_HEAD_RE = /^([A-Za-z_$][A-Za-z0-9_$]*)\s*\(/;
const ROOT_RE = /^[A-Za-z_$][A-Za-z0-9_$]*/;
const ROOTS: ReadonlySet<string> = new Set(["input", "item", "step", "steps", "workflow"]);

interface Segment {
  value: string | number;
  /** Offset of the segment's `.` or `[` in the path text. */
  start: number;
}

/** `[A-Za-z_$]` */
function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
}
/** `[A-Za-z0-9_$-]` */
function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57) || c === 45;
}

/** 4.1: a root and its segments, or undefined when the text is not a path. */
function parsePath(text: string): { root: string; segments: Segment[] } | undefined {
  const m = ROOT_RE.exec(text);
  if (!m || !ROOTS.has(m[0])) return undefined;
  const segments: Segment[] = [];
  let i = m[0].length;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 46 /* . */) {
      let j = i + 1;
      if (j >= n || !isNameStart(text.charCodeAt(j))) return undefined;
      while (j < n && isNameChar(text.charCodeAt(j))) j++;
      const name = text.slice(i + 1, j);
      if (FORBIDDEN_SEGMENTS.has(name)) return undefined;
      segments.push({ value: name, start: i });
      i = j;
    } else if (c === 91 /* [ */) {
      const q = text.charCodeAt(i + 1);
      if (q === CH_QUOTE || q === CH_APOS) {
        const e = stringLiteralEnd(text, i + 1);
        if (e < 0 || text.charCodeAt(e) !== 93) return undefined;
        const key = decodeStringLiteral(text.slice(i + 1, e));
        if (FORBIDDEN_SEGMENTS.has(key)) return undefined;
        segments.push({ value: key, start: i });
        i = e + 1;
      } else {
        let j = i + 1;
        while (j < n && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
        if (j === i + 1 || text.charCodeAt(j) !== 93) return undefined;
        segments.push({ value: Number(text.slice(i + 1, j)), start: i });
        i = j + 1;
      }
    } else return undefined;
  }
  return { root: m[0], segments };
}

const hasOwn = (o: object, k: PropertyKey): boolean => Object.prototype.hasOwnProperty.call(o, k);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Words people try as values; the message names the keywords there are rather than repeating the word. */
const NOT_KEYWORDS = /^(?:undefined|NaN|Infinity|None|nil|Null|NULL|True|TRUE|False|FALSE)$/;

function unsupported(text: string): never {
  if (NOT_KEYWORDS.test(text)) {
    return fail(`Unsupported expression: ${text}`, "This expression is not valid: the keywords are true, false and null, in lower case, and there are no others.");
  }
  const reason = parseExpression(text).errors[0]?.message;
  return fail(`Unsupported expression: ${text}`, refusedExpression(text, reason ?? "the runtime cannot read it"));
}

/** Why a segment cannot be read from `v`, as the end of a sentence whose subject is the path before it. */
function whyUnreadable(v: unknown, seg: string | number): string {
  if (typeof seg === "number") {
    if (Array.isArray(v)) return `has ${v.length} ${v.length === 1 ? "element" : "elements"}, so there is no element ${seg}`;
    if (isPlainObject(v)) return `is an object, and [${seg}] reads arrays only (write ["${seg}"] for a key)`;
  } else {
    if (isPlainObject(v)) {
      const keys = Object.keys(v);
      const list = keys.length === 0 ? "it has none" : `it has ${keys.slice(0, 8).map((k) => JSON.stringify(k)).join(", ")}${keys.length > 8 ? ", …" : ""}`;
      return `has no property "${seg}" (${list})`;
    }
    if (Array.isArray(v)) return seg === "length" ? "is an array, which has no properties (len() gives its length)" : "is an array, which has no properties (read an element with [0])";
    if (typeof v === "string" && seg === "length") return "is a text, which has no properties (len() gives its length)";
  }
  return `is ${describeValue(v)}`;
}

// ---------------------------------------------------------------------------------------------

/** Text that a matching failure mentions (coalesce skips these, 5.2). */
const SKIPPED_BY_COALESCE = ["could not be resolved", "references incomplete step"];

class Evaluator {
  /** Read with own-property tests only, so an ordinary object works as well as a null-prototype map. */
  private readonly steps: Record<string, StepEnvelope>;
  constructor(private readonly context: EvalContext) {
    this.steps = context.steps !== null && typeof context.steps === "object" ? context.steps : (Object.create(null) as Record<string, StepEnvelope>);
  }

  walk(value: unknown, path: (string | number)[], depth: number): unknown {
    if (depth > MAX_VALUE_DEPTH) refuse(`The value is nested more than ${MAX_VALUE_DEPTH} levels deep; LWIR Tools does not evaluate it.`);
    if (typeof value === "string") {
      try {
        return this.template(value);
      } catch (e) {
        if (e instanceof EvalFailure) e.template = value;
        throw e;
      }
    }
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        out.push(this.walk(value[i], path, depth + 1));
        path.pop();
      }
      return out;
    }
    if (value !== null && typeof value === "object") {
      const out = Object.create(null) as Record<string, unknown>;
      for (const key of Object.keys(value)) {
        path.push(key);
        if (FORBIDDEN_SEGMENTS.has(key)) {
          fail(`Unsafe expression path segment '${key}'.`, `The key "${key}" is refused at run time, even when its value holds no template.`);
        }
        out[key] = this.walk((value as Record<string, unknown>)[key], path, depth + 1);
        path.pop();
      }
      return out;
    }
    return value;
  }

  template(s: string): unknown {
    const hasOpen = s.indexOf("{{") >= 0;
    const hasClose = s.indexOf("}}") >= 0;
    if (!hasOpen && !hasClose) return s; // 1.4
    const only = templateOnlyBody(s);
    if (only !== undefined) return this.body(only); // 1.3
    // 1.5: the brace check, then each {{ body }} replaced, left to right, never re-scanned.
    const opens = countOccurrences(s, "{{");
    const closes = countOccurrences(s, "}}");
    if (opens !== closes) {
      fail(
        `Malformed embedded expression: ${s}`,
        `The text has ${opens} "{{" and ${closes} "}}"; the runtime refuses a text whose counts differ.`,
      );
    }
    let out = "";
    let from = 0;
    for (const m of scanTemplates(s).matches) {
      out += s.slice(from, m.start) + stringify(this.body(m.body));
      from = m.end;
    }
    return out + s.slice(from);
  }

  /** One body; the failure is marked with it. */
  body(body: string): unknown {
    try {
      // Refused before any work, so a hostile body costs one pass (the validator refuses it too).
      if (nestingTooDeep(body)) refuse(NESTED_TOO_DEEPLY);
      return this.expr(body, 0);
    } catch (e) {
      if (e instanceof EvalFailure && e.expression === undefined) e.expression = body.trim();
      throw e;
    }
  }

  private expr(raw: string, depth: number): unknown {
    const text = raw.trim();
    if (text === "") fail("Unsupported empty expression.", "An expression is empty (nothing between the operators, the commas or the braces).");
    if (depth > MAX_EXPRESSION_NESTING) refuse(NESTED_TOO_DEEPLY);
    const ors = splitTopLevel(text, "||");
    if (ors.length > 1) {
      for (const part of ors) if (truthy(this.expr(part, depth))) return true;
      return false;
    }
    const ands = splitTopLevel(text, "&&");
    if (ands.length > 1) {
      for (const part of ands) if (!truthy(this.expr(part, depth))) return false;
      return true;
    }
    return this.comparison(text, depth);
  }

  /** 2.4: the right of an operator is a whole expression again, so chains associate to the right; every side is evaluated, left first. */
  private comparison(text: string, depth: number): unknown {
    const values: unknown[] = [];
    const ops: ComparisonOp[] = [];
    // Offsets rather than slices of the rest: a chain of many operators stays linear.
    let from = 0;
    for (;;) {
      const found = findComparison(text, from);
      if (!found) {
        values.push(this.side(text.slice(from), depth));
        break;
      }
      values.push(this.side(text.slice(from, found.at), depth));
      ops.push(found.op);
      from = found.at + found.op.length;
    }
    let v = values[values.length - 1];
    for (let k = ops.length - 1; k >= 0; k--) v = compare(ops[k] as ComparisonOp, values[k], v);
    return v;
  }

  private side(raw: string, depth: number): unknown {
    const text = raw.trim();
    if (text === "") fail("Unsupported empty expression.", "A comparison is missing the operand on one side.");
    return this.operand(text, depth);
  }

  private operand(text: string, depth: number): unknown {
    const c0 = text.charCodeAt(0);
    if ((c0 === CH_QUOTE || c0 === CH_APOS) && stringLiteralEnd(text, 0) === text.length) return decodeStringLiteral(text);
    if (NUMBER_RE.test(text)) return Number(text);
    if (text === "true") return true;
    if (text === "false") return false;
    if (text === "null") return null;
    const head = CALL_HEAD_RE.exec(text);
    if (head) {
      const open = head[0].length - 1;
      // the ")" closing this "(" must end the operand
      const close = matchingClose(text, open);
      if (close !== text.length - 1 || text.charCodeAt(close) !== 41) unsupported(text);
      return this.call(head[1] as string, text.slice(open + 1, -1), depth);
    }
    const path = parsePath(text);
    if (!path) return unsupported(text);
    return this.path(text, path.root, path.segments);
  }

  private call(name: string, argText: string, depth: number): unknown {
    if (!isFunctionName(name)) {
      fail(`Unsupported expression function '${name}'.`, `There is no function "${name}" at run time (the functions are coalesce, date, hmac, json, len, lower, sha256 and upper).`);
    }
    const args = argText.trim() === "" ? [] : splitTopLevel(argText, ",");
    if (name === "coalesce") return this.coalesce(args, depth);
    const values = args.map((a) => this.expr(a, depth + 1));
    return (EAGER_FUNCTIONS[name] as (args: unknown[]) => unknown)(values);
  }

  /** 5.2: arity first; arguments lazily; a missing path or step counts as undefined, any other error stops. */
  private coalesce(args: string[], depth: number): unknown {
    if (args.length < 2) fail("coalesce() requires at least two arguments.", `The function coalesce() takes at least two arguments, not ${args.length}.`);
    for (const arg of args) {
      let v: unknown;
      try {
        v = this.expr(arg, depth + 1);
      } catch (e) {
        if (e instanceof EvalFailure && SKIPPED_BY_COALESCE.some((t) => e.runtime.includes(t))) continue;
        throw e;
      }
      if (v !== null && v !== undefined) return v;
    }
    return undefined;
  }

  private path(text: string, root: string, segments: Segment[]): unknown {
    switch (root) {
      case "input":
        return this.read(this.context.input, text, segments, 0);
      case "step":
        return this.read(this.context.step, text, segments, 0);
      case "workflow":
        return this.read(this.context.workflow, text, segments, 0);
      case "item":
        if (this.context.hasItem !== true) {
          fail(`Expression references item outside a parallel branch: ${text}`, `item has a value only inside a parallel step's branch, so ${text} cannot be read here.`);
        }
        return this.read(this.context.item, text, segments, 0);
    }
    // steps (6.2)
    const first = segments[0];
    if (first === undefined || typeof first.value !== "string") {
      fail(`Unsupported step expression: ${text}`, `The path ${text} names no step: write steps.<id> or steps["<id>"].`);
    }
    const id = first.value;
    if (!hasOwn(this.steps, id)) {
      fail(
        `Expression references incomplete step '${id}'.`,
        `Step "${id}" has no result when this runs, so ${text} cannot be read (it has not completed yet, was not chosen, or is not visible from here).`,
      );
    }
    const envelope = this.steps[id] as StepEnvelope;
    const second = segments[1];
    if (second !== undefined && (second.value === "lastOutput" || second.value === "allVisits")) {
      const visits = envelope.visits;
      const value =
        second.value === "lastOutput"
          ? Array.isArray(visits) && visits.length > 0
            ? visits[visits.length - 1]
            : envelope.output
          : Array.isArray(visits)
            ? visits
            : envelope.output !== undefined
              ? [envelope.output]
              : [];
      return this.read(value, text, segments, 2);
    }
    return this.read(envelope, text, segments, 1);
  }

  /** 4.2: own elements of arrays by number, own properties of objects by name; anything else fails at that segment. */
  private read(root: unknown, text: string, segments: Segment[], from: number): unknown {
    let v = root;
    for (let k = from; k < segments.length; k++) {
      const seg = segments[k] as Segment;
      const key = seg.value;
      const ok = typeof key === "number" ? Array.isArray(v) && hasOwn(v, key) : isPlainObject(v) && hasOwn(v, key);
      if (!ok) {
        const shown = typeof key === "number" ? String(key) : key;
        fail(
          `Expression '${text}' could not be resolved at '${shown}'.`,
          `Cannot read ${text}: ${text.slice(0, seg.start)} ${whyUnreadable(v, key)}.`,
        );
      }
      v = (v as Record<string | number, unknown>)[key];
    }
    return v;
  }
}

// ---------------------------------------------------------------------------------------------
// Strings (1.3, 1.5, 1.6)

function isJsSpace(c: number): boolean {
  return String.fromCharCode(c).trim() === "";
}

/** 1.3: the body of a template-only string (untrimmed), or undefined. Linear (a regex would backtrack on long runs of spaces). */
function templateOnlyBody(s: string): string | undefined {
  let a = 0;
  let b = s.length;
  while (a < b && isJsSpace(s.charCodeAt(a))) a++;
  while (b > a && isJsSpace(s.charCodeAt(b - 1))) b--;
  if (b - a < 5 || !s.startsWith("{{", a) || !s.startsWith("}}", b - 2)) return undefined;
  const inner = s.slice(a + 2, b - 2);
  return inner.indexOf("{") < 0 && inner.indexOf("}") < 0 ? inner : undefined;
}

/** Non-overlapping occurrences, left to right (`{{{` holds one `{{`). */
function countOccurrences(s: string, sub: string): number {
  let n = 0;
  for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length)) n++;
  return n;
}

/** 1.6: how a value is written into text. */
export function stringify(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === undefined) return "undefined";
  if (v === null || typeof v !== "object") return String(v);
  return JSON.stringify(v);
}
