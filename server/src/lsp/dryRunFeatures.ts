// The dry run in the editor (docs/dry-run.md#in-the-editor): the "Preview prompt" code lens on each
// ai.generate step, the `lwir/previewPrompt` request its document is drawn from, the values the hover
// adds inside `{{ }}`, and `lwir/dryRun` ("LWIR: Dry run": the trace and the graph view's overlay). The run itself is run/preview.ts (pure); here: finding the scenarios file beside the
// workflow (an open document's text, else read where the workspace scan reads files: the disk in Node, the
// client in the browser), the scenario chosen for each open document, one cached run per document version,
// scenarios text and choice, and the LSP shapes.
import type { CancellationToken, CodeLens, Position, Range } from "vscode-languageserver";
import { formatOf, parseDocument } from "../document/document";
import { templateAt } from "../lwir/expressions";
import { DRY_RUN_REQUEST, PREVIEW_PROMPT_COMMAND, PREVIEW_PROMPT_REQUEST, type DryRunResult, type PreviewPromptArgs, type PromptPreview } from "../protocol";
import { dryRunReport } from "../run/overlay";
import {
  currentScenario, dryRunView, expressionValue, expressionValueMarkdown, previewPrompt, scenarioNames, stepAt, stepsUsing,
  type DryRunView, type ScenarioChoice, type ScenariosSource,
} from "../run/preview";
import { scenariosNamesFor } from "../run/scenarios";
import type { Analysis } from "../service/analysis";
import { problemCount } from "../service/codeLens";
import { sourceSpan, stringAt, valueOffsetOf } from "../service/references";
import { fileNameOf } from "../service/workspace";
import { uriBeside, type WorkspaceFileSource } from "../workspace/files";
import { NO_FILE_SOURCE, openOrRead } from "./openOrRead";
import { isRecord } from "./requestGuards";
import { lwirAnalysis, type ServerParts } from "./serverParts";

/** Scenarios files larger than this are not read. */
const MAX_SCENARIOS_SIZE = 4 * 1024 * 1024;

interface Cached {
  analysis: Analysis;
  scenariosKey: string;
  choice: ScenarioChoice;
  view: DryRunView;
}

export class DryRuns {
  private readonly cache = new Map<string, Cached>();
  /** The scenario chosen for a document ("LWIR: Dry run a scenario…"), until it is closed: hovers and prompt previews follow it. */
  private readonly chosen = new Map<string, string | null>();

  constructor(private readonly parts: ServerParts, private readonly sources: () => readonly WorkspaceFileSource[]) {}

  listen(): void {
    const { connection, documents, session, settings } = this.parts;
    documents.onDidClose(session.notification("didClose (dry run)", (event) => {
      this.cache.delete(event.document.uri);
      this.chosen.delete(event.document.uri);
    }));
    // The lens setting changed: the editor asks for the lenses again.
    let lens = settings.current.dryRun.previewLens;
    settings.onChange(() => {
      if (settings.current.dryRun.previewLens === lens) return;
      lens = settings.current.dryRun.previewLens;
      if (this.parts.client().codeLensRefresh) void connection.sendRequest("workspace/codeLens/refresh").catch(() => {});
    });
    const preview = session.documentRequest("previewPrompt", (params: { textDocument: { uri: string }; stepPath: string }) => this.previewPrompt(params.textDocument.uri, params.stepPath));
    const dryRun = session.documentRequest("dryRun", (params: { textDocument: { uri: string }; scenario?: string | null }) => this.dryRun(params.textDocument.uri, params.scenario));
    connection.onRequest(DRY_RUN_REQUEST, (params: unknown, token: CancellationToken) => {
      const p = isRecord(params) ? params : {};
      const uri = isRecord(p.textDocument) && typeof p.textDocument.uri === "string" ? p.textDocument.uri : typeof p.uri === "string" ? p.uri : undefined;
      // a name, or null for the generated input; anything else keeps the document's current scenario
      const scenario = typeof p.scenario === "string" || p.scenario === null ? p.scenario : undefined;
      return dryRun({ textDocument: { uri: uri as string }, scenario }, token);
    });
    connection.onRequest(PREVIEW_PROMPT_REQUEST, (params: unknown, token: CancellationToken) => {
      const p = isRecord(params) ? params : {};
      const uri = typeof p.uri === "string" ? p.uri : isRecord(p.textDocument) ? p.textDocument.uri : undefined;
      return preview({ textDocument: { uri: uri as string }, stepPath: typeof p.stepPath === "string" ? p.stepPath : "" }, token);
    });
  }

  /**
   * "LWIR: Dry run": the current scenario's run of this version of the document, as trace, text and overlay.
   * `scenario` (a name, or null for the generated input) becomes the document's current scenario first.
   */
  async dryRun(uri: string, scenario?: string | null): Promise<DryRunResult | null> {
    const analysis = lwirAnalysis(this.parts.workspace, uri);
    const document = this.parts.documents.get(uri);
    if (!analysis || !document) return null;
    if (scenario !== undefined) this.chosen.set(uri, scenario);
    const version = document.version;
    const found = await this.view(uri, analysis);
    const choices = { scenarios: found.scenarios, scenarioName: found.name };
    if ("refused" in found) return { uri, version, scenario: found.scenario, ...choices, error: `No dry run: ${found.refused}` };
    return { uri, version, ...choices, ...dryRunReport(analysis.document.value, found.view, `Dry run of ${fileNameOf(uri)}`) };
  }

  /** "Preview prompt" on the `id` of each ai.generate step (the step's start without one), unless turned off. */
  lenses(analysis: Analysis, uri: string): CodeLens[] {
    const doc = analysis.document;
    if (!this.parts.settings.current.dryRun.previewLens || doc.parseErrors.length > 0 || doc.tooDeep) return [];
    return stepsUsing(doc.value, "ai.generate").flatMap((step) => {
      const id = doc.locate([...step.segments, "id"]);
      const loc = doc.locate(step.segments);
      const range = id?.keyStart !== undefined && id.keyEnd !== undefined ? doc.rangeAt(id.keyStart, id.keyEnd) : loc ? doc.rangeAt(loc.valueStart, loc.valueStart) : undefined;
      if (!range) return [];
      const args: PreviewPromptArgs = { uri, stepPath: step.stepPath };
      return [{
        range,
        command: { title: "Preview prompt", command: PREVIEW_PROMPT_COMMAND, arguments: [args], tooltip: `What step ${step.stepPath} sends the model in the dry run's current scenario.` },
      }];
    });
  }

  async previewPrompt(uri: string, stepPath: string): Promise<PromptPreview | null> {
    const analysis = lwirAnalysis(this.parts.workspace, uri);
    if (!analysis) return null;
    const found = await this.view(uri, analysis);
    if ("refused" in found) return { step: stepPath, scenario: found.scenario, error: { message: found.refused, reached: false } };
    const step = stepsUsing(analysis.document.value, "ai.generate").find((s) => s.stepPath === stepPath);
    if (!step) return { step: stepPath, scenario: found.view.scenario.label, error: { message: `The document has no ai.generate step ${stepPath}.`, reached: false } };
    return previewPrompt(found.view, stepPath);
  }

  /** The hover's addition inside a `{{ }}` of a step: the expression's value in the current scenario. */
  async hover(uri: string, analysis: Analysis, position: Position): Promise<{ markdown: string; range: Range } | undefined> {
    const doc = analysis.document;
    if (doc.parseErrors.length > 0 || doc.tooDeep) return undefined;
    const offset = doc.offsetAt(position);
    const at = doc.pathAt(offset);
    if (!at || at.inKey || at.between) return undefined;
    const step = stepAt(doc.value, at.segments);
    if (!step || step.rest.length === 0) return undefined;
    const src = stringAt(doc, at.segments);
    const d = src ? valueOffsetOf(src, offset) : undefined;
    if (!src || d === undefined) return undefined;
    const template = templateAt(src.value, d);
    if (!template?.closed) return undefined;
    const span = sourceSpan(src, template.start, template.bodyStart + template.body.length + 2);
    const range = doc.rangeAt(span.start, span.end);
    const found = await this.view(uri, analysis);
    if ("refused" in found) return { markdown: `*No value: ${found.refused}*`, range };
    const value = expressionValue(found.view, step.stepPath, step.rest, template.body);
    return { markdown: expressionValueMarkdown(value, found.view.scenario.label), range };
  }

  /**
   * The dry run of this version of the document in the current scenario, or why there is none; with the
   * scenarios file's scenario names and the current one's (null: the generated input).
   */
  private async view(uri: string, analysis: Analysis): Promise<({ view: DryRunView } | { refused: string; scenario: string }) & { scenarios: string[]; name: string | null }> {
    const scenarios = await this.scenariosFor(uri);
    const workflow = analysis.document.value;
    const choice = this.chosen.get(uri);
    const names = scenarioNames(scenarios);
    if (!analysis.valid) {
      const n = problemCount(analysis);
      const current = currentScenario(workflow, scenarios, choice);
      return { refused: `the workflow has ${n} ${n === 1 ? "problem" : "problems"}: the runtime would not register it, so there is no dry run.`, scenario: current.label, scenarios: names, name: current.name ?? null };
    }
    const scenariosKey = scenarios ? `${scenarios.name}\n${scenarios.doc.text}` : "";
    const cached = this.cache.get(uri);
    if (cached && cached.analysis === analysis && cached.scenariosKey === scenariosKey && cached.choice === choice) {
      return { view: cached.view, scenarios: names, name: cached.view.scenario.name ?? null };
    }
    const view = dryRunView(workflow, currentScenario(workflow, scenarios, choice));
    this.cache.set(uri, { analysis, scenariosKey, choice, view });
    return { view, scenarios: names, name: view.scenario.name ?? null };
  }

  /** The scenarios file beside the workflow (`NAME.lwir.test.yaml`, `.yml`, `.json`, in that order), if there is one. */
  private async scenariosFor(uri: string): Promise<ScenariosSource | undefined> {
    for (const name of scenariosNamesFor(fileNameOf(uri))) {
      const read = await openOrRead(this.parts.documents, this.sources(), uriBeside(uri, name), MAX_SCENARIOS_SIZE);
      if (read.ok) return { name, doc: parseDocument(read.text.replace(/^\uFEFF/, ""), formatOf(name) ?? "yaml") };
      // the next name when there is no such file here; any other failure: no scenarios file
      if (!read.missing && read.reason !== "is a folder" && read.reason !== NO_FILE_SOURCE) return undefined;
    }
    return undefined;
  }
}
