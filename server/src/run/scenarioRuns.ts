// Running the scenarios of one scenarios file against its workflow: what `lwir test` (cli/dryrun.ts) and the
// editor's `lwir/runScenarios` request (lsp/scenarioFeatures.ts) share. Pure: the callers read the files
// (the disk, the editor's open documents, the browser's client) and say where to point the user.
import { parseDocument, formatOf, type LwirDocument } from "../document/document";
import { readScenarios, runScenario, workflowNamesFor, type ScenarioResult, type ScenariosFile } from "./scenarios";

/** A scenarios file parsed with positions, or why it cannot be (its first syntax error, at `line:column`). */
export type ParsedScenarios = { ok: true; doc: LwirDocument; file: ScenariosFile } | { ok: false; reason: string };

/** Parses a scenarios file's text; the format comes from its name (YAML when the name says neither). */
export function parseScenariosText(text: string, fileName: string): ParsedScenarios {
  const doc = parseDocument(text, formatOf(fileName) ?? "yaml");
  if (doc.parseErrors.length > 0 || doc.tooDeep) {
    const first = doc.parseErrors[0];
    return { ok: false, reason: first ? `${first.range.start.line + 1}:${first.range.start.character + 1}: ${first.message}` : "nested too deeply" };
  }
  return { ok: true, doc, file: readScenarios(doc) };
}

/**
 * The paths, relative to the scenarios file's folder, where its workflow is looked for, in order: its
 * `workflow:` key alone when it has one, else the workflow files of the same name.
 */
export function workflowPathsFor(scenariosFileName: string, declared: string | undefined): string[] {
  return declared !== undefined ? [declared] : workflowNamesFor(scenariosFileName);
}

/** What the dry run needs of a workflow's analysis (service/analysis.ts's Analysis has it). */
export interface WorkflowCheck {
  document: { value: unknown; parseErrors: ReadonlyArray<{ range: { start: { line: number; character: number } }; message: string }>; tooDeep?: unknown };
  findings: readonly unknown[];
}

/** Why the runtime would not register a workflow: it does not parse (where, when known), or it has findings. */
export type UnrunnableWorkflow =
  | { kind: "parse"; line?: number; column?: number; message?: string }
  | { kind: "findings"; count: number };

/** A workflow the runtime would register (its value), or why it would not (the caller words it). */
export type RunnableWorkflow = { ok: true; value: unknown } | { ok: false; problem: UnrunnableWorkflow };

export function runnableWorkflow(analysis: WorkflowCheck): RunnableWorkflow {
  const doc = analysis.document;
  if (doc.parseErrors.length > 0 || doc.tooDeep) {
    const first = doc.parseErrors[0];
    return { ok: false, problem: first ? { kind: "parse", line: first.range.start.line + 1, column: first.range.start.character + 1, message: first.message } : { kind: "parse" } };
  }
  const count = analysis.findings.length;
  if (count > 0) return { ok: false, problem: { kind: "findings", count } };
  return { ok: true, value: doc.value };
}

/** "N finding(s): the runtime would not register it", as the CLI and the editor both say it. */
export function findingsReason(count: number): string {
  return `${count} ${count === 1 ? "finding" : "findings"}: the runtime would not register it`;
}

/** Runs the file's scenarios (only those named `only`, when given) against a registered workflow's value. */
export function runScenarios(parsed: { doc: LwirDocument; file: ScenariosFile }, workflow: unknown, only?: string): ScenarioResult[] {
  const chosen = only === undefined ? parsed.file.scenarios : parsed.file.scenarios.filter((s) => s.name === only);
  return chosen.map((s) => runScenario(workflow, s, parsed.doc));
}
