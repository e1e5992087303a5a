// A few assertions with readable messages. Node's `assert` is not available in the web worker, and these
// are all the suite needs.

function stable(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v, 2);
}

/** Deep equality of JSON-like values (key order ignored). */
export function equal<T>(actual: T, expected: T, what: string): void {
  const a = stable(actual);
  const e = stable(expected);
  if (a !== e) throw new Error(`${what}\nexpected: ${e}\nactual:   ${a}`);
}

export function ok(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(what);
}

export function includes(text: string, part: string, what: string): void {
  if (!text.includes(part)) throw new Error(`${what}: ${JSON.stringify(part)} not found in\n${text}`);
}

/** The promise rejects with a message containing `part`. */
export async function rejects(promise: Thenable<unknown>, part: string, what: string): Promise<void> {
  let result: unknown;
  try {
    result = await promise;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (!message.includes(part)) throw new Error(`${what}: the error ${JSON.stringify(message)} does not contain ${JSON.stringify(part)}`);
    return;
  }
  throw new Error(`${what}: expected a refusal, got ${stable(result)}`);
}
