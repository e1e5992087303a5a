// What a scenarios file may name in its workflow: the step ids (top-level and in parallel bodies), the
// decisions and their targets, the declared outputs, and how step paths (`triage[T-1].draft.visit[0]`)
// are written. Read from the workflow's value alone, whatever its validity: a workflow being edited still
// answers with the steps it has. Pure.
import type { OutputContract } from "../run/samples";

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export interface StepFact {
  id: string;
  uses: string;
  /** maxVisits above 1: a sample may be a list, one value per visit. */
  loops: boolean;
  output?: OutputContract;
  /** The parallel step whose body holds this step. */
  body?: string;
  /** A decision's targets (cases' `to`, then `default`), without repeats. */
  targets?: string[];
}

export interface WorkflowFacts {
  /** Every step, top-level first in document order, each body after its parallel step. */
  steps: StepFact[];
  byId: Map<string, StepFact>;
  /** input.schema, when the workflow declares one. */
  inputSchema?: unknown;
  hasInputSchema: boolean;
}

export function workflowFacts(workflow: unknown): WorkflowFacts {
  const steps: StepFact[] = [];
  const byId = new Map<string, StepFact>();
  const add = (raw: unknown, body?: string): StepFact | undefined => {
    if (!isObject(raw) || typeof raw.id !== "string" || raw.id === "") return undefined;
    const uses = typeof raw.uses === "string" ? raw.uses : "";
    const fact: StepFact = {
      id: raw.id, uses,
      loops: typeof raw.maxVisits === "number" && raw.maxVisits > 1,
      ...(isObject(raw.output) ? { output: raw.output as OutputContract } : {}),
      ...(body !== undefined ? { body } : {}),
    };
    if (uses === "decision") fact.targets = targetsOf(raw.with);
    steps.push(fact);
    if (!byId.has(fact.id)) byId.set(fact.id, fact);
    return fact;
  };
  const list = isObject(workflow) && Array.isArray(workflow.steps) ? workflow.steps : [];
  for (const raw of list) {
    const fact = add(raw);
    if (fact && fact.uses === "parallel" && isObject(raw) && Array.isArray(raw.steps)) for (const inner of raw.steps) add(inner, fact.id);
  }
  const input = isObject(workflow) && isObject(workflow.input) ? workflow.input : undefined;
  const hasInputSchema = input !== undefined && Object.prototype.hasOwnProperty.call(input, "schema");
  return { steps, byId, hasInputSchema, ...(hasInputSchema ? { inputSchema: input!.schema } : {}) };
}

function targetsOf(w: unknown): string[] {
  const out: string[] = [];
  if (!isObject(w)) return out;
  if (Array.isArray(w.cases)) for (const c of w.cases) if (isObject(c) && typeof c.to === "string" && !out.includes(c.to)) out.push(c.to);
  if (typeof w.default === "string" && !out.includes(w.default)) out.push(w.default);
  return out;
}

/**
 * The step a step path names (`id`, `id.visit[2]`, `par[key].id`, `par[key].id.visit[0]`), or why not:
 * `unknown` carries the id that is not a step (the whole path, or the body step after the branch).
 */
export function stepOfPath(facts: WorkflowFacts, path: string): { step: StepFact } | { unknown: string; body?: string } {
  const bare = path.replace(/\.visit\[\d+\]$/, "");
  const branch = /^([^[\]]+)\[[^\]]*\]\.(.+)$/.exec(bare);
  if (branch) {
    const parallel = facts.byId.get(branch[1]);
    if (!parallel || parallel.uses !== "parallel") return { unknown: branch[1] };
    const inner = facts.steps.find((s) => s.body === parallel.id && s.id === branch[2]);
    return inner ? { step: inner } : { unknown: branch[2], body: parallel.id };
  }
  const step = facts.byId.get(bare);
  return step ? { step } : { unknown: bare };
}

/** The ids a name in a body may be corrected to: the body's steps, or every step. */
export function candidateIds(facts: WorkflowFacts, body?: string): string[] {
  return facts.steps.filter((s) => body === undefined || s.body === body).map((s) => s.id);
}
