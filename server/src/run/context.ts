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
