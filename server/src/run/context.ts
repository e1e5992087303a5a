// What an expression can read at run time (runtime semantics, section 6): the five roots.

/** One entry of the `steps` map (6.3): a single-visit step has `output`; a multi-visit one also `visits`, oldest first. */
export interface StepEnvelope {
  output?: unknown;
  visits?: unknown[];
}

export interface EvalContext {
  /** The run's workflow input, as the caller passed it. */
  input: unknown;
  /** Completed steps by id (or full path inside parallel branches); a null-prototype map, as the runtime's. */
  steps: Record<string, StepEnvelope>;
  /** The current step's definition as registered (templates unresolved). */
  step?: unknown;
  /** The whole registered document. */
  workflow?: unknown;
  /** The branch's element of `items`, inside a parallel branch only (may be null). */
  item?: unknown;
  /** True only inside a parallel branch: outside one, any use of `item` fails. */
  hasItem?: boolean;
}

/** A null-prototype copy of `steps`, so names such as `toString` are no step (6.2). */
export function stepsMap(steps: Record<string, StepEnvelope> | undefined): Record<string, StepEnvelope> {
  const map = Object.create(null) as Record<string, StepEnvelope>;
  if (steps !== null && typeof steps === "object") {
    for (const id of Object.keys(steps)) map[id] = steps[id] as StepEnvelope;
  }
  return map;
}

const CONTEXT_KEYS = ["input", "steps", "step", "workflow", "item"];
const ENVELOPE_KEYS = ["output", "visits"];

function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return `the text ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v)}`;
  return `the ${typeof v} ${String(v)}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * A context written as JSON or YAML (`lwir eval --context`): an object with `input`, `steps` (step id →
 * `{output, visits?}`), `step`, `workflow` and `item`, each optional; `item` present means "inside a
 * parallel branch". Unknown keys are refused, so a typo (`inputs`) is not silently an empty context.
 */
export function contextFromValue(value: unknown): { context: EvalContext } | { error: string } {
  if (!isRecord(value)) return { error: `The context must be an object with input, steps, step, workflow and item (each optional), not ${kindOf(value)}.` };
  const keys = Object.keys(value);
  const unknown = keys.find((k) => !CONTEXT_KEYS.includes(k));
  if (unknown !== undefined) return { error: `The context has an unknown key "${unknown}"; its keys are input, steps, step, workflow and item.` };
  const steps = value.steps ?? {};
  if (!isRecord(steps)) return { error: `steps must be an object (step id → {"output": …}), not ${kindOf(steps)}.` };
  for (const id of Object.keys(steps)) {
    const envelope = steps[id];
    const where = /^[A-Za-z_$][\w$-]*$/.test(id) ? `steps.${id}` : `steps[${JSON.stringify(id)}]`;
    if (!isRecord(envelope)) return { error: `${where} must be an object such as {"output": …}, not ${kindOf(envelope)}.` };
    const extra = Object.keys(envelope).find((k) => !ENVELOPE_KEYS.includes(k));
    if (extra !== undefined) return { error: `${where} has an unknown key "${extra}"; an entry has output and, for a step that ran more than once, visits.` };
    if (envelope.visits !== undefined && !Array.isArray(envelope.visits)) return { error: `${where}.visits must be an array (one output per visit, oldest first), not ${kindOf(envelope.visits)}.` };
  }
  const context: EvalContext = { input: value.input, steps: stepsMap(steps as Record<string, StepEnvelope>) };
  if ("step" in value) context.step = value.step;
  if ("workflow" in value) context.workflow = value.workflow;
  if ("item" in value) {
    context.item = value.item;
    context.hasItem = true;
  }
  return { context };
}

/**
 * A copy of a JSON value with every object's keys in sorted order (JavaScript then lists integer-like keys
 * first), as the runtime holds step outputs and the registered document (runtime semantics 6.7). Deeper than
 * `maxDepth` the value is kept as it is.
 */
export function inCanonicalOrder(value: unknown, maxDepth = 5000): unknown {
  if (value === null || typeof value !== "object" || maxDepth <= 0) return value;
  if (Array.isArray(value)) return value.map((v) => inCanonicalOrder(v, maxDepth - 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = inCanonicalOrder((value as Record<string, unknown>)[key], maxDepth - 1);
    if (key === "__proto__") Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    else out[key] = v;
  }
  return out;
}

/** The context as the runtime would hold it: step outputs and visits, `step` and `workflow` in canonical key order; `input` and `item` as given. */
export function withRuntimeKeyOrder(context: EvalContext): EvalContext {
  const steps = Object.create(null) as Record<string, StepEnvelope>;
  for (const id of Object.keys(context.steps)) {
    const e = context.steps[id] as StepEnvelope;
    const copy: StepEnvelope = {};
    if ("output" in e) copy.output = inCanonicalOrder(e.output);
    if (Array.isArray(e.visits)) copy.visits = e.visits.map((v) => inCanonicalOrder(v));
    steps[id] = copy;
  }
  const out: EvalContext = { ...context, steps };
  if ("step" in context) out.step = inCanonicalOrder(context.step);
  if ("workflow" in context) out.workflow = inCanonicalOrder(context.workflow);
  return out;
}
