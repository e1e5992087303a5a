// The dry run's simulation: a workflow document + an input + sample step outputs → a trace of what the
// runtime would do (spec sections 7–15), without a model, a tool or code. Pure: no Node APIs.
//
// Each scope (the top level, each parallel branch) runs the scheduler of spec 10 over its list of steps;
// every template goes through the evaluator (evaluate.ts); sample outputs are checked as the runtime checks
// a model's answer (13) and stored as the runtime stores them (canonical JSON, read back). The run stops
// where the runtime would stop, with the step path, the expression and the message.
import { canonicalJson } from "../lwir/canonical";
import { decisionTargets, terminalIndexes, validNeeds } from "../lwir/validate";
import type { EvalContext, StepEnvelope } from "./context";
import { resolveValue, type EvalError } from "./evaluate";
import { errorsText, findingsOf, validateInstance, type InstanceError } from "./instance";
import { describeValue } from "./values";
import { buildPrompt } from "./prompt";
import { sampleOfOutput, type OutputContract } from "./samples";

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** Step runs after which a dry run stops (hostile documents: huge maxVisits, many branches of long loops). */
export const MAX_STEP_RUNS = 10_000;

export type CauseCode = "capability_drift" | "runtime_config_error" | "step_schema_error" | "max_visits_exceeded" | "input_schema_error" | "integrity" | "dry_run_limit";

export interface RunError {
  message: string;
  /** The path of the step that failed (absent: the run failed before or after its steps). */
  stepPath?: string;
  /** Where in the step: "input", "with.prompt", "with.cases[0].when", "with.items", "output"… */
  at?: string;
  /** For evaluation errors: the error the runtime throws there, as its text reads (message is ours, docs/messages.md). */
  runtime?: string;
  /** The expression (body) and the template that failed, for evaluation errors. */
  expression?: string;
  template?: string;
  /** The runtime's cause code; absent for plain errors (expression errors), which the runtime reports as step_failed. */
  cause?: CauseCode;
  /** Per-error findings of an output or input schema check (`/score must be number`). */
  findings?: string[];
}

export interface CaseTrace {
  index: number;
  when: unknown;
  value: unknown;
  truthy: boolean;
}

export interface TraceStep {
  /** The step path as the runtime records it: `draft`, `worker.visit[1]`, `review[cand_1].score`. */
  path: string;
  id: string;
  uses: string;
  /** The visit number of a step with maxVisits > 1 (0 first). */
  visit?: number;
  /** Where the step input came from (spec 7) and its resolved value (absent when it failed or resolved to undefined). */
  inputFrom?: "input" | "with.args" | "item" | "workflow input";
  input?: unknown;
  /** Values of `with` the runtime uses as written: model, tool, entrypoint. */
  with?: Obj;
  /** ai.generate: what the model receives. */
  system?: string;
  user?: string;
  /** Decision: the cases evaluated in order, then the target chosen (`end` included) and whether by default. */
  cases?: CaseTrace[];
  chosen?: string;
  byDefault?: boolean;
  /** Explore: the target was forced, not decided by the cases. */
  forced?: boolean;
  /** Parallel: the items, their keys and the branch paths, in item order. */
  items?: unknown[];
  itemKeys?: string[];
  branches?: string[];
  /** The output as stored (canonical key order), and whether it came from the scenario or was generated. */
  output?: unknown;
  sample?: "given" | "generated" | "computed";
  notes?: string[];
  error?: RunError;
}

export interface Trace {
  status: "completed" | "failed";
  steps: TraceStep[];
  /** The run output (completed runs). */
  output?: unknown;
  error?: RunError;
  /** The run-level notes (assumptions the dry run made). */
  notes: string[];
}

export interface SimulateOptions {
  /** The workflow input, as the caller passes it. */
  input: unknown;
  /**
   * Sample outputs by step id (or by a body step's branch path, `triage[t1].draft`): one value, or for a
   * step with maxVisits > 1 a list, one per visit; for a step in a parallel body a list in item order or an
   * object keyed by item key (then per visit as above).
   */
  outputs?: Readonly<Record<string, unknown>>;
  /** Stop after this many step runs (default MAX_STEP_RUNS). */
  maxStepRuns?: number;
  /**
   * Explore: called at each decision with its path and its targets (cases, then default, without repeats);
   * a target returned is chosen without evaluating the cases (recorded as forced); undefined evaluates them.
   */
  choose?: (path: string, targets: string[]) => string | undefined;
  /**
   * The editor's previews (preview.ts): called as each step run starts, with its trace entry (filled in
   * as the step goes on), the context its templates read, and the ids of the parallel steps whose body
   * it is in (outermost first; empty at the top level). The context's `steps` map is a copy.
   */
  observe?: (entry: TraceStep, context: EvalContext, parallels: readonly string[]) => void;
}

class RunFailure extends Error {
  constructor(readonly error: RunError) {
    super(error.message);
  }
}

const TERMINAL_CAUSES = new Set<CauseCode | undefined>(["capability_drift", "runtime_config_error", "step_schema_error", "max_visits_exceeded", "integrity", "dry_run_limit"]);

function evalFailure(error: EvalError, stepPath: string, at: string): RunFailure {
  return new RunFailure({
    message: error.message, stepPath, at, ...(error.runtime ? { runtime: error.runtime } : {}), ...(error.limit ? { cause: "dry_run_limit" as const } : {}),
    ...(error.expression !== undefined ? { expression: error.expression } : {}),
    ...(error.template !== undefined ? { template: error.template } : {}),
  });
}

/** Nesting up to which canonicalCopy recurses; deeper values take the canonical writer (iterative). */
const COPY_DEPTH = 200;
const SURROGATE = /[\uD800-\uDFFF]/;
class NotPlain extends Error {}

/**
 * A copy of plain JSON data with its keys in canonical order, as JSON.parse(canonicalJson(value)) gives
 * it, without the text in between. Throws NotPlain for what the canonical writer would refuse or has to
 * look at more closely (non-finite numbers, surrogates, deep nesting): the caller then takes that path.
 */
function canonicalCopy(value: unknown, depth: number): unknown {
  if (value === null || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new NotPlain();
    return value;
  }
  if (typeof value === "string") {
    if (SURROGATE.test(value)) throw new NotPlain();
    return value;
  }
  if (typeof value !== "object" || depth > COPY_DEPTH) throw new NotPlain();
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = canonicalCopy(value[i], depth + 1);
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw new NotPlain();
  const keys = Object.keys(value).sort();
  const out: Obj = {};
  for (const k of keys) {
    if (SURROGATE.test(k)) throw new NotPlain();
    const v = canonicalCopy((value as Obj)[k], depth + 1);
    if (k === "__proto__") Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  }
  return out;
}

/** Plain data in canonical key order; throws (the canonical writer's message) for what cannot be stored. */
function canonical(value: unknown): unknown {
  try {
    return canonicalCopy(value, 0);
  } catch (error) {
    if (!(error instanceof NotPlain)) throw error;
    return JSON.parse(canonicalJson(value));
  }
}

/** How the runtime stores an output and reads it back: canonical JSON (keys sorted), undefined as null. */
function stored(value: unknown, stepPath: string): unknown {
  if (value === undefined) return null;
  if (typeof value === "string") return value;
  try {
    return canonical(value);
  } catch (error) {
    throw new RunFailure({ message: `The output cannot be stored as JSON (${error instanceof Error ? error.message : String(error)}).`, stepPath, at: "output" });
  }
}

/** The branch path segment of an item key: encodeURIComponent, with `.` encoded too (spec 12.2). */
export function encodeItemKey(key: string): string {
  return encodeURIComponent(key).replace(/\./g, "%2E");
}

/** An artifact reference of our own making (the runtime's are random): 16 hex digits of two FNV-1a hashes of the step path. */
function artifactRef(stepPath: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < stepPath.length; i++) {
    const c = stepPath.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 13);
  }
  return `artifact://art_${(a >>> 0).toString(16).padStart(8, "0")}${(b >>> 0).toString(16).padStart(8, "0")}`;
}

interface StepDef {
  index: number;
  raw: Obj;
  id: string;
  uses: string;
  needs: string[];
  maxVisits: number;
}

/** A step's result within its scope: its outputs by visit, and whether it counts for needs. */
interface Done {
  outputs: unknown[];
}

interface Scope {
  steps: StepDef[];
  byId: Map<string, number>;
  /** The path prefix of the scope's steps: "" at the top level, `triage[t1].` in a branch. */
  prefix: string;
  branch?: { item: unknown; index: number; key: string; parallelId: string; outerDone: ReadonlySet<string> };
  /** The `steps` map the evaluator reads (no prototype), kept up to date as steps complete. */
  visible: Record<string, StepEnvelope>;
  done: Map<string, Done>;
  /** Artifact references committed in this scope, in event order (a branch's fan-in lists them). */
  artifacts: string[];
  /** The last non-decision step that ran, and the path of its last output. */
  lastRun?: string;
  ended: boolean;
  /** The ids of the parallel steps whose body this scope runs, outermost first. */
  parallels: readonly string[];
}

function stepDefs(list: unknown): StepDef[] {
  const out: StepDef[] = [];
  if (!Array.isArray(list)) return out;
  list.forEach((raw, index) => {
    if (!isObject(raw) || typeof raw.id !== "string") return;
    const mv = raw.maxVisits;
    out.push({
      index, raw, id: raw.id, uses: typeof raw.uses === "string" ? raw.uses : "",
      needs: validNeeds(raw.needs), maxVisits: typeof mv === "number" && Number.isInteger(mv) && mv > 1 ? mv : 1,
    });
  });
  return out;
}

function envelopeOf(def: StepDef, done: Done): StepEnvelope {
  const last = done.outputs[done.outputs.length - 1];
  return def.maxVisits > 1 ? { output: last, visits: done.outputs.slice() } : { output: last };
}

class Simulation {
  readonly trace: TraceStep[] = [];
  readonly notes: string[] = [];
  private runs = 0;
  private readonly workflow: Obj;
  private readonly outputs: Readonly<Record<string, unknown>>;
  private readonly limit: number;
  private readonly choose: SimulateOptions["choose"];
  private readonly observe: SimulateOptions["observe"];

  constructor(workflow: Obj, private readonly input: unknown, options: SimulateOptions) {
    this.workflow = workflow;
    this.choose = options.choose;
    this.observe = options.observe;
    this.outputs = options.outputs ?? {};
    this.limit = options.maxStepRuns ?? MAX_STEP_RUNS;
  }

  run(): Trace {
    const top = stepDefs(this.workflow.steps);
    const scope = this.newScope(top, "");
    this.top = scope;
    try {
      this.checkInput();
      const terminal = this.terminalOf(top);
      if (terminal === "ambiguous") {
        const ids = terminalIndexes(this.workflow.steps as unknown[]).map((i) => String((this.workflow.steps as Obj[])[i].id));
        throw new RunFailure({ message: `The workflow has ${ids.length} final steps (${quoted(ids)}): the run fails before its first step.`, runtime: `Ambiguous terminal steps: ${ids.join(", ")}.` });
      }
      if (terminal) this.checkTerminalMode(terminal);
      this.runScope(scope, terminal);
      const output = this.finalOutput(scope, terminal);
      return { status: "completed", steps: this.trace, output, notes: this.notes };
    } catch (error) {
      if (error instanceof RunFailure) return { status: "failed", steps: this.trace, error: error.error, notes: this.notes };
      // A limit of the engine (a stack overflow on a value nested thousands deep): the dry run stops, said as ours.
      const message = `LWIR Tools could not go on with the dry run: ${error instanceof Error ? error.message : String(error)}.`;
      return { status: "failed", steps: this.trace, error: { message, cause: "dry_run_limit" }, notes: this.notes };
    }
  }

  private newScope(steps: StepDef[], prefix: string, branch?: Scope["branch"], visible?: Record<string, StepEnvelope>, parallels: readonly string[] = []): Scope {
    const byId = new Map<string, number>();
    steps.forEach((s, i) => {
      if (!byId.has(s.id)) byId.set(s.id, i);
    });
    return { steps, byId, prefix, ...(branch ? { branch } : {}), visible: visible ?? Object.create(null), done: new Map(), artifacts: [], ended: false, parallels };
  }

  /** The workflow input against input.schema, before anything runs (spec 13). */
  private checkInput(): void {
    const schema = isObject(this.workflow.input) ? this.workflow.input.schema : undefined;
    if (schema === undefined) return;
    const errors = validateInstance(schema, this.input);
    if (errors.length > 0) {
      throw new RunFailure({
        message: `The workflow input does not match input.schema: ${plainFindings(errors, "input")}.`,
        runtime: `Workflow input does not match schema: ${errorsText(errors)}`, cause: "input_schema_error", findings: findingsOf(errors),
      });
    }
  }

  /** The single terminal step of a list (spec 10.4), undefined when none, "ambiguous" when several. */
  private terminalOf(steps: StepDef[]): StepDef | "ambiguous" | undefined {
    const raw = steps.map((s) => s.raw);
    const indexes = terminalIndexes(raw);
    if (indexes.length > 1) return "ambiguous";
    return indexes.length === 1 ? steps[indexes[0]] : undefined;
  }

  /** Before the first step: the terminal step's output mode against the workflow output schema's single type (10.4). */
  private checkTerminalMode(terminal: StepDef): void {
    const schema = isObject(this.workflow.output) ? this.workflow.output.schema : undefined;
    const contract = isObject(terminal.raw.output) ? terminal.raw.output : undefined;
    if (!isObject(schema) || typeof schema.type !== "string" || !contract) return;
    const mode = contract.mode;
    const primary = mode === "text" || mode === "choice" ? "string" : mode === "object" || mode === "array" ? mode
      : mode === "json" && isObject(contract.schema) && typeof contract.schema.type === "string" ? contract.schema.type : undefined;
    if (primary !== undefined && primary !== schema.type) {
      throw new RunFailure({
        message: `The final step "${terminal.id}" gives ${String(mode)} output, but output.schema asks for type ${schema.type}: the run fails before its first step.`,
        runtime: `Terminal step '${terminal.id}' output mode '${String(mode)}' is incompatible with workflow output schema type '${schema.type}'.`,
        stepPath: terminal.id, cause: "step_schema_error",
      });
    }
  }

  private finalOutput(scope: Scope, terminal: StepDef | undefined): unknown {
    const id = terminal ? terminal.id : scope.lastRun;
    const done = id !== undefined ? scope.done.get(id) : undefined;
    if (!done || done.outputs.length === 0) {
      const message = terminal ? `The run ended before its final step "${terminal.id}" ran, so it has no output.` : "The run ended with no output: no step that gives one ran.";
      throw new RunFailure({ message, runtime: "Completed run is missing a final output artifact." });
    }
    const output = done.outputs[done.outputs.length - 1];
    // A single-visit terminal step checked the workflow output with its own output; otherwise it is checked here.
    if (!terminal || terminal.maxVisits > 1) {
      const failure = this.workflowOutputProblem(output);
      if (failure) throw new RunFailure({ ...failure, cause: "step_schema_error" });
    }
    return output;
  }

  private workflowOutputProblem(output: unknown): Omit<RunError, "stepPath"> | undefined {
    const schema = isObject(this.workflow.output) ? this.workflow.output.schema : undefined;
    if (schema === undefined || schema === true) return undefined;
    if (schema === false) return { message: "The workflow's output.schema is false, which accepts no output.", runtime: "Workflow output schema rejects all values." };
    const errors = validateInstance(schema, output);
    return errors.length === 0 ? undefined : {
      message: `The workflow output does not match output.schema: ${plainFindings(errors, "the output")}.`,
      runtime: `Workflow output does not match schema: ${errorsText(errors)}`, findings: findingsOf(errors),
    };
  }

  // ---------------------------------------------------------------------------------------------
  // The scheduler (spec 10)

  private runScope(scope: Scope, terminal: StepDef | undefined): void {
    const { steps } = scope;
    const pending = steps.map(() => true);
    const satisfied = new Set<string>();
    const decisions = steps.filter((s) => s.uses === "decision");
    const dependants = new Map<string, number[]>();
    steps.forEach((s, i) => {
      for (const n of s.needs) {
        const list = dependants.get(n) ?? [];
        list.push(i);
        dependants.set(n, list);
      }
    });
    // In a branch, a need on a top-level step its parallel step needs counts once that step completed (the
    // validator allows such needs; the semantics do not say how the branch's scheduler reads them, and a
    // branch that could never start would make every such workflow fail).
    const outer = scope.branch ? scope.branch.outerDone : undefined;
    const needsMet = (s: StepDef): boolean => s.needs.every((n) => satisfied.has(n) || (outer !== undefined && outer.has(n) && !scope.byId.has(n)));
    // The targets of the decisions whose needs are all met (held back until chosen): kept up to date as
    // steps complete, from each decision's count of needs not met yet (completion only ever adds).
    const held = new Set<string>();
    const unmet = new Map<StepDef, number>();
    const waitingOn = new Map<string, StepDef[]>();
    for (const d of decisions) {
      const open = [...new Set(d.needs)].filter((n) => !(outer !== undefined && outer.has(n) && !scope.byId.has(n)));
      unmet.set(d, open.length);
      for (const n of open) waitingOn.set(n, [...(waitingOn.get(n) ?? []), d]);
      if (open.length === 0) for (const t of decisionTargets(d.raw)) held.add(t);
    }
    const complete = (id: string): void => {
      if (satisfied.has(id)) return;
      satisfied.add(id);
      for (const d of waitingOn.get(id) ?? []) {
        const left = unmet.get(d)! - 1;
        unmet.set(d, left);
        if (left === 0) for (const t of decisionTargets(d.raw)) held.add(t);
      }
    };
    const heldBack = (s: StepDef): boolean => held.has(s.id);
    let forced: number | undefined;
    for (;;) {
      let i: number;
      if (forced !== undefined) {
        i = forced;
        forced = undefined;
      } else {
        i = steps.findIndex((s, k) => pending[k] && needsMet(s) && !heldBack(s));
        if (i < 0) {
          if (pending.some((p) => p)) {
            const runtime = scope.branch
              ? `No runnable LWIR branch step found for '${scope.prefix.slice(0, -1)}'; dependencies are incomplete or cyclic.`
              : "No runnable LWIR step found; dependencies are incomplete or cyclic.";
            const waiting = steps.filter((_, k) => pending[k]).map((s) => s.id);
            const message = `No step can run next: ${quoted(waiting)} ${waiting.length === 1 ? "waits" : "wait"} for a step that will not complete (a decision step, or a decision target that was not chosen).`;
            throw new RunFailure({ message, runtime, ...(scope.branch ? { stepPath: scope.prefix.slice(0, -1) } : {}) });
          }
          return;
        }
      }
      pending[i] = false;
      const step = steps[i];
      const chosen = this.runStep(scope, step, terminal);
      if (step.uses !== "decision") {
        complete(step.id);
        continue;
      }
      // After a decision: the other targets leave the queue; `end` stops the scope; else the target runs
      // next and everything that needs it, transitively, is queued again (how loops run again).
      for (const t of decisionTargets(step.raw)) {
        const k = scope.byId.get(t);
        if (k !== undefined && t !== chosen) pending[k] = false;
      }
      if (chosen === "end") {
        scope.ended = true;
        return;
      }
      const target = chosen === undefined ? undefined : scope.byId.get(chosen);
      if (target === undefined) {
        throw new RunFailure({ message: `Decision step "${step.id}" chose ${chosen === undefined ? "nothing" : `"${chosen}"`}, which is not a step of its list.`, stepPath: this.lastPathOf(scope, step) });
      }
      forced = target;
      const queue = [steps[target].id];
      const seen = new Set(queue);
      while (queue.length > 0) {
        for (const d of dependants.get(queue.pop()!) ?? []) {
          pending[d] = true;
          if (!seen.has(steps[d].id)) {
            seen.add(steps[d].id);
            queue.push(steps[d].id);
          }
        }
      }
      pending[target] = false;
    }
  }

  private lastPathOf(scope: Scope, step: StepDef): string {
    const n = (scope.done.get(step.id)?.outputs.length ?? 1) - 1;
    return scope.prefix + step.id + (step.maxVisits > 1 ? `.visit[${n}]` : "");
  }

  private contextFor(scope: Scope, step: Obj): EvalContext {
    return {
      input: this.input, steps: scope.visible, step, workflow: this.workflow,
      ...(scope.branch ? { item: scope.branch.item, hasItem: true } : {}),
    };
  }

  /** Runs one step of a scope and records it; returns the decision's choice. Throws RunFailure where the run stops. */
  private runStep(scope: Scope, step: StepDef, terminal: StepDef | undefined): string | undefined {
    const done = scope.done.get(step.id);
    const visit = done?.outputs.length ?? 0;
    const base = scope.prefix + step.id;
    const path = step.maxVisits > 1 ? `${base}.visit[${visit}]` : base;
    const entry: TraceStep = { path, id: step.id, uses: step.uses, ...(step.maxVisits > 1 ? { visit } : {}) };
    this.trace.push(entry);
    const context = this.contextFor(scope, step.raw);
    if (this.observe) this.observe(entry, { ...context, steps: Object.assign(Object.create(null), context.steps) }, scope.parallels);
    const fail = (failure: RunFailure): never => {
      entry.error = failure.error;
      throw failure;
    };
    if (++this.runs > this.limit) {
      fail(new RunFailure({ message: `The dry run stopped after ${this.limit} step runs.`, stepPath: path, cause: "dry_run_limit" }));
    }
    if (step.maxVisits > 1 && visit >= step.maxVisits) {
      fail(new RunFailure({
        message: `Step "${step.id}" would run a ${ordinal(visit + 1)} time, but its maxVisits is ${step.maxVisits}: the run fails (leaving a loop takes a decision choosing another step).`,
        runtime: `Step '${step.id}' has reached its maxVisits cap of ${step.maxVisits}.`, stepPath: path, cause: "max_visits_exceeded",
      }));
    }
    if (step.maxVisits === 1 && visit > 0) {
      fail(new RunFailure({
        message: `Step "${step.id}" has run already and its maxVisits is 1: the runtime refuses to run it again.`,
        runtime: `Step '${step.id}' has a non-terminal attempt and cannot be retried safely.`, stepPath: path, cause: "integrity",
      }));
    }
    try {
      // The step input, for every step type, before the step's own work (spec 7).
      const input = this.stepInput(scope, step, context, entry, path);
      let output: unknown;
      let chosen: string | undefined;
      switch (step.uses) {
        case "decision":
          chosen = this.decide(step, context, entry, path);
          output = { chosen };
          entry.output = output;
          break;
        case "parallel":
          output = this.parallel(scope, step, entry, path, visit);
          break;
        default:
          output = this.work(scope, step, input, context, entry, path, visit, terminal);
      }
      const value = stored(output, path);
      if (step.uses !== "decision") entry.output = value;
      const record = done ?? { outputs: [] };
      record.outputs.push(value);
      scope.done.set(step.id, record);
      scope.visible[step.id] = envelopeOf(step, record);
      if (scope.branch && this.top) this.top.visible[base] = envelopeOf(step, record);
      const ref = artifactRef(path);
      scope.artifacts.push(ref);
      if (step.uses !== "decision") scope.lastRun = step.id;
      return chosen;
    } catch (error) {
      if (error instanceof RunFailure) {
        if (!entry.error) entry.error = error.error;
        throw error;
      }
      throw error;
    }
  }

  /** The top-level scope: completed branch steps are visible there under their full path (spec 6.4). */
  private top?: Scope;

  private stepInput(scope: Scope, step: StepDef, context: EvalContext, entry: TraceStep, path: string): unknown {
    const w = step.raw.with;
    let source: unknown;
    if (hasOwn(step.raw, "input")) {
      entry.inputFrom = "input";
      source = step.raw.input;
    } else if (isObject(w) && w.args !== undefined) {
      entry.inputFrom = "with.args";
      source = w.args;
    } else {
      entry.inputFrom = scope.branch ? "item" : "workflow input";
      const value = scope.branch ? scope.branch.item : this.input;
      entry.input = value;
      return value;
    }
    const r = resolveValue(source, context);
    if (!r.ok) throw evalFailure(r.error, path, entry.inputFrom);
    if (r.value !== undefined) entry.input = r.value;
    return r.value;
  }

  private decide(step: StepDef, context: EvalContext, entry: TraceStep, path: string): string | undefined {
    const w = isObject(step.raw.with) ? step.raw.with : {};
    const cases = Array.isArray(w.cases) ? w.cases : [];
    if (this.choose) {
      const targets = [...new Set([...cases.map((c) => (isObject(c) ? c.to : undefined)), w.default].filter((t): t is string => typeof t === "string"))];
      const forced = this.choose(path, targets);
      if (forced !== undefined) {
        entry.chosen = forced;
        entry.forced = true;
        return forced;
      }
    }
    entry.cases = [];
    for (let k = 0; k < cases.length; k++) {
      const c = isObject(cases[k]) ? cases[k] as Obj : {};
      const r = resolveValue(c.when, context);
      if (!r.ok) throw evalFailure(r.error, path, `with.cases[${k}].when`);
      const truthy = Boolean(r.value);
      entry.cases.push({ index: k, when: c.when, value: r.value, truthy });
      if (truthy) {
        entry.chosen = typeof c.to === "string" ? c.to : undefined;
        entry.byDefault = false;
        return entry.chosen;
      }
    }
    entry.chosen = typeof w.default === "string" ? w.default : undefined;
    entry.byDefault = true;
    return entry.chosen;
  }

  /** ai.generate, tool.call, code.run: the sample output, checked as the runtime checks a result. */
  private work(scope: Scope, step: StepDef, input: unknown, context: EvalContext, entry: TraceStep, path: string, visit: number, terminal: StepDef | undefined): unknown {
    const w = isObject(step.raw.with) ? step.raw.with : {};
    const notes: string[] = [];
    if (step.uses === "ai.generate") {
      if (typeof w.model !== "string" || w.model === "") {
        throw new RunFailure({ message: `Step "${step.id}" has no model: with.model must be a non-empty string.`, runtime: `Step '${step.id}' requires string config 'model'.`, stepPath: path, at: "with.model", cause: "runtime_config_error" });
      }
      entry.with = { model: w.model };
      const p = buildPrompt(w, input, context);
      if (!p.ok) throw evalFailure(p.error, path, p.field);
      entry.system = p.prompt.system;
      entry.user = p.prompt.user;
      notes.push(...p.prompt.notes);
    } else if (step.uses === "tool.call") {
      entry.with = { tool: w.tool };
      notes.push("tool.call is not run: its output is the sample (the tool's own input schema is not checked)");
    } else if (step.uses === "code.run") {
      entry.with = { entrypoint: w.entrypoint };
      notes.push("code.run is not run: its output is the sample, as with a custom worker.harness; the default worker harness refuses to run code.run and fails here");
    }
    const sample = this.sampleFor(scope, step, visit);
    entry.sample = sample.generated ? "generated" : "given";
    if (sample.problem) notes.push(`the generated sample does not satisfy the declared output: ${sample.problem}`);
    const contract = isObject(step.raw.output) ? step.raw.output as OutputContract : undefined;
    const checked = checkOutput(step.id, contract, sample.value);
    if (!checked.ok) {
      if (step.uses === "ai.generate") notes.push("the runtime re-asks the model up to onFailure.repair.maxAttempts times (3 by default); a sample does not change, so the step fails");
      if (notes.length > 0) entry.notes = notes;
      throw new RunFailure({ ...checked.error, stepPath: path, at: "output", cause: "step_schema_error" });
    }
    if (!scope.branch && terminal === step && step.maxVisits === 1) {
      const problem = this.workflowOutputProblem(checked.value);
      if (problem) {
        if (notes.length > 0) entry.notes = notes;
        throw new RunFailure({ ...problem, stepPath: path, at: "output", cause: "step_schema_error" });
      }
    }
    if (notes.length > 0) entry.notes = notes;
    return checked.value;
  }

  /** The scenario's sample for this run of the step, else a generated one. */
  private sampleFor(scope: Scope, step: StepDef, visit: number): { value: unknown; generated: boolean; problem?: string } {
    let found = false;
    let value: unknown;
    const full = scope.prefix + step.id;
    if (scope.branch && hasOwn(this.outputs, full)) {
      found = true;
      value = this.outputs[full];
    } else if (hasOwn(this.outputs, step.id)) {
      found = true;
      value = this.outputs[step.id];
      if (scope.branch) {
        // In a parallel body: a list in item order, or an object keyed by item key; else one value for every branch.
        const { index, key } = scope.branch;
        if (Array.isArray(value)) {
          found = index < value.length;
          value = value[index];
        } else if (isObject(value) && hasOwn(value, key) && this.keyedByItem(value)) {
          value = value[key];
        } else if (isObject(value) && this.keyedByItem(value)) {
          found = false;
        }
      }
    }
    if (found && step.maxVisits > 1 && Array.isArray(value)) {
      found = visit < value.length;
      value = value[visit];
    }
    if (found) return { value, generated: false };
    const generated = sampleOfOutput(step.id, isObject(step.raw.output) ? step.raw.output as OutputContract : undefined);
    return { value: generated.value, generated: true, ...(generated.problem ? { problem: generated.problem } : {}) };
  }

  /** The item keys of the parallel steps run so far: an object whose keys are all among them is taken as keyed by item. */
  private readonly itemKeys = new Set<string>();
  private keyedByItem(value: Obj): boolean {
    const keys = Object.keys(value);
    return keys.length > 0 && keys.every((k) => this.itemKeys.has(k));
  }

  // ---------------------------------------------------------------------------------------------
  // Parallel (spec 12)

  private parallel(scope: Scope, step: StepDef, entry: TraceStep, path: string, _visit: number): unknown {
    const w = isObject(step.raw.with) ? step.raw.with : {};
    const context = this.contextFor(scope, step.raw);
    const configProblem = parallelConfigProblem(w);
    if (configProblem) {
      throw new RunFailure({ message: `Parallel step "${step.id}" has an invalid with.${configProblem}.`, runtime: `Parallel step '${step.id}' has invalid runtime config.`, stepPath: path, at: `with.${configProblem}`, cause: "runtime_config_error" });
    }
    const items = resolveValue(w.items, context);
    if (!items.ok) throw evalFailure(items.error, path, "with.items");
    if (!Array.isArray(items.value)) {
      throw new RunFailure({
        message: `with.items of parallel step "${step.id}" must give an array, not ${describeValue(items.value)}.`,
        runtime: `Parallel step '${step.id}' items expression must resolve to an array.`, stepPath: path, at: "with.items", cause: "runtime_config_error",
      });
    }
    const list = items.value;
    entry.items = list;
    const maxBranches = w.maxBranches as number;
    if (list.length > maxBranches) {
      throw new RunFailure({
        message: `with.items of parallel step "${step.id}" gives ${list.length} items, more than its maxBranches of ${maxBranches}.`,
        runtime: `Parallel step '${step.id}' resolved ${list.length} item(s), exceeding maxBranches ${maxBranches}.`, stepPath: path, at: "with.items", cause: "runtime_config_error",
      });
    }
    const keys: string[] = [];
    const seen = new Set<string>();
    for (const item of list) {
      const r = resolveValue(w.itemKey, { ...context, item, hasItem: true });
      if (!r.ok) throw evalFailure(r.error, path, "with.itemKey");
      if (typeof r.value !== "string" || r.value === "") {
        throw new RunFailure({
          message: `with.itemKey of parallel step "${step.id}" must give a non-empty string, not ${describeValue(r.value)} (item ${keys.length + 1}).`,
          runtime: `Parallel step '${step.id}' itemKey must resolve to a non-empty string.`, stepPath: path, at: "with.itemKey", cause: "runtime_config_error",
        });
      }
      if (seen.has(r.value)) {
        throw new RunFailure({
          message: `with.itemKey of parallel step "${step.id}" gives ${JSON.stringify(r.value)} for two items: item keys must differ.`,
          runtime: `Duplicate itemKey '${r.value}' in parallel step '${step.id}'.`, stepPath: path, at: "with.itemKey", cause: "runtime_config_error",
        });
      }
      seen.add(r.value);
      keys.push(r.value);
      this.itemKeys.add(r.value);
    }
    entry.itemKeys = keys;
    entry.branches = keys.map((k) => `${path}[${encodeItemKey(k)}]`);
    entry.notes = ["branches are run one after another, in item order; artifact references are made up by the dry run"];
    const body = stepDefs(step.raw.steps);
    const bodyTerminal = this.terminalOf(body);
    const fanIn = isObject(w.fanIn) ? w.fanIn : {};
    const outputStep = typeof fanIn.outputStep === "string" ? fanIn.outputStep : undefined;
    const failFast = w.failureMode !== "all_settled";
    // What a branch sees of the top level: the completed single-visit steps the parallel step needs (spec 6.4).
    const outer: Record<string, StepEnvelope> = Object.create(null);
    for (const n of step.needs) {
      const k = scope.byId.get(n);
      const envelope = scope.visible[n];
      if (k !== undefined && envelope && scope.steps[k].maxVisits === 1 && scope.done.has(n)) outer[n] = envelope;
    }
    const envelopes: Obj[] = [];
    for (let b = 0; b < list.length; b++) {
      const branchPath = entry.branches[b];
      const visible: Record<string, StepEnvelope> = Object.assign(Object.create(null), outer);
      const branch = this.newScope(body, `${branchPath}.`, { item: list[b], index: b, key: keys[b], parallelId: step.id, outerDone: new Set(Object.keys(outer)) }, visible, [...scope.parallels, step.id]);
      let failure: RunError | undefined;
      let result: unknown;
      try {
        if (bodyTerminal === "ambiguous") {
          const ids = terminalIndexes(body.map((s) => s.raw)).map((i) => body[i].id);
          throw new RunFailure({ message: `The body of parallel step "${step.id}" has ${ids.length} final steps (${quoted(ids)}): every branch fails.`, runtime: `Ambiguous terminal steps: ${ids.join(", ")}.`, stepPath: branchPath });
        }
        this.runScope(branch, bodyTerminal);
        const resultId = outputStep ?? branch.lastRun ?? bodyTerminal?.id;
        const done = resultId !== undefined ? branch.done.get(resultId) : undefined;
        if (!done || done.outputs.length === 0) {
          throw new RunFailure({
            message: resultId === undefined ? `Branch ${branchPath} ended with no output: no step that gives one ran.` : `Branch ${branchPath} ended before "${resultId}" ran, so it has no output.`,
            runtime: `Parallel branch '${branchPath}' is missing final output.`, stepPath: branchPath,
          });
        }
        result = done.outputs[done.outputs.length - 1];
      } catch (error) {
        if (!(error instanceof RunFailure)) throw error;
        failure = error.error;
      }
      if (failure) {
        // Terminal causes fail the parallel step in both modes; other failures only under fail_fast.
        if (TERMINAL_CAUSES.has(failure.cause) || failFast) {
          throw new RunFailure({ ...failure, message: failure.message });
        }
        envelopes.push({
          itemKey: keys[b], status: "failed",
          error: { name: "Error", message: failure.runtime ?? failure.message, ...(failure.stepPath ? { failedStepPath: failure.stepPath } : {}), retriable: false },
          artifacts: branch.artifacts,
        });
        continue;
      }
      const resultPath = branch.lastRun !== undefined || outputStep !== undefined ? this.resultPath(branch, outputStep ?? branch.lastRun!) : branchPath;
      envelopes.push({ itemKey: keys[b], status: "completed", output: result, outputRef: artifactRef(resultPath), artifacts: branch.artifacts });
    }
    if (fanIn.order === "itemKey") envelopes.sort((a, b) => ((a.itemKey as string) < (b.itemKey as string) ? -1 : (a.itemKey as string) > (b.itemKey as string) ? 1 : 0));
    entry.sample = "computed";
    const contract = isObject(step.raw.output) ? step.raw.output as OutputContract : undefined;
    const checked = checkOutput(step.id, contract, envelopes);
    if (!checked.ok) throw new RunFailure({ ...checked.error, stepPath: path, at: "output", cause: "step_schema_error" });
    return checked.value;
  }

  private resultPath(branch: Scope, id: string): string {
    const k = branch.byId.get(id);
    const def = k === undefined ? undefined : branch.steps[k];
    return def ? this.lastPathOf(branch, def) : branch.prefix + id;
  }
}

/** The parallel configuration the runtime checks before it starts (spec 12.1); the first bad field, or undefined. */
function parallelConfigProblem(w: Obj): string | undefined {
  const int = (v: unknown, min: number, max: number): boolean => typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;
  if (typeof w.items !== "string") return "items";
  if (typeof w.itemKey !== "string") return "itemKey";
  if (!isObject(w.cardinality) || w.cardinality.kind !== "matches_items") return "cardinality";
  if (!int(w.maxBranches, 1, 100)) return "maxBranches";
  if (!int(w.maxConcurrency, 1, w.maxBranches as number)) return "maxConcurrency";
  if (w.failureMode !== "fail_fast" && w.failureMode !== "all_settled") return "failureMode";
  const fanIn = w.fanIn;
  if (!isObject(fanIn) || (fanIn.order !== "input" && fanIn.order !== "itemKey") || fanIn.output !== "array") return "fanIn";
  return undefined;
}

export type OutputCheck = { ok: true; value: unknown } | { ok: false; error: { message: string; runtime: string; findings?: string[] } };

/** Schema errors in plain words: `the output.score must be number; the output must have property "label"`. */
export function plainFindings(errors: readonly InstanceError[], root: string): string {
  return errors.slice(0, 5).map((e) => {
    const path = e.instancePath.split("/").slice(1).map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
      .map((p) => (/^\d+$/.test(p) ? `[${p}]` : /^[A-Za-z_$][\w$-]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`)).join("");
    const message = e.message.replace(/must NOT/g, "must not").replace(/must have required property '([^']*)'/, 'must have property "$1"')
      .replace("must be equal to one of the allowed values", "must be one of the values of its enum").replace("must be equal to constant", "must be its const value");
    return `${root}${path} ${message}`;
  }).join("; ") + (errors.length > 5 ? `; and ${errors.length - 5} more` : "");
}

function quoted(ids: readonly string[]): string {
  return ids.map((id) => `"${id}"`).join(", ");
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : n % 10 === 1 ? "st" : n % 10 === 2 ? "nd" : n % 10 === 3 ? "rd" : "th";
  return `${n}${suffix}`;
}

/** A step's result against its declared output, as the runtime checks a model's answer (spec 13, steps 1–3). */
export function checkOutput(stepId: string, contract: OutputContract | undefined, result: unknown): OutputCheck {
  if (!contract) return { ok: true, value: result };
  const mode = contract.mode;
  let value = result;
  if (mode === "array" && isObject(value)) {
    for (const key of ["items", "elements", "candidates", "data"]) {
      if (Array.isArray(value[key])) {
        value = value[key];
        break;
      }
    }
  }
  const modeOk = mode === "text" ? typeof value === "string"
    : mode === "choice" ? typeof value === "string" && Array.isArray(contract.values) && contract.values.includes(value)
    : mode === "object" ? isObject(value)
    : mode === "array" ? Array.isArray(value)
    : true;
  if (!modeOk) {
    const what = mode === "choice" ? `one of output.values${Array.isArray(contract.values) ? ` (${contract.values.map((v) => JSON.stringify(v)).join(", ")})` : ""}` : mode === "text" ? "text" : mode === "object" ? "an object" : "an array";
    return { ok: false, error: { message: `The output of step "${stepId}" must be ${what}, not ${describeValue(value)}.`, runtime: `Step '${stepId}' output does not match ${String(mode)} output mode.` } };
  }
  if ((mode === "object" || mode === "array" || mode === "json") && contract.schema !== undefined && contract.schema !== true) {
    if (contract.schema === false) return { ok: false, error: { message: `Step "${stepId}" has output.schema false, which accepts no output.`, runtime: `Step '${stepId}' output schema rejects all values.` } };
    const errors = validateInstance(contract.schema, value);
    if (errors.length > 0) {
      return { ok: false, error: {
        message: `The output of step "${stepId}" does not match its output.schema: ${plainFindings(errors, "the output")}.`,
        runtime: `Step '${stepId}' output does not match schema: ${errorsText(errors)}`, findings: findingsOf(errors),
      } };
    }
  }
  return { ok: true, value };
}

/**
 * Simulates a run of `workflow` (the parsed document; it is used in its canonical key order, as the runtime
 * registers it). Never throws for a document of any shape: what the runtime would refuse ends the trace.
 */
export function simulate(workflow: unknown, options: SimulateOptions): Trace {
  let registered: Obj;
  try {
    const copy = canonical(workflow);
    if (!isObject(copy)) return { status: "failed", steps: [], error: { message: "The workflow document is not an object." }, notes: [] };
    registered = copy;
  } catch (error) {
    return { status: "failed", steps: [], error: { message: `The workflow cannot be registered: ${error instanceof Error ? error.message : String(error)}` }, notes: [] };
  }
  return new Simulation(registered, options.input, options).run();
}
