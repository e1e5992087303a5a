// The expression functions other than coalesce (runtime semantics 5.2), on arguments already evaluated.
// coalesce evaluates its arguments lazily, so it lives with the evaluator (evaluate.ts).
import { canonicalJson } from "../lwir/canonical";
import { sha256Hex } from "../lwir/sha256";
import { hmacSha256Hex } from "./hmac";
import { describeValue, jsString } from "./values";

/** A run-time error: the runtime's own text (for coalesce's test and for people comparing logs) and ours. */
export class EvalFailure {
  /** The body being evaluated, and the string it is in: set as the failure leaves them. */
  expression?: string;
  template?: string;
  constructor(
    readonly runtime: string,
    readonly message: string,
    /** A limit of LWIR Tools, not an error of the runtime. */
    readonly limit = false,
  ) {}
}

export function fail(runtime: string, message: string): never {
  throw new EvalFailure(runtime, message);
}

/** Input past one of our bounds (nesting): not evaluated, so neither a value nor the runtime's error. */
export function refuse(message: string): never {
  throw new EvalFailure("", message, true);
}

type Fn = (args: unknown[]) => unknown;

function one(name: string, args: unknown[]): unknown {
  if (args.length !== 1) fail(`${name}() requires one argument.`, `The function ${name}() takes exactly one argument, not ${args.length}.`);
  return args[0];
}

/** The functions that evaluate every argument first, then check their arity (5.1). */
export const EAGER_FUNCTIONS: Readonly<Record<string, Fn>> = Object.assign(Object.create(null) as Record<string, Fn>, {
  date(args: unknown[]): unknown {
    const v = one("date", args);
    const t = parseDateAsUtc(jsString(v));
    if (Number.isNaN(t)) fail("RangeError: Invalid time value", `The value given to date() is not a date: ${describeValue(v)}.`);
    return new Date(t).toISOString();
  },
  hmac(args: unknown[]): unknown {
    if (args.length !== 2) fail("hmac() requires two arguments.", `The function hmac() takes exactly two arguments (a key and a value), not ${args.length}.`);
    const [key, value] = args;
    const message = typeof value === "string" ? value : (JSON.stringify(value) as string | undefined);
    if (message === undefined) {
      fail(
        'TypeError: The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received undefined',
        "The value given to hmac() to sign is missing (its second argument has no value).",
      );
    }
    return "sha256:" + hmacSha256Hex(jsString(key), message);
  },
  json(args: unknown[]): unknown {
    return JSON.stringify(one("json", args));
  },
  len(args: unknown[]): unknown {
    const v = one("len", args);
    if (typeof v === "string" || Array.isArray(v)) return v.length;
    if (v !== null && typeof v === "object") return Object.keys(v).length;
    return fail("len() supports strings, arrays, and objects.", `The value given to len() must be a text, an array or an object, not ${describeValue(v)}.`);
  },
  lower(args: unknown[]): unknown {
    return jsString(one("lower", args)).toLowerCase();
  },
  sha256(args: unknown[]): unknown {
    if (args.length === 0) fail("sha256() requires at least one argument.", "The function sha256() takes at least one argument, not 0.");
    const value = args.length === 1 ? args[0] : args;
    let text: string;
    try {
      text = canonicalJson(value);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      if (/lone surrogate/.test(why)) fail("Lone surrogate strings are not hashable.", "The value given to sha256() holds a text with a lone surrogate (half of a character that takes two UTF-16 units), which cannot be hashed.");
      if (/undefined/.test(why)) fail("undefined is not hashable.", "The value given to sha256() is missing or holds a missing value, which cannot be hashed.");
      return fail(`${why}.`, `The value given to sha256() cannot be hashed: ${why.replace(/^not hashable: /, "")}.`);
    }
    return "sha256:" + sha256Hex(text);
  },
  upper(args: unknown[]): unknown {
    return jsString(one("upper", args)).toUpperCase();
  },
});

/** Every function name the runtime knows (5.2). */
export function isFunctionName(name: string): boolean {
  return name === "coalesce" || Object.prototype.hasOwnProperty.call(EAGER_FUNCTIONS, name);
}

// ---------------------------------------------------------------------------------------------
// date(): the host's Date parser (the runtime's is V8's), read as if the host's time zone were UTC.
// The runtime parses date-times without an offset in its host's zone; we assume UTC and say so
// (docs/dry-run.md), whatever the zone of the machine we run on.

/** ISO date-only forms, which JavaScript reads as UTC. */
const ISO_DATE_ONLY = /^[+-]?\d{4,6}(?:-\d\d(?:-\d\d)?)?$/;
/** An explicit zone: Z, an offset (+02:00, -0500), GMT/UTC/UT, or a US zone name V8 knows. */
const EXPLICIT_ZONE = /(?:^|[^A-Za-z])(?:z|gmt|utc|ut|[ecmp][sd]t)(?![A-Za-z])|\d[+-]\d\d:?\d\d(?!\d)|(?:gmt|utc|ut)[+-]\d/i;

export function parseDateAsUtc(text: string): number {
  const t = Date.parse(text);
  if (Number.isNaN(t)) return t;
  const d = new Date(t);
  if (d.getTimezoneOffset() === 0 || ISO_DATE_ONLY.test(text) || EXPLICIT_ZONE.test(text)) return t;
  // Read as local wall-clock time: the same wall-clock time in UTC.
  const u = new Date(0);
  u.setUTCFullYear(d.getFullYear(), d.getMonth(), d.getDate());
  u.setUTCHours(d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds());
  return u.getTime();
}
