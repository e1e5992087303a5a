// Completion in a scenarios file: its keys, the workflow's step ids (under outputs, in expect.steps,
// expect.chosen and expect.error.step), a decision's targets as values of expect.chosen.X, and a sample
// output for a step: its choice values, or a skeleton of its json output from its schema (run/samples.ts).
// Read from the text at the cursor (service/cursor.ts), so it works while the file is being typed. Pure.
import { CompletionItemKind, type CompletionItem, type Position } from "vscode-languageserver-types";
import type { Format } from "../document/types";
import type { PathSegment } from "../lwir/types";
import { yamlScalar } from "../document/yamlQuote";
import { sampleOfOutput } from "../run/samples";
import { cursorAt, flowMembers, offsetOf, type CursorInfo } from "../service/cursor";
import { stepOfPath, workflowFacts, type StepFact } from "./workflowFacts";

const KEYS: Record<string, ReadonlyArray<[string, string]>> = {
  root: [
    ["scenarios", "The list of scenarios."],
    ["workflow", "The workflow's path relative to this file, when its name differs."],
  ],
  scenario: [
    ["name", "The scenario's name, unique in the file."],
    ["input", "The workflow input (left out: generated from input.schema)."],
    ["outputs", "Sample outputs by step id."],
    ["expect", "What the dry run should do: steps, chosen, output, error."],
  ],
  expect: [
    ["steps", "The step paths run, in order."],
    ["chosen", "Decision → the target it chooses last (a list: every target in order)."],
    ["output", "The run's output."],
    ["error", "The run fails: at this step, with a message containing this text."],
  ],
  error: [
    ["step", "The failing step: its path, its path without the visit, or its id."],
    ["message", "A part of the error message (ours or the runtime's)."],
  ],
};

/** The completion items at a position of a scenarios file, for the workflow beside it (undefined: none found). */
export function scenarioCompletion(text: string, format: Format, position: Position, workflow: unknown): CompletionItem[] {
  const offset = offsetOf(text, position);
  const at = cursorAt(text, format, offset);
  if (!at) return [];
  const facts = workflowFacts(workflow);
  const path = at.path;
  const where = (segments: PathSegment[]): string | undefined => placeOf(segments);

  if (at.kind === "key" || at.kind === "entry") {
    const place = where(path);
    const present = presentKeys(at);
    const keyItems = (entries: ReadonlyArray<[string, string]>, kind: CompletionItemKind, detail?: (name: string) => string | undefined) =>
      entries.filter(([name]) => !present.has(name) || name === typedWord(at)).map(([name, doc], i) => keyItem(at, name, kind, doc, i, detail?.(name)));
    if (place === "root" || place === "scenario" || place === "expect" || place === "error") {
      // entry on a blank line of the root list: a new scenario's first key goes after "- "
      if (at.kind === "entry" && place === "root" && isList(at)) return [];
      return keyItems(KEYS[place], CompletionItemKind.Property);
    }
    if (place === "outputs") {
      return keyItems(facts.steps.filter(hasSample).map((s) => [s.id, describe(s)]), CompletionItemKind.Field, (id) => facts.byId.get(id)?.uses);
    }
    if (place === "chosen") {
      return keyItems(facts.steps.filter((s) => s.uses === "decision").map((s) => [s.id, `Targets: ${s.targets!.join(", ")}`]), CompletionItemKind.Field, () => "decision");
    }
    if (place === "steps" && at.kind === "entry") return facts.steps.map((s, i) => valueItem(at, s.id, CompletionItemKind.Field, i, s.uses, true));
    return [];
  }

  // a value
  const parent = path.slice(0, -1);
  const last = path[path.length - 1];
  const place = where(parent);
  if (place === "steps") return facts.steps.map((s, i) => valueItem(at, s.id, CompletionItemKind.Field, i, s.uses));
  if (place === "error" && last === "step") return facts.steps.filter(hasSample).map((s, i) => valueItem(at, s.id, CompletionItemKind.Field, i, s.uses));
  const decisionTargets = (name: PathSegment | undefined): CompletionItem[] => {
    if (typeof name !== "string") return [];
    const found = stepOfPath(facts, name);
    if (!("step" in found) || found.step.uses !== "decision") return [];
    return found.step.targets!.map((t, i) => valueItem(at, t, CompletionItemKind.EnumMember, i, `target of ${found.step.id}`));
  };
  if (place === "chosen") return decisionTargets(last);
  if (typeof last === "number" && where(parent.slice(0, -1)) === "chosen") return decisionTargets(parent[parent.length - 1]);
  if (place === "outputs" && typeof last === "string") {
    const found = stepOfPath(facts, last);
    if (!("step" in found) || !hasSample(found.step)) return [];
    return sampleItems(at, found.step);
  }
  return [];
}

/** What the object or list at these segments is in a scenarios file. */
function placeOf(segments: readonly PathSegment[]): string | undefined {
  const s = segments[0] === "scenarios" ? segments.slice(1) : segments;
  if (segments.length === 0) return "root";
  // [i] is a scenario; then its members
  if (typeof s[0] !== "number") return undefined;
  const rest = s.slice(1);
  if (rest.length === 0) return "scenario";
  if (rest.length === 1 && (rest[0] === "outputs" || rest[0] === "expect")) return rest[0] as string;
  if (rest.length === 2 && rest[0] === "expect" && (rest[1] === "steps" || rest[1] === "chosen" || rest[1] === "error")) return rest[1] as string;
  return undefined;
}

const hasSample = (s: StepFact): boolean => s.uses !== "decision" && s.uses !== "parallel";

function describe(s: StepFact): string {
  const mode = typeof s.output?.mode === "string" ? ` (${s.output.mode} output)` : "";
  return `A sample output for ${s.uses || "step"} step ${s.id}${mode}${s.body ? `, in the body of ${s.body}` : ""}.`;
}

/** The keys already written in the object at the cursor (a flow object's read from its text). */
function presentKeys(at: CursorInfo): Set<string> {
  const frame = at.frames[at.frames.length - 1];
  const keys = new Set(frame?.members.keys() ?? []);
  if (frame && frame.flow && frame.kind === "object") {
    for (const m of flowMembers(at.text, frame.start, at.format === "yaml").members) {
      // the key being typed is not one written already
      if (!(at.token && m.keyStart === at.token.start)) keys.add(m.key);
    }
  }
  return keys;
}

function isList(at: CursorInfo): boolean {
  return at.frames[at.frames.length - 1]?.kind === "array";
}

function typedWord(at: CursorInfo): string | undefined {
  return at.token ? at.text.slice(at.token.contentStart, at.token.contentEnd) : undefined;
}

/** The range the item replaces: the word being typed (inside its quotes), or nothing at the cursor. */
function replaced(at: CursorInfo): { start: number; end: number; quoted: boolean } {
  if (at.token) return { start: at.token.contentStart, end: at.token.contentEnd, quoted: at.token.quote !== "" };
  return { start: at.offset, end: at.offset, quoted: false };
}

function edit(at: CursorInfo, start: number, end: number, newText: string) {
  const pos = (offset: number) => {
    const before = at.text.slice(0, offset);
    const line = (before.match(/\r\n|\r|\n/g) ?? []).length;
    const lineStart = Math.max(before.lastIndexOf("\n"), before.lastIndexOf("\r")) + 1;
    return { line, character: offset - lineStart };
  };
  return { range: { start: pos(start), end: pos(end) }, newText };
}

function keyItem(at: CursorInfo, name: string, kind: CompletionItemKind, documentation: string, i: number, detail?: string): CompletionItem {
  const r = replaced(at);
  let newText: string;
  if (r.quoted) newText = at.format === "json" ? JSON.stringify(name).slice(1, -1) : name;
  else if (at.format === "json") newText = `${JSON.stringify(name)}${at.hasColon ? "" : ": "}`;
  else newText = `${yamlScalar(name)}${at.hasColon ? "" : ": "}`;
  return { label: name, kind, sortText: String(i).padStart(4, "0"), documentation, ...(detail ? { detail } : {}), textEdit: edit(at, r.start, r.end, newText), filterText: name };
}

function valueItem(at: CursorInfo, value: string, kind: CompletionItemKind, i: number, detail?: string, yamlItem = false): CompletionItem {
  const r = replaced(at);
  const written = r.quoted ? (at.format === "json" ? JSON.stringify(value).slice(1, -1) : value)
    : at.format === "json" ? JSON.stringify(value) : yamlScalar(value);
  const newText = yamlItem && at.format === "yaml" ? `- ${written}` : written;
  return { label: value, kind, sortText: String(i).padStart(4, "0"), ...(detail ? { detail } : {}), textEdit: edit(at, r.start, r.end, newText), filterText: value };
}

/** A step's sample: its choice values, or (json, object, array) a skeleton built from its schema. */
function sampleItems(at: CursorInfo, step: StepFact): CompletionItem[] {
  const mode = step.output?.mode;
  if (mode === "choice") {
    const values = Array.isArray(step.output?.values) ? step.output!.values.filter((v): v is string => typeof v === "string") : [];
    return values.map((v, i) => valueItem(at, v, CompletionItemKind.EnumMember, i, `choice of ${step.id}`));
  }
  if (mode !== "json" && mode !== "object" && mode !== "array") return [];
  if (at.token?.quote) return []; // inside a string: a skeleton is not a string
  const sample = sampleOfOutput(step.id, step.output).value;
  // JSON is YAML's flow style too: one line that both read the same.
  const text = JSON.stringify(sample);
  if (text === undefined) return [];
  const r = replaced(at);
  return [{
    label: text.length > 60 ? `${text.slice(0, 57)}…` : text,
    kind: CompletionItemKind.Value,
    detail: `a sample of ${step.id}'s ${String(mode)} output`,
    documentation: "Built from the step's output.schema: every declared property, values as small as the schema allows.",
    textEdit: edit(at, r.start, r.end, text),
    filterText: at.text.slice(r.start, r.end) + text,
  }];
}
