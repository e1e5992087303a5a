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
