// Work measured without a clock: the characters our scanners read, counted through the string methods
// they read with, while a function runs. Unlike elapsed time it does not depend on the machine or its
// load, so a test can assert that work grows linearly with the input (timing belongs in `npm run bench`).
import assert from "node:assert/strict";

type StringMethod = (this: string, ...args: never[]) => unknown;

/** Characters each method reads: one for a single-character read, the span searched or copied for the others. */
const COST: Record<string, (s: string, args: unknown[], result: unknown) => number> = {
  charCodeAt: () => 1,
  charAt: () => 1,
  codePointAt: () => 1,
  indexOf: (s, [search, from], r) => {
    const start = Math.max(0, Number(from) || 0);
    return (r as number) < 0 ? s.length - start : (r as number) - start + String(search).length;
  },
  lastIndexOf: (s, [search, from], r) => {
    const end = from === undefined ? s.length : Math.min(s.length, Number(from) + String(search).length);
    return (r as number) < 0 ? end : end - (r as number);
  },
  includes: (s, [, from]) => s.length - Math.max(0, Number(from) || 0),
  startsWith: (_s, [search]) => String(search).length,
  endsWith: (_s, [search]) => String(search).length,
  slice: (_s, _a, r) => (r as string).length,
  substring: (_s, _a, r) => (r as string).length,
};

/** The characters read through String.prototype's reading methods while `f` runs. */
export function countStringWork(f: () => void): number {
  const proto = String.prototype as unknown as Record<string, StringMethod>;
  const saved = new Map(Object.keys(COST).map((name) => [name, proto[name]]));
  let work = 0;
  for (const [name, original] of saved) {
    const cost = COST[name];
    proto[name] = function (this: string, ...args: never[]) {
      const result = original.apply(this, args);
      work += cost(String(this), args, result);
      return result;
    };
  }
  try {
    f();
  } finally {
    for (const [name, original] of saved) proto[name] = original;
  }
  return work;
}

/**
 * Asserts that the work of `run(n)` grows linearly: doubling the input at most doubles it (with a margin
 * for a constant part), and it is at most `perUnit` characters read per unit of input.
 */
export function assertLinearWork(what: string, run: (n: number) => () => void, n: number, perUnit: number): void {
  const small = countStringWork(run(n));
  const large = countStringWork(run(2 * n));
  assert.ok(small > 0, `${what}: the count sees the work`);
  assert.ok(large <= 2.2 * small, `${what}: ${small} characters read at n = ${n}, ${large} at 2n`);
  assert.ok(large <= perUnit * 2 * n, `${what}: ${large} characters read for n = ${2 * n}`);
}

/**
 * The reads `f` makes of a plain-data value (property reads, key listings, `in` tests, through every level),
 * counted on a proxy of it: the work of a walk over data, as countStringWork is of a scan over text.
 */
export function countObjectReads<T>(value: T, f: (value: T) => void): number {
  let reads = 0;
  const proxies = new WeakMap<object, object>();
  const wrap = (v: unknown): unknown => {
    if (typeof v !== "object" || v === null) return v;
    let p = proxies.get(v);
    if (!p) {
      p = new Proxy(v, {
        get: (t, k, r) => { reads++; return wrap(Reflect.get(t, k, r)); },
        ownKeys: (t) => { const keys = Reflect.ownKeys(t); reads += keys.length; return keys; },
        has: (t, k) => { reads++; return Reflect.has(t, k); },
        getOwnPropertyDescriptor: (t, k) => { reads++; return Reflect.getOwnPropertyDescriptor(t, k); },
      });
      proxies.set(v, p);
    }
    return p;
  };
  f(wrap(value) as T);
  return reads;
}
