// "LWIR: Dry run" in the editor: one dry run in the current scenario (preview.ts), told two ways: the
// trace as text (the words of `lwir run --dry`, traceText.ts) and a summary per step for the graph view's
// overlay (how often each step ran, the target each decision chose, the step that failed, the steps
// never reached). Keys are step paths without visits or item keys (`triage.draft`): the graph's node ids.
// Pure: the language server (lsp/dryRunFeatures.ts) finds the scenario and answers `lwir/dryRun`.
import { END, isObject } from "../lwir/validate";
import type { DryRunView } from "./preview";
import type { RunError, Trace, TraceStep } from "./simulate";
import { formatTrace, jsonReplacer } from "./traceText";

/** A decision's choice in the overlay: the step chosen (its step path) or the end of its scope, and how often. */
export interface OverlayChoice {
  /** The chosen step's path (`triage.escalate`); absent when the decision chose `end`. */
  to?: string;
  end?: true;
  /** How many of the decision's runs chose it. */
  runs: number;
  /** Chosen by `default` (no case held), else the index of the case that held. */
  byDefault: boolean;
  caseIndex?: number;
}

/** Where a step failed: the run path (`worker.visit[1]`, `review[c1].score`) and the error there. */
export interface OverlayFailure {
  path: string;
  message: string;
  at?: string;
  expression?: string;
  runtime?: string;
}

export interface OverlayStep {
  /** The step path, as the graph's node id. */
  step: string;
  /** How many times the step started (visits of a loop, branches of a parallel body). */
  runs: number;
  /** Decisions: each target chosen, in the order first chosen. */
  chosen?: OverlayChoice[];
  /** The step's own failure (not one inside a parallel step's body, which its body step carries). */
  failed?: OverlayFailure;
}

export interface DryRunOverlay {
  status: Trace["status"];
  /** The steps that ran, in document order. */
  steps: OverlayStep[];
  /** The document's steps with no run, in document order. */
  unreached: string[];
  /** A failure on no step (the input against input.schema, the workflow output against output.schema). */
  error?: OverlayFailure;
}

/** Every step path of the document (parallel bodies included), in document order. */
export function stepPaths(workflow: unknown): string[] {
  const out: string[] = [];
  const walk = (list: unknown, prefix: string): void => {
    if (!Array.isArray(list)) return;
    for (const step of list) {
      if (!isObject(step) || typeof step.id !== "string") continue;
      out.push(prefix + step.id);
      if (step.uses === "parallel") walk(step.steps, `${prefix}${step.id}.`);
    }
  };
  walk(isObject(workflow) ? workflow.steps : undefined, "");
  return out;
}

function failureOf(path: string, e: RunError): OverlayFailure {
  return {
    path, message: e.message,
    ...(e.at !== undefined ? { at: e.at } : {}),
    ...(e.expression !== undefined ? { expression: e.expression } : {}),
    ...(e.runtime ? { runtime: e.runtime } : {}),
  };
}

/** The overlay of a dry run: per step path, its runs, choices and failure; the steps never reached. */
export function dryRunOverlay(workflow: unknown, view: Pick<DryRunView, "runs" | "trace">): DryRunOverlay {
  const steps: OverlayStep[] = [];
  const unreached: string[] = [];
  const paths = stepPaths(workflow);
  // runs of step paths the walk does not list (none for a document the runtime accepts) are still shown
  for (const key of view.runs.keys()) if (!paths.includes(key)) paths.push(key);
  for (const key of paths) {
    const runs = view.runs.get(key) ?? [];
    if (runs.length === 0) {
      unreached.push(key);
      continue;
    }
    const step: OverlayStep = { step: key, runs: runs.length };
    const scope = key.includes(".") ? key.slice(0, key.lastIndexOf(".") + 1) : "";
    for (const { entry } of runs) {
      if (entry.chosen !== undefined) addChoice(step, entry, scope);
      // a failure that started in this run (a parallel step's entry also holds its body step's failure)
      if (entry.error && !step.failed && (entry.error.stepPath === undefined || entry.error.stepPath === entry.path)) step.failed = failureOf(entry.path, entry.error);
    }
    steps.push(step);
  }
  const e = view.trace.error;
  const onStep = e?.stepPath !== undefined && view.trace.steps.some((s) => s.path === e.stepPath);
  return { status: view.trace.status, steps, unreached, ...(e && !onStep ? { error: failureOf(e.stepPath ?? "", e) } : {}) };
}

function addChoice(step: OverlayStep, entry: TraceStep, scope: string): void {
  const end = entry.chosen === END;
  const to = end ? undefined : scope + entry.chosen;
  const last = entry.cases?.[entry.cases.length - 1];
  const byDefault = entry.byDefault === true;
  const caseIndex = !byDefault && entry.forced !== true && last?.truthy ? last.index : undefined;
  const list = (step.chosen ??= []);
  const same = list.find((c) => c.to === to && c.byDefault === byDefault && c.caseIndex === caseIndex);
  if (same) same.runs++;
  else list.push({ ...(end ? { end: true as const } : { to }), runs: 1, byDefault, ...(caseIndex !== undefined ? { caseIndex } : {}) });
}

/** What `lwir/dryRun` answers for a workflow that runs: the trace (as `lwir run --dry --format json` has it), its text, the overlay. */
export interface DryRunReport {
  /** The current scenario in words (`scenario "two tickets" (flow.lwir.test.yaml)`, `the generated input`). */
  scenario: string;
  /** No scenario: the input is generated from input.schema and every output is a generated sample. */
  generated: boolean;
  input: unknown;
  inputFrom: string;
  /** The trace, with `undefined` written as `{"undefined": true}` (as the CLI's JSON). */
  trace: Trace;
  /** The trace as `lwir run --dry` prints it, then the steps never reached. */
  text: string;
  overlay: DryRunOverlay;
}

/** The report of a dry run kept by the editor (`title`: the first line, naming the workflow). */
export function dryRunReport(workflow: unknown, view: DryRunView, title: string): DryRunReport {
  const { scenario, trace } = view;
  const overlay = dryRunOverlay(workflow, view);
  const { generated } = scenario;
  let text = formatTrace(`${title}, ${scenario.label}`, scenario.input, scenario.inputFrom, trace);
  if (generated) text += "\nNo scenario: the input is generated from input.schema and every step's output is a generated sample (as `lwir run --dry FILE`).\n";
  text += overlay.unreached.length > 0 ? `\nnever reached: ${overlay.unreached.join(", ")}\n` : "\nevery step was reached\n";
  return {
    scenario: scenario.label, generated, input: plain(scenario.input), inputFrom: scenario.inputFrom,
    trace: plain(trace) as Trace, text, overlay,
  };
}

/** A value as JSON carries it, `undefined` kept as `{"undefined": true}`. */
function plain(value: unknown): unknown {
  const text = JSON.stringify(value, jsonReplacer);
  return text === undefined ? null : JSON.parse(text);
}
