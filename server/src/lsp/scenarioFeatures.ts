// The Test Explorer's requests (client/src/testExplorer.ts): `lwir/listScenarios` and `lwir/runScenarios`
// {uri, scenario?} on a scenarios file (protocol.ts). The work is `lwir test`'s (run/scenarioRuns.ts); here
// only the reading: each file from the editor when it is open (unsaved edits win), else from where the
// workspace scan reads files (the disk in Node, the extension's lwir/readFile in the browser), so no Node API.
import type { CancellationToken } from "vscode-languageserver";
import { documentText } from "../document/decode";
import { formatOf } from "../document/document";
import { RUN_SCENARIOS_REQUEST, LIST_SCENARIOS_REQUEST, type ScenarioListResult, type ScenarioOutcome, type ScenarioRunResult } from "../protocol";
import { findingsReason, parseScenariosText, runScenarios, runnableWorkflow, workflowPathsFor, type ParsedScenarios } from "../run/scenarioRuns";
import { workflowNamesFor } from "../run/scenarios";
import { analyzeText, type Analysis } from "../service/analysis";
import { fileNameOf } from "../service/workspace";
import { uriBeside, type WorkspaceFileSource } from "../workspace/files";
import { openOrRead, type TextRead } from "./openOrRead";
import { isRecord } from "./requestGuards";
import { lwirAnalysis, type ServerParts } from "./serverParts";

/** A scenarios file read and parsed, and its workflow found (not yet analysed). */
interface Loaded {
  result: ScenarioListResult;
  parsed?: Extract<ParsedScenarios, { ok: true }>;
  workflow?: { uri: string; read: Extract<TextRead, { ok: true }> };
}

export function registerScenarioFeatures(parts: ServerParts, fileSources: () => readonly WorkspaceFileSource[]): void {
  const { connection, documents, workspace, session, settings } = parts;

  const read = (uri: string): Promise<TextRead> => openOrRead(documents, fileSources(), uri, settings.current.maxFileSize, "lwir.maxFileSize");

  const load = async (uri: string): Promise<Loaded> => {
    const name = fileNameOf(uri);
    const text = await read(uri);
    if (!text.ok) return { result: { uri, error: `${name}: ${text.reason}`, problems: [], scenarios: [] } };
    const parsed = parseScenariosText(text.text, name);
    if (!parsed.ok) return { result: { uri, error: `${name}: ${parsed.reason}`, problems: [], scenarios: [] } };
    const result: ScenarioListResult = {
      uri,
      problems: parsed.file.problems,
      scenarios: parsed.file.scenarios.map((s) => ({ name: s.name, position: s.position })),
    };
    const declared = parsed.file.workflow;
    let lastProblem: string | undefined;
    for (const path of workflowPathsFor(name, declared)) {
      const workflowUri = uriBeside(uri, path);
      const workflowText = await read(workflowUri);
      if (workflowText.ok) return { result: { ...result, workflow: workflowUri }, parsed, workflow: { uri: workflowUri, read: workflowText } };
      if (!workflowText.missing) lastProblem = `${fileNameOf(workflowUri)}: ${workflowText.reason}`;
      else if (declared !== undefined) lastProblem = `the workflow ${declared} (its workflow: key) is not found`;
      if (lastProblem) break;
    }
    return { result: { ...result, error: lastProblem ?? `no workflow beside it (${workflowNamesFor(name).join(", ")})` }, parsed };
  };

  /** The workflow's analysis: the editor's cached one for an open LWIR document, else as the CLI reads a file. */
  const analysisOf = (workflow: NonNullable<Loaded["workflow"]>): Analysis => {
    const cached = lwirAnalysis(workspace, workflow.uri);
    if (cached) return cached;
    const format = formatOf(fileNameOf(workflow.uri)) ?? "yaml";
    const text = documentText({ text: workflow.read.text, invalidUtf8: workflow.read.invalidUtf8 ?? [] }, format);
    return analyzeText(text.text, format, text.invalidUtf8);
  };

  const run = async (uri: string, only: string | undefined): Promise<ScenarioRunResult> => {
    const loaded = await load(uri);
    const { result, parsed, workflow } = loaded;
    const listed = result.scenarios.filter((s) => only === undefined || s.name === only);
    const erred = (error: string): ScenarioRunResult => ({ ...result, error, scenarios: listed.map((s) => ({ ...s, passed: false, failures: [], error })) });
    if (!parsed) return { ...result, scenarios: [] };
    if (!workflow) return erred(result.error ?? "no workflow");
    const runnable = runnableWorkflow(analysisOf(workflow));
    const workflowName = fileNameOf(workflow.uri);
    if (!runnable.ok) {
      const problem = runnable.problem;
      return erred(problem.kind === "parse" ? `${workflowName} does not parse (its syntax error is in the Problems view)` : `${workflowName} ${findingsReason(problem.count)} (they are in the Problems view)`);
    }
    const scenarios: ScenarioOutcome[] = runScenarios(parsed, runnable.value, only).map((r) => ({
      name: r.scenario.name,
      position: r.scenario.position,
      passed: r.failures.length === 0,
      status: r.trace.status,
      steps: r.trace.steps.length,
      failures: r.failures.map((f) => ({
        expectation: f.what,
        message: f.message,
        position: f.position,
        ...(f.expected !== undefined || f.actual !== undefined ? { expected: f.expected ?? null, actual: f.actual ?? null } : {}),
      })),
    }));
    return { ...result, scenarios };
  };

  const uriOf = (params: unknown): { textDocument: { uri: string }; scenario?: string } => {
    const p = isRecord(params) ? params : {};
    const uri = typeof p.uri === "string" ? p.uri : isRecord(p.textDocument) ? p.textDocument.uri : undefined;
    return { textDocument: { uri: uri as string }, ...(typeof p.scenario === "string" ? { scenario: p.scenario } : {}) };
  };
  const list = session.documentRequest("listScenarios", async (params: { textDocument: { uri: string } }) => (await load(params.textDocument.uri)).result);
  const runRequest = session.documentRequest("runScenarios", (params: { textDocument: { uri: string }; scenario?: string }) => run(params.textDocument.uri, params.scenario));
  connection.onRequest(LIST_SCENARIOS_REQUEST, (params: unknown, token: CancellationToken) => list(uriOf(params), token));
  connection.onRequest(RUN_SCENARIOS_REQUEST, (params: unknown, token: CancellationToken) => runRequest(uriOf(params), token));
}
