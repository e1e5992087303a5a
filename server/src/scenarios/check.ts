// The editor's checks of a scenarios file (NAME.lwir.test.yaml, run/scenarios.ts) against its own schema
// (schemas/lwir-test.schema.json) and the workflow beside it: step ids, decision targets, sample outputs
// and inputs against what the workflow declares. Codes `lwir.scenario_*` (docs/rules/). Pure: the caller
// (lsp/scenarioFiles.ts) finds and reads the workflow; no Node APIs.
import { DiagnosticSeverity, type Diagnostic, type Range } from "vscode-languageserver-types";
import testSchema from "../../../schemas/lwir-test.schema.json";
import type { LwirDocument } from "../document/types";
import type { PathSegment } from "../lwir/types";
import { validateInstance, type InstanceError } from "../run/instance";
import { checkOutput, plainFindings } from "../run/simulate";
import { closeNames, withSuggestion } from "../service/didYouMean";
import { candidateIds, stepOfPath, workflowFacts, type StepFact, type WorkflowFacts } from "./workflowFacts";

export const SCENARIO_INVALID = "lwir.scenario_invalid";
export const SCENARIO_NO_WORKFLOW = "lwir.scenario_no_workflow";
export const SCENARIO_UNKNOWN_STEP = "lwir.scenario_unknown_step";
export const SCENARIO_UNKNOWN_TARGET = "lwir.scenario_unknown_target";
export const SCENARIO_OUTPUT_MISMATCH = "lwir.scenario_output_mismatch";
export const SCENARIO_INPUT_MISMATCH = "lwir.scenario_input_mismatch";

/** What a diagnostic's quick fix reads: the names to put in place of its range's text. */
export interface ScenarioFixData {
  code: string;
  replaceWith: string[];
}

/** The workflow beside the scenarios file: its parsed value, and a name for messages; undefined when none was found. */
export interface WorkflowBeside {
  value: unknown;
  name: string;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** At most this many diagnostics per sample or input (a wrong list of 500 items says it in a few). */
const PER_VALUE = 3;

const KEYS_OF = {
  root: ["workflow", "scenarios"],
  scenario: ["name", "input", "outputs", "expect"],
  expect: ["steps", "chosen", "output", "error"],
  error: ["step", "message"],
} as const;

/** The diagnostics of a parsed scenarios file (no parse errors: the caller reports those). */
export function checkScenariosFile(doc: LwirDocument, workflow: WorkflowBeside | undefined, declaredWorkflow?: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const value = doc.value;
  const add = (code: string, message: string, range: Range, fix?: string[]): void => {
    out.push({
      range, message, code, source: "lwir", severity: DiagnosticSeverity.Warning,
      ...(fix && fix.length > 0 ? { data: { code, replaceWith: fix } satisfies ScenarioFixData } : {}),
    });
  };
  const nodeRange = (segments: readonly PathSegment[]): Range => doc.findingRange(segments);
  const keyRange = (segments: readonly PathSegment[]): Range => {
    const at = doc.locate(segments);
    return at && at.keyStart !== undefined && at.keyEnd !== undefined ? doc.rangeAt(at.keyStart, at.keyEnd) : nodeRange(segments);
  };

  // ---- the file's own shape ----
  const list: unknown[] | undefined = Array.isArray(value) ? value : isObject(value) && Array.isArray(value.scenarios) ? value.scenarios : undefined;
  const base: PathSegment[] = Array.isArray(value) ? [] : ["scenarios"];
  if (!Array.isArray(value) && !isObject(value)) {
    add(SCENARIO_INVALID, "A scenarios file is a list of scenarios, or an object with a scenarios list (and optionally workflow).", nodeRange([]));
    return out;
  }
  const schema = testSchema as { definitions: unknown; oneOf: unknown[] };
  const branch = { definitions: schema.definitions, ...(schema.oneOf[Array.isArray(value) ? 0 : 1] as Obj) };
  for (const e of validateInstance(branch, value)) shapeProblem(doc, e, add, keyRange, nodeRange);
  const names = new Set<string>();
  (list ?? []).forEach((entry, i) => {
    if (!isObject(entry) || typeof entry.name !== "string" || entry.name === "") return;
    if (names.has(entry.name)) add(SCENARIO_INVALID, `Two scenarios are named ${JSON.stringify(entry.name)}: lwir test --scenario and the reports tell them apart by name.`, nodeRange([...base, i, "name"]));
    names.add(entry.name);
  });

  // ---- the workflow beside it ----
  if (!workflow) {
    const where = declaredWorkflow !== undefined ? nodeRange(["workflow"]) : Array.isArray(value) ? firstLine(doc) : keyRange(["scenarios"]);
    const message = declaredWorkflow !== undefined
      ? `The workflow ${JSON.stringify(declaredWorkflow)} named here was not found: lwir test cannot run these scenarios.`
      : "No workflow beside this scenarios file (NAME.lwir.yaml, .yml or .json for NAME.lwir.test.yaml): lwir test cannot run these scenarios. Name it with a top-level workflow key when its name differs.";
    add(SCENARIO_NO_WORKFLOW, message, where);
    return out;
  }
  const facts = workflowFacts(workflow.value);
  (list ?? []).forEach((entry, i) => {
    if (isObject(entry)) checkScenario(facts, entry, [...base, i], add, keyRange, nodeRange);
  });
  return out;
}

type Add = (code: string, message: string, range: Range, fix?: string[]) => void;
type RangeOf = (segments: readonly PathSegment[]) => Range;

function firstLine(doc: LwirDocument): Range {
  const at = doc.locate([0]);
  return at ? doc.rangeAt(at.valueStart, at.valueStart) : doc.rangeAt(0, 0);
}

/** Where an instance error of the file's schema is: the segments of its pointer, numbers inside lists. */
function segmentsOfPointer(root: unknown, pointer: string): PathSegment[] {
  const out: PathSegment[] = [];
  let node = root;
  for (const raw of pointer.split("/").slice(1)) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const seg: PathSegment = Array.isArray(node) && /^\d+$/.test(part) ? Number(part) : part;
    out.push(seg);
    node = Array.isArray(node) ? node[seg as number] : isObject(node) ? node[part] : undefined;
  }
  return out;
}

function pathText(segments: readonly PathSegment[]): string {
  return segments.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? s : `.${s}`)).join("");
}

/** What the keys of the object at these segments may be: by its place in the file. */
function keysAllowedAt(segments: readonly PathSegment[]): readonly string[] {
  const last = segments[segments.length - 1];
  if (segments.length === 0) return KEYS_OF.root;
  if (typeof last === "number") return KEYS_OF.scenario;
  if (last === "expect") return KEYS_OF.expect;
  if (last === "error") return KEYS_OF.error;
  return [];
}

function shapeProblem(doc: LwirDocument, e: InstanceError, add: Add, keyRange: RangeOf, nodeRange: RangeOf): void {
  const segments = segmentsOfPointer(doc.value, e.instancePath);
  const where = segments.length === 0 ? "The scenarios file" : pathText(segments);
  if (e.message === "must NOT have additional properties") {
    const allowed = keysAllowedAt(segments);
    let node: unknown = doc.value;
    for (const s of segments) node = (node as Obj)[s as string];
    for (const key of isObject(node) ? Object.keys(node) : []) {
      if (allowed.includes(key)) continue;
      const best = closeNames(key, allowed, 1)[0];
      const message = `Unknown key ${JSON.stringify(key)} in ${segments.length === 0 ? "the scenarios file" : where} (expected ${allowed.join(", ")}): lwir test refuses the file.`;
      add(SCENARIO_INVALID, best ? withSuggestion(message, best.name) : message, keyRange([...segments, key]), best ? [best.name] : undefined);
    }
    return;
  }
  const last = segments[segments.length - 1];
  let message: string;
  if (e.message === "must match exactly one schema in oneOf" && last === "error") message = `${where} must be a string (part of the message) or an object with step and message.`;
  else if (e.message === "must match exactly one schema in oneOf" && segments[segments.length - 2] === "chosen") message = `${where} must be a target (a string) or a list of targets.`;
  else message = `${plainFindings([{ ...e, instancePath: "" }], where)}.`;
  add(SCENARIO_INVALID, message, nodeRange(segments));
}

function checkScenario(facts: WorkflowFacts, entry: Obj, at: PathSegment[], add: Add, keyRange: RangeOf, nodeRange: RangeOf): void {
  const expect = isObject(entry.expect) ? entry.expect : undefined;
  const error = expect && hasOwn(expect, "error") ? expect.error : undefined;
  // An expected failure may be the very sample or input a check here would flag: not said twice.
  const errorStep = isObject(error) && typeof error.step === "string" ? error.step : undefined;
  const expectsFailureAnywhere = error !== undefined && errorStep === undefined;
  const failingStep = errorStep !== undefined ? stepOfPath(facts, errorStep) : undefined;
  const failingId = failingStep && "step" in failingStep ? failingStep.step.id : undefined;

  const unknownStep = (word: string, body: string | undefined, range: Range, what: string): void => {
    const best = closeNames(word, candidateIds(facts, body), 1)[0];
    const inBody = body !== undefined ? ` in the body of parallel step ${JSON.stringify(body)}` : "";
    const message = `${what} ${JSON.stringify(word)}: the workflow has no such step${inBody}.`;
    add(SCENARIO_UNKNOWN_STEP, best ? withSuggestion(message, best.name) : message, range, best ? [best.name] : undefined);
  };
  /** The range of the part of a path that names the unknown id (the whole path when it is the id). */
  const pathRange = (segments: PathSegment[], isKey: boolean): Range => (isKey ? keyRange(segments) : nodeRange(segments));

  // input
  if (hasOwn(entry, "input") && facts.hasInputSchema && !expectsFailureAnywhere) {
    const errors = validateInstance(facts.inputSchema, entry.input);
    for (const e of errors.slice(0, PER_VALUE)) {
      const inner = segmentsOfPointer(entry.input, e.instancePath);
      add(SCENARIO_INPUT_MISMATCH, `The input does not match the workflow's input.schema: ${plainFindings([e], "input")}. The dry run fails before its first step.`, nodeRange([...at, "input", ...inner]));
    }
  }

  // outputs
  if (isObject(entry.outputs)) {
    for (const [key, sample] of Object.entries(entry.outputs)) {
      const segs = [...at, "outputs", key];
      const found = stepOfPath(facts, key);
      if (!("step" in found)) {
        unknownStep(found.unknown, found.body, keyRange(segs), "A sample output for");
        continue;
      }
      const step = found.step;
      if (step.uses === "decision" || step.uses === "parallel") continue; // their outputs are not samples
      if (expectsFailureAnywhere || step.id === failingId) continue;
      const branchPath = key !== step.id;
      for (const p of sampleProblems(step, sample, segs, step.body !== undefined && !branchPath).slice(0, PER_VALUE)) {
        add(SCENARIO_OUTPUT_MISMATCH, `${p.message} The dry run fails at this step.`, nodeRange(p.segments));
      }
    }
  }

  if (!expect) return;
  // expect.steps: step paths
  if (Array.isArray(expect.steps)) {
    expect.steps.forEach((path, j) => {
      if (typeof path !== "string") return;
      const found = stepOfPath(facts, path);
      if (!("step" in found)) unknownStep(found.unknown, found.body, pathRange([...at, "expect", "steps", j], false), "expect.steps names");
    });
  }
  // expect.chosen: decision → target(s)
  if (isObject(expect.chosen)) {
    for (const [decision, targets] of Object.entries(expect.chosen)) {
      const segs = [...at, "expect", "chosen", decision];
      const found = stepOfPath(facts, decision);
      if (!("step" in found)) {
        unknownStep(found.unknown, found.body, keyRange(segs), "expect.chosen names");
        continue;
      }
      const step = found.step;
      if (step.uses !== "decision") {
        add(SCENARIO_UNKNOWN_STEP, `expect.chosen names ${JSON.stringify(decision)}, which is not a decision step${step.uses ? ` (it uses ${step.uses})` : ""}: it never chooses.`, keyRange(segs));
        continue;
      }
      const check = (target: unknown, targetSegs: PathSegment[]): void => {
        if (typeof target !== "string" || step.targets!.includes(target)) return;
        const best = closeNames(target, step.targets!, 1)[0];
        const message = `Decision ${JSON.stringify(step.id)} never chooses ${JSON.stringify(target)}: its targets are ${step.targets!.map((t) => JSON.stringify(t)).join(", ") || "none"}.`;
        add(SCENARIO_UNKNOWN_TARGET, best ? withSuggestion(message, best.name) : message, nodeRange(targetSegs), best ? [best.name] : undefined);
      };
      if (Array.isArray(targets)) targets.forEach((t, k) => check(t, [...segs, k]));
      else check(targets, segs);
    }
  }
  // expect.error.step
  if (errorStep !== undefined && failingStep && !("step" in failingStep)) {
    unknownStep(failingStep.unknown, failingStep.body, nodeRange([...at, "expect", "error", "step"]), "expect.error.step names");
  }
}

/**
 * What is wrong with a sample, as the dry run reads it (run/simulate.ts sampleFor): for a step with
 * maxVisits above 1 a list is one value per visit; for a step in a parallel body (named by id) a list is
 * one value per branch and an object may be keyed by item key. Any reading that fits is accepted.
 */
function sampleProblems(step: StepFact, sample: unknown, segs: PathSegment[], perBranch: boolean): Array<{ segments: PathSegment[]; message: string }> {
  const one = (v: unknown, s: PathSegment[]) => {
    const r = checkOutput(step.id, step.output, v);
    return r.ok ? [] : [{ segments: s, message: r.error.message }];
  };
  const perVisit = (v: unknown, s: PathSegment[]) => (step.loops && Array.isArray(v) ? v.flatMap((x, i) => one(x, [...s, i])) : one(v, s));
  if (!perBranch) return perVisit(sample, segs);
  if (Array.isArray(sample)) return sample.flatMap((x, i) => perVisit(x, [...segs, i]));
  const whole = perVisit(sample, segs);
  if (whole.length === 0 || !isObject(sample) || Object.keys(sample).length === 0) return whole;
  const keyed = Object.entries(sample).flatMap(([k, x]) => perVisit(x, [...segs, k]));
  return keyed.length === 0 ? [] : whole;
}
