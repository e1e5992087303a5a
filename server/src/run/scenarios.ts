// Scenarios files (`NAME.lwir.test.yaml` / `.json` beside `NAME.lwir.yaml`): named inputs and sample step
// outputs for dry runs, with expectations a test runner checks. Read with positions (the document layer),
// so a failing expectation is reported at its line. Pure: the caller reads the files.
import { canonicalJson } from "../lwir/canonical";
import type { PathSegment } from "../lwir/types";
import type { LwirDocument, Position } from "../document/types";
import { validateInstance } from "./instance";
import { sampleOfSchema } from "./samples";
import { simulate, type Trace } from "./simulate";

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

const SCENARIOS_NAME = /^(.*)\.lwir\.test\.(json|ya?ml)$/i;

/** Whether a file name is a scenarios file's. */
export function isScenariosFileName(name: string): boolean {
  return SCENARIOS_NAME.test(name);
}

/** The workflow file names a scenarios file goes with, in the order they are looked for (same folder). */
export function workflowNamesFor(scenariosName: string): string[] {
  const m = SCENARIOS_NAME.exec(scenariosName);
  if (!m) return [];
  return [`${m[1]}.lwir.yaml`, `${m[1]}.lwir.yml`, `${m[1]}.lwir.json`];
}

/** The scenarios file names a workflow file may have beside it. */
export function scenariosNamesFor(workflowName: string): string[] {
  const m = /^(.*)\.lwir\.(json|ya?ml)$/i.exec(workflowName);
  if (!m) return [];
  return [`${m[1]}.lwir.test.yaml`, `${m[1]}.lwir.test.yml`, `${m[1]}.lwir.test.json`];
}

export interface Expectations {
  steps?: unknown;
  chosen?: unknown;
  output?: unknown;
  hasOutput: boolean;
  error?: unknown;
}

export interface Scenario {
  name: string;
  /** Where the scenario is written (0-based line and UTF-16 column, as LSP counts). */
  position: Position;
  input?: unknown;
  hasInput: boolean;
  outputs: Record<string, unknown>;
  expect?: Expectations;
  /** The path of the scenario in the file, for positions of its members. */
  segments: PathSegment[];
}

export interface ScenariosFile {
  /** `workflow:` in the file: the workflow's path relative to the scenarios file. */
  workflow?: string;
  scenarios: Scenario[];
  /** Problems with the file's shape, at their positions. */
  problems: Array<{ message: string; position: Position }>;
}

function positionOf(doc: LwirDocument, segments: readonly PathSegment[]): Position {
  const at = doc.locate(segments);
  return at ? doc.positionAt(at.keyStart ?? at.valueStart) : doc.findingRange(segments).start;
}

/** The scenarios of a parsed scenarios file: a list of scenarios, or an object with `scenarios` (and optionally `workflow`). */
export function readScenarios(doc: LwirDocument): ScenariosFile {
  const problems: ScenariosFile["problems"] = [];
  const value = doc.value;
  let list: unknown;
  let base: PathSegment[];
  let workflow: string | undefined;
  if (Array.isArray(value)) {
    list = value;
    base = [];
  } else if (isObject(value) && Array.isArray(value.scenarios)) {
    list = value.scenarios;
    base = ["scenarios"];
    if (typeof value.workflow === "string") workflow = value.workflow;
    for (const key of Object.keys(value)) {
      if (key !== "scenarios" && key !== "workflow") problems.push({ message: `Unknown key '${key}' (a scenarios file has scenarios and workflow).`, position: positionOf(doc, [key]) });
    }
  } else {
    problems.push({ message: "A scenarios file is a list of scenarios, or an object with a scenarios list.", position: { line: 0, character: 0 } });
    return { scenarios: [], problems };
  }
  const scenarios: Scenario[] = [];
  const names = new Set<string>();
  (list as unknown[]).forEach((entry, i) => {
    const segments = [...base, i];
    const position = positionOf(doc, segments);
    if (!isObject(entry)) {
      problems.push({ message: "A scenario is an object with name, input, outputs and expect.", position });
      return;
    }
    for (const key of Object.keys(entry)) {
      if (!["name", "input", "outputs", "expect"].includes(key)) problems.push({ message: `Unknown scenario key '${key}' (expected name, input, outputs, expect).`, position: positionOf(doc, [...segments, key]) });
    }
    const name = typeof entry.name === "string" && entry.name !== "" ? entry.name : `scenario ${i + 1}`;
    if (typeof entry.name !== "string" || entry.name === "") problems.push({ message: "A scenario needs a name (a non-empty string).", position });
    else if (names.has(name)) problems.push({ message: `Two scenarios are named '${name}'.`, position });
    names.add(name);
    if (entry.outputs !== undefined && !isObject(entry.outputs)) problems.push({ message: "outputs is an object: sample outputs by step id.", position: positionOf(doc, [...segments, "outputs"]) });
    let expect: Expectations | undefined;
    if (entry.expect !== undefined) {
      if (!isObject(entry.expect)) problems.push({ message: "expect is an object with steps, chosen, output or error.", position: positionOf(doc, [...segments, "expect"]) });
      else {
        for (const key of Object.keys(entry.expect)) {
          if (!["steps", "chosen", "output", "error"].includes(key)) problems.push({ message: `Unknown expectation '${key}' (expected steps, chosen, output, error).`, position: positionOf(doc, [...segments, "expect", key]) });
        }
        const e = entry.expect;
        expect = { hasOutput: hasOwn(e, "output"), ...(hasOwn(e, "steps") ? { steps: e.steps } : {}), ...(hasOwn(e, "chosen") ? { chosen: e.chosen } : {}), ...(hasOwn(e, "output") ? { output: e.output } : {}), ...(hasOwn(e, "error") ? { error: e.error } : {}) };
      }
    }
    scenarios.push({
      name, position, segments,
      hasInput: hasOwn(entry, "input"), ...(hasOwn(entry, "input") ? { input: entry.input } : {}),
      outputs: isObject(entry.outputs) ? entry.outputs : {},
      ...(expect ? { expect } : {}),
    });
  });
  return { ...(workflow !== undefined ? { workflow } : {}), scenarios, problems };
}

/**
 * The input of a scenario without one, from the workflow's input.schema: every declared property and one
 * element per array (so that parallel steps have a branch), each value as small as its schema allows; an
 * empty object when the schema declares nothing.
 */
export function generatedInput(workflow: unknown): unknown {
  const schema = isObject(workflow) && isObject(workflow.input) ? workflow.input.schema : undefined;
  const value = schema === undefined ? null : sampleOfSchema(schema, "input", true).value;
  return value === null && (schema === undefined || validateInstance(schema, {}).length === 0) ? {} : value;
}

export interface ExpectationFailure {
  /** `expect.steps`, `expect.chosen.route`, `expect.output`, `expect.error`, or `run` (the run failed unexpectedly). */
  what: string;
  message: string;
  position: Position;
  expected?: unknown;
  actual?: unknown;
}

export interface ScenarioResult {
  scenario: Scenario;
  trace: Trace;
  failures: ExpectationFailure[];
}

function same(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a === undefined ? null : a) === canonicalJson(b === undefined ? null : b);
  } catch {
    return false;
  }
}

const withoutVisit = (path: string): string => path.replace(/\.visit\[\d+\]$/, "");

/** The choices of the decisions in a trace, by step path without visit; ids of body decisions are also listed by id. */
export function choicesOf(trace: Trace): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (key: string, target: string): void => {
    const list = out.get(key) ?? [];
    list.push(target);
    out.set(key, list);
  };
  for (const s of trace.steps) {
    if (s.uses !== "decision" || s.chosen === undefined || s.error) continue;
    const path = withoutVisit(s.path);
    add(path, s.chosen);
    if (path !== s.id) add(`\0${s.id}`, s.chosen);
  }
  return out;
}

/** Runs one scenario against a workflow and checks its expectations. */
export function runScenario(workflow: unknown, scenario: Scenario, doc: LwirDocument): ScenarioResult {
  const input = scenario.hasInput ? scenario.input : generatedInput(workflow);
  const trace = simulate(workflow, { input, outputs: scenario.outputs });
  const failures: ExpectationFailure[] = [];
  const at = (...rest: PathSegment[]): Position => positionOf(doc, [...scenario.segments, "expect", ...rest]);
  const e = scenario.expect;
  if (e?.steps !== undefined) {
    const actual = trace.steps.map((s) => s.path);
    if (!same(e.steps, actual)) failures.push({ what: "expect.steps", message: "the steps run differ", position: at("steps"), expected: e.steps, actual });
  }
  if (e?.chosen !== undefined) {
    if (!isObject(e.chosen)) failures.push({ what: "expect.chosen", message: "chosen is an object: decision id → target", position: at("chosen") });
    else {
      const choices = choicesOf(trace);
      for (const [decision, expected] of Object.entries(e.chosen)) {
        const list = choices.get(decision) ?? choices.get(`\0${decision}`) ?? [];
        const actual = Array.isArray(expected) ? list : list[list.length - 1];
        if (!same(expected, actual)) {
          failures.push({ what: `expect.chosen.${decision}`, message: list.length === 0 ? `decision '${decision}' did not choose` : `decision '${decision}' chose otherwise`, position: at("chosen", decision), expected, actual: actual ?? null });
        }
      }
    }
  }
  if (e?.error !== undefined) {
    const expected = e.error;
    if (trace.status !== "failed" || !trace.error) {
      failures.push({ what: "expect.error", message: "the run completed, an error was expected", position: at("error"), expected, actual: trace.output ?? null });
    } else {
      const err = trace.error;
      const step = isObject(expected) ? expected.step : undefined;
      const message = isObject(expected) ? expected.message : typeof expected === "string" ? expected : undefined;
      const stepPath = err.stepPath ?? "";
      const stepOk = step === undefined || step === stepPath || step === withoutVisit(stepPath) || (typeof step === "string" && trace.steps.some((s) => s.path === stepPath && s.id === step));
      // Either wording matches: ours (what lwir prints) or the runtime's own text.
      const messageOk = message === undefined || (typeof message === "string" && (err.message.includes(message) || (err.runtime ?? "").includes(message)));
      if (!stepOk || !messageOk) {
        failures.push({ what: "expect.error", message: !stepOk ? "the run failed at another step" : "the error message differs", position: at("error"), expected, actual: { step: stepPath || null, message: err.message, ...(err.runtime ? { runtime: err.runtime } : {}) } });
      }
    }
  } else if (trace.status === "failed" && trace.error) {
    const where = trace.error.stepPath ? ` at ${trace.error.stepPath}` : "";
    failures.push({ what: "run", message: `the run failed${where}: ${trace.error.message}`, position: scenario.position });
  }
  if (e?.hasOutput && trace.status === "completed" && !same(e.output, trace.output)) {
    failures.push({ what: "expect.output", message: "the workflow output differs", position: at("output"), expected: e.output, actual: trace.output });
  }
  return { scenario, trace, failures };
}
