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
  document: { value: unknown; parseErrors: readonly unknown[]; tooDeep?: unknown };
  findings: readonly unknown[];
}

/** A workflow the runtime would register (its value), or why it would not (the caller adds where to look). */
export type RunnableWorkflow = { ok: true; value: unknown } | { ok: false; reason: string };

export function runnableWorkflow(analysis: WorkflowCheck): RunnableWorkflow {
  if (analysis.document.parseErrors.length > 0 || analysis.document.tooDeep) return { ok: false, reason: "does not parse" };
  const n = analysis.findings.length;
  if (n > 0) return { ok: false, reason: `${n} ${n === 1 ? "finding" : "findings"}: the runtime would not register it` };
  return { ok: true, value: analysis.document.value };
}

/** Runs the file's scenarios (only those named `only`, when given) against a registered workflow's value. */
export function runScenarios(parsed: { doc: LwirDocument; file: ScenariosFile }, workflow: unknown, only?: string): ScenarioResult[] {
  const chosen = only === undefined ? parsed.file.scenarios : parsed.file.scenarios.filter((s) => s.name === only);
  return chosen.map((s) => runScenario(workflow, s, parsed.doc));
}
