// The dry run as the editor shows it (issue #24): one run of the workflow in the current scenario, and
// what it says about one step (the prompt an ai.generate step sends) or one expression (its value where
// its step runs). The current scenario is the one the user chose (by name, or the generated input), else the
// first scenario of the scenarios file beside the workflow, else the input generated from input.schema, as
// `lwir run --dry` takes it with and without --scenario.
// Pure: the caller (lsp/dryRunFeatures.ts) reads the files and finds the expression under the cursor.
import type { LwirDocument } from "../document/types";
import type { PathSegment } from "../lwir/types";
import type { EvalContext } from "./context";
import { evaluateExpression, type EvalResult } from "./evaluate";
import { generatedInput, readScenarios } from "./scenarios";
import { simulate, type RunError, type Trace, type TraceStep } from "./simulate";

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The input and sample outputs a preview runs with, and how to name them to the user. */
export interface CurrentScenario {
  /** `scenario "two tickets" (flow.lwir.test.yaml)`, or `the generated input` (with why, when a scenarios file is there but unusable). */
  label: string;
  /** The scenario's name; none for the generated input. */
  name?: string;
  input: unknown;
  /** Where the input comes from, in the words of `lwir run --dry` ("from the scenario", "generated from input.schema"). */
  inputFrom: string;
  /** No scenario (no scenarios file, or none usable): the input and every output are generated. */
  generated: boolean;
  outputs: Record<string, unknown>;
}

/** A scenarios file found beside the workflow: its name and its parsed document. */
export interface ScenariosSource {
  name: string;
  doc: LwirDocument;
}

const GENERATED = "generated from input.schema";

/**
 * Which scenario runs: a scenario's name, `null` for the generated input (no scenario), or `undefined` for the
 * default: the first scenario of the scenarios file.
 */
export type ScenarioChoice = string | null | undefined;

/** The names of the scenarios file's scenarios, in file order (none when it does not parse). */
export function scenarioNames(scenarios: ScenariosSource | undefined): string[] {
  if (!scenarios || scenarios.doc.parseErrors.length > 0 || scenarios.doc.tooDeep) return [];
  return readScenarios(scenarios.doc).scenarios.map((s) => s.name);
}

/**
 * The scenario a preview runs: the chosen one, else the first of the scenarios file, else the generated input
 * (`lwir run --dry` with and without --scenario). A chosen name the file no longer has falls back to the first
 * scenario, and the label says so.
 */
export function currentScenario(workflow: unknown, scenarios: ScenariosSource | undefined, choice?: ScenarioChoice): CurrentScenario {
  const generated = (why = ""): CurrentScenario => ({ label: `the generated input${why}`, input: generatedInput(workflow), inputFrom: GENERATED, generated: true, outputs: {} });
  if (choice === null) return generated(scenarios ? ` (chosen instead of ${scenarios.name}'s scenarios)` : "");
  if (!scenarios) return generated();
  const { doc, name } = scenarios;
  if (doc.parseErrors.length > 0 || doc.tooDeep) return generated(` (${name} does not parse)`);
  const all = readScenarios(doc).scenarios;
  const chosen = choice === undefined ? undefined : all.find((s) => s.name === choice);
  const scenario = chosen ?? all[0];
  if (!scenario) return generated(` (${name} has no scenario)`);
  const missing = choice !== undefined && !chosen ? `; it has no scenario ${JSON.stringify(choice)} any more` : "";
  return {
    label: `scenario ${JSON.stringify(scenario.name)} (${name}${missing})`,
    name: scenario.name,
    input: scenario.hasInput ? scenario.input : generatedInput(workflow),
    inputFrom: scenario.hasInput ? "from the scenario" : GENERATED,
    generated: false,
    outputs: scenario.outputs,
  };
}

/** One run of a step: its trace entry and the context its templates read. */
export interface StepRun {
  entry: TraceStep;
  context: EvalContext;
}

/** A dry run kept for the previews: the trace, and each step's runs by step path (`draft`, `triage.draft`). */
export interface DryRunView {
  scenario: CurrentScenario;
  trace: Trace;
  runs: Map<string, StepRun[]>;
}

export function dryRunView(workflow: unknown, scenario: CurrentScenario): DryRunView {
  const runs = new Map<string, StepRun[]>();
  const trace = simulate(workflow, {
    input: scenario.input,
    outputs: scenario.outputs,
    observe: (entry, context, parallels) => {
      const key = [...parallels, entry.id].join(".");
      const list = runs.get(key) ?? [];
      list.push({ entry, context });
      runs.set(key, list);
    },
  });
  return { scenario, trace, runs };
}

// ---- steps in the document ----------------------------------------------------------------------------

/** A step of the document: its step path (ids from the top level, joined by `.`: ids hold no `.`), where it is, and what is under it. */
export interface StepAt {
  stepPath: string;
  uses: string;
  /** The path of the step object. */
  segments: PathSegment[];
}

/** The innermost step at a path of the document, and the rest of the path inside it. */
export function stepAt(value: unknown, segments: readonly PathSegment[]): (StepAt & { rest: PathSegment[] }) | undefined {
  let list = isObject(value) ? value.steps : undefined;
  let found: (StepAt & { rest: PathSegment[] }) | undefined;
  const ids: string[] = [];
  for (let i = 0; segments[i] === "steps" && typeof segments[i + 1] === "number" && Array.isArray(list); i += 2) {
    const step: unknown = list[segments[i + 1] as number];
    if (!isObject(step) || typeof step.id !== "string") break;
    ids.push(step.id);
    found = { stepPath: ids.join("."), uses: typeof step.uses === "string" ? step.uses : "", segments: segments.slice(0, i + 2), rest: segments.slice(i + 2) };
    list = step.uses === "parallel" ? step.steps : undefined;
  }
  return found;
}

/** Every step of a kind (`ai.generate`), parallel bodies included, in document order. */
export function stepsUsing(value: unknown, uses: string): StepAt[] {
  const out: StepAt[] = [];
  const walk = (list: unknown, segments: PathSegment[], ids: string[]): void => {
    if (!Array.isArray(list)) return;
    list.forEach((step: unknown, i) => {
      if (!isObject(step) || typeof step.id !== "string") return;
      const here = [...segments, "steps", i];
      const path = [...ids, step.id];
      if (step.uses === uses) out.push({ stepPath: path.join("."), uses, segments: here });
      if (step.uses === "parallel") walk(step.steps, here, path);
    });
  };
  walk(isObject(value) ? value.steps : undefined, [], []);
  return out;
}

// ---- the prompt of a step -----------------------------------------------------------------------------

/** Where the dry run stopped, as the preview tells it. */
export interface PreviewError {
  message: string;
  /** False: the step is not reached (the run stops before it, or completes without it). */
  reached: boolean;
  /** The step path where the run stopped (`draft`, `worker.visit[1]`), the place in it, the expression and the runtime's words. */
  stepPath?: string;
  at?: string;
  expression?: string;
  runtime?: string;
}

/** What `lwir/previewPrompt` answers (protocol.ts): the messages, or why there are none. */
export interface PromptPreview {
  /** The step asked about. */
  step: string;
  /** The current scenario, in words. */
  scenario: string;
  /** The run shown (the first): its step path, and how many times the step runs in this scenario. */
  run?: string;
  runs?: number;
  model?: string;
  /** The system prompt ("" when the step has none) and the user message, byte for byte. */
  system?: string;
  user?: string;
  /** Choices the dry run made (as the trace shows them). */
  notes?: string[];
  error?: PreviewError;
}

function errorOf(e: RunError, reached: boolean, message = e.message): PreviewError {
  return {
    message, reached,
    ...(e.stepPath !== undefined ? { stepPath: e.stepPath } : {}),
    ...(e.at !== undefined ? { at: e.at } : {}),
    ...(e.expression !== undefined ? { expression: e.expression } : {}),
    ...(e.runtime ? { runtime: e.runtime } : {}),
  };
}

/** Why a step has no run in this dry run: the run stopped before it, or completed without it. */
function notReached(view: DryRunView, stepPath: string): PreviewError {
  const { trace } = view;
  if (trace.status === "failed" && trace.error) {
    const where = trace.error.stepPath ? ` at ${trace.error.stepPath}` : trace.steps.length === 0 ? " before its first step" : "";
    return errorOf(trace.error, false, `Step ${stepPath} is not reached: the run stops${where} first. ${trace.error.message}`);
  }
  return { message: `Step ${stepPath} is not reached in this scenario: the run completes without it (a decision chose another way).`, reached: false };
}

export function previewPrompt(view: DryRunView, stepPath: string): PromptPreview {
  const base = { step: stepPath, scenario: view.scenario.label };
  const runs = view.runs.get(stepPath) ?? [];
  const first = runs[0];
  if (!first) return { ...base, error: notReached(view, stepPath) };
  const { entry } = first;
  const shown = { ...base, run: entry.path, runs: runs.length, ...(typeof entry.with?.model === "string" ? { model: entry.with.model } : {}) };
  if (entry.user !== undefined) {
    const notes = (entry.notes ?? []).filter((n) => n.startsWith("with."));
    return { ...shown, system: entry.system ?? "", user: entry.user, ...(notes.length > 0 ? { notes } : {}) };
  }
  const error = entry.error ?? view.trace.error;
  if (entry.uses !== "ai.generate") return { ...shown, error: { message: `Step ${stepPath} is not an ai.generate step: it sends no prompt.`, reached: true } };
  return { ...shown, error: error ? errorOf(error, true) : { message: `The dry run did not build the messages of step ${stepPath}.`, reached: true } };
}

// ---- the value of an expression -----------------------------------------------------------------------

/** The value (or error) of an expression read in a step: in its first run, else why it is not read. */
export type ExpressionValue =
  | { reached: true; run: string; runs: number; result: EvalResult }
  | { reached: false; why: PreviewError };

/**
 * `body` (the text between `{{` and `}}`) evaluated as the step's templates read it in the step's first
 * run. `rest` is where the template is in the step: in a parallel step's `with.itemKey`, `item` is the
 * first item (as for the first branch).
 */
export function expressionValue(view: DryRunView, stepPath: string, rest: readonly PathSegment[], body: string): ExpressionValue {
  const runs = view.runs.get(stepPath) ?? [];
  const first = runs[0];
  if (!first) return { reached: false, why: notReached(view, stepPath) };
  let context = first.context;
  if (rest[0] === "with" && rest[1] === "itemKey" && first.entry.items && first.entry.items.length > 0) {
    context = { ...context, item: first.entry.items[0], hasItem: true };
  }
  return { reached: true, run: first.entry.path, runs: runs.length, result: evaluateExpression(body.trim(), context) };
}

/** Values longer than this are cut in the hover. */
const MAX_SHOWN = 1200;

/** A value as the hover shows it: JSON (indented when long), `undefined` spelt out, cut when long. */
export function shownValue(value: unknown): string {
  if (value === undefined) return "undefined";
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
    if (text.length > 80) text = JSON.stringify(value, null, 2);
  } catch {
    return "(nested too deeply to show)";
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}\n… (${text.length} characters)` : text;
}

const code = (s: string) => "`" + s.replace(/`/g, "'").replace(/[\r\n]+/g, " ") + "`";

function fence(text: string, lang = ""): string {
  let ticks = "```";
  while (text.includes(ticks)) ticks += "`";
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

/** The hover's part: the value in the current scenario, the error it raises, or "not reached". */
export function expressionValueMarkdown(value: ExpressionValue, scenario: string): string {
  if (!value.reached) {
    const e = value.why;
    const lines = [`**Not reached in this scenario** (${scenario}): ${e.message}`];
    if (e.expression !== undefined) lines.push(`Expression: ${code(e.expression)}`);
    return lines.join("\n\n");
  }
  const where = `${scenario}, ${code(value.run)}${value.runs > 1 ? `, the first of ${value.runs} runs` : ""}`;
  const r = value.result;
  if (r.ok) return `**Value in this scenario** (${where}):\n\n${fence(shownValue(r.value), r.value === undefined ? "" : "json")}`;
  const lines = [`**Fails in this scenario** (${where}): ${r.error.message}`];
  if (r.error.runtime) lines.push(`The runtime: ${code(r.error.runtime)}`);
  return lines.join("\n\n");
}
