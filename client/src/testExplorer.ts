// The scenarios files (`NAME.lwir.test.yaml|yml|json`, docs/dry-run.md) in VS Code's Test Explorer: one test
// item per file, a child per scenario at its line (so the editor's gutter has run buttons), run one, a file
// or all. The language server lists and runs them as `lwir test` does (lwir/listScenarios, lwir/runScenarios:
// server/src/lsp/scenarioFeatures.ts), on the editor's text of open files; here only the items and the
// results: a failed expectation at its line with the expected and actual values (a diff), a workflow
// that is missing or invalid as an error. Where `vscode.tests` is missing nothing is registered.
import * as vscode from "vscode";
import type { BaseLanguageClient } from "vscode-languageclient";
import {
  LIST_SCENARIOS_REQUEST, RUN_SCENARIOS_REQUEST, SETTINGS_SECTION,
  type ScenarioListResult, type ScenarioOutcome, type ScenarioRunResult, type ScenariosParams,
} from "../../server/src/protocol";

export const TEST_CONTROLLER_ID = "lwir";
export const TEST_CONTROLLER_LABEL = "LWIR scenarios";
/** Where scenarios files are looked for in the workspace. */
export const SCENARIOS_GLOB = "**/*.lwir.test.{yaml,yml,json}";
const SCENARIOS_NAME = /\.lwir\.test\.(json|ya?ml)$/i;
/** Never searched, as the workspace scan (server/src/workspace/files.ts). */
const SKIPPED_FOLDERS = ["**/node_modules/**", "**/.git/**"];
/** Edits are followed after this quiet period. */
const EDIT_DELAY_MS = 300;

type Client = Pick<BaseLanguageClient, "sendRequest">;

const isScenariosFile = (uri: vscode.Uri): boolean => SCENARIOS_NAME.test(uri.path);

/** Registers the test controller where the editor has the Testing API; returns whether it did. */
export function registerTestExplorer(context: vscode.ExtensionContext, client: Client): boolean {
  const tests = (vscode as { tests?: typeof vscode.tests }).tests;
  if (typeof tests?.createTestController !== "function") return false;
  const controller = tests.createTestController(TEST_CONTROLLER_ID, TEST_CONTROLLER_LABEL);
  const explorer = new ScenarioTests(controller, client);
  context.subscriptions.push(controller, explorer);
  return true;
}

/** JSON this short stays on one line: VS Code writes "expected != actual" after the failing line, and cuts indented JSON there to its first and last lines (`[ "list-merged…"write-notes" ]` on both sides). */
const ONE_LINE_MAX = 80;

/** A value of an expectation as the diff shows it: a string as it is, short JSON on one line, longer JSON indented. */
export function shown(value: unknown): string {
  if (typeof value === "string") return value;
  const compact = JSON.stringify(value);
  if (compact === undefined) return String(value);
  return compact.length <= ONE_LINE_MAX ? compact : JSON.stringify(value, null, 2);
}

export class ScenarioTests implements vscode.Disposable {
  /** The workflow each listed scenarios file runs against (to follow its edits). */
  private readonly workflows = new Map<string, string>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly controller: vscode.TestController, private readonly client: Client) {
    controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
      else if (item.uri) await this.refresh(item.uri);
    };
    controller.refreshHandler = () => this.discover();
    controller.createRunProfile("Run", vscode.TestRunProfileKind.Run, (request, token) => this.run(request, token), true);

    const watcher = vscode.workspace.createFileSystemWatcher(SCENARIOS_GLOB);
    this.disposables.push(
      watcher,
      watcher.onDidCreate((uri) => this.refreshSoon(uri)),
      watcher.onDidChange((uri) => this.refreshSoon(uri)),
      watcher.onDidDelete((uri) => this.remove(uri)),
      vscode.workspace.onDidOpenTextDocument((doc) => {
        if (isScenariosFile(doc.uri)) this.refreshSoon(doc.uri);
      }),
      vscode.workspace.onDidChangeTextDocument((event) => this.edited(event.document.uri)),
    );
    for (const doc of vscode.workspace.textDocuments) if (isScenariosFile(doc.uri)) this.refreshSoon(doc.uri);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const d of this.disposables) d.dispose();
  }

  /** Finds the scenarios files of the workspace (files.exclude, lwir.files.exclude, node_modules and .git left out). */
  async discover(): Promise<void> {
    // A given exclude pattern adds to files.exclude (only `null` would drop it).
    const user = vscode.workspace.getConfiguration(SETTINGS_SECTION).get<string[]>("files.exclude") ?? [];
    const globs = [...SKIPPED_FOLDERS, ...user.filter((g) => typeof g === "string" && g !== "")];
    const found = await vscode.workspace.findFiles(SCENARIOS_GLOB, `{${globs.join(",")}}`);
    await Promise.all(found.map((uri) => this.refresh(uri)));
  }

  /** Lists the file's scenarios again (its item made, updated, or left alone when gone). */
  async refresh(uri: vscode.Uri): Promise<void> {
    let listed: ScenarioListResult;
    try {
      listed = await this.client.sendRequest<ScenarioListResult>(LIST_SCENARIOS_REQUEST, { uri: uri.toString() } satisfies ScenariosParams);
    } catch (error) {
      this.fileItem(uri).error = `The scenarios could not be listed: ${messageOf(error)}`;
      return;
    }
    if (!listed) return;
    if (listed.error !== undefined && listed.scenarios.length === 0 && /: not found$/.test(listed.error)) {
      this.remove(uri);
      return;
    }
    this.update(uri, listed);
  }

  private update(uri: vscode.Uri, listed: Pick<ScenarioListResult, "workflow" | "error" | "scenarios">): void {
    const file = this.fileItem(uri);
    if (listed.workflow) this.workflows.set(uri.toString(), listed.workflow);
    else this.workflows.delete(uri.toString());
    // A file that cannot be read as scenarios shows why; a missing workflow shows on each run instead.
    file.error = listed.scenarios.length === 0 && listed.error !== undefined ? listed.error : undefined;
    const children: vscode.TestItem[] = [];
    const seen = new Set<string>();
    for (const s of listed.scenarios) {
      if (seen.has(s.name)) continue;
      seen.add(s.name);
      const child = file.children.get(scenarioId(uri, s.name)) ?? this.controller.createTestItem(scenarioId(uri, s.name), s.name, uri);
      child.range = new vscode.Range(s.position.line, s.position.character, s.position.line, s.position.character);
      children.push(child);
    }
    file.children.replace(children);
  }

  private fileItem(uri: vscode.Uri): vscode.TestItem {
    const id = uri.toString();
    let item = this.controller.items.get(id);
    if (!item) {
      item = this.controller.createTestItem(id, vscode.workspace.asRelativePath(uri, true), uri);
      item.canResolveChildren = true;
      this.controller.items.add(item);
    }
    return item;
  }

  remove(uri: vscode.Uri): void {
    this.controller.items.delete(uri.toString());
    this.workflows.delete(uri.toString());
  }

  /** An edit of an open scenarios file lists it again; an edit of a workflow makes its files' results stale. */
  private edited(uri: vscode.Uri): void {
    if (isScenariosFile(uri)) this.refreshSoon(uri);
    const key = uri.toString();
    for (const [scenarios, workflow] of this.workflows) {
      if (workflow !== key) continue;
      const item = this.controller.items.get(scenarios);
      if (item && typeof this.controller.invalidateTestResults === "function") this.controller.invalidateTestResults(item);
    }
  }

  private refreshSoon(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      void this.refresh(uri);
    }, EDIT_DELAY_MS));
  }

  /** Runs what the request includes (everything when it names nothing), one request per file. */
  async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = this.controller.createTestRun(request);
    const excluded = new Set((request.exclude ?? []).map((i) => i.id));
    // file id → the scenarios asked for (undefined: the whole file)
    const files = new Map<string, { file: vscode.TestItem; only?: Set<string> }>();
    const include = request.include ?? all(this.controller.items);
    for (const item of include) {
      if (excluded.has(item.id)) continue;
      const parent = item.parent;
      if (!parent) files.set(item.id, { file: item });
      else {
        const entry = files.get(parent.id) ?? { file: parent, only: new Set<string>() };
        entry.only?.add(item.label);
        files.set(parent.id, entry);
      }
    }
    try {
      for (const { file, only } of files.values()) {
        if (token.isCancellationRequested) break;
        await this.runFile(run, file, only, excluded);
      }
    } finally {
      run.end();
    }
  }

  private async runFile(run: vscode.TestRun, file: vscode.TestItem, only: Set<string> | undefined, excluded: Set<string>): Promise<void> {
    const uri = file.uri!;
    const wanted = (item: vscode.TestItem) => !excluded.has(item.id) && (only === undefined || only.has(item.label));
    const queued = all(file.children).filter(wanted);
    for (const item of queued) run.started(item);
    if (queued.length === 0) run.started(file);
    let result: ScenarioRunResult;
    const started = Date.now();
    try {
      const params: ScenariosParams = { uri: uri.toString(), ...(only?.size === 1 ? { scenario: [...only][0] } : {}) };
      result = await this.client.sendRequest<ScenarioRunResult>(RUN_SCENARIOS_REQUEST, params);
    } catch (error) {
      const message = new vscode.TestMessage(`The scenarios could not be run: ${messageOf(error)}`);
      for (const item of queued.length > 0 ? queued : [file]) run.errored(item, message);
      return;
    }
    const duration = Date.now() - started;
    // What ran is what the file says now: its items follow (a renamed scenario, a line moved).
    if (only === undefined) this.update(uri, result);
    if (result.scenarios.length === 0 && result.error !== undefined) {
      const message = new vscode.TestMessage(result.error);
      message.location = new vscode.Location(uri, new vscode.Position(0, 0));
      for (const item of queued.length > 0 ? queued : [file]) run.errored(item, message);
      return;
    }
    const outcomes = new Map(result.scenarios.map((s) => [s.name, s]));
    let passed = 0;
    let failed = 0;
    let errors = 0;
    for (const item of all(file.children).filter(wanted)) {
      const outcome = outcomes.get(item.label);
      if (!outcome) {
        run.skipped(item);
        continue;
      }
      if (!queued.includes(item)) run.started(item);
      if (outcome.error !== undefined) {
        errors++;
        const message = new vscode.TestMessage(outcome.error);
        message.location = new vscode.Location(uri, positionOf(outcome));
        run.errored(item, message);
      } else if (outcome.passed) {
        passed++;
        run.passed(item, duration);
      } else {
        failed++;
        run.failed(item, failureMessages(uri, outcome), duration);
      }
    }
    run.appendOutput(`${vscode.workspace.asRelativePath(uri, true)}: ${passed} passed, ${failed} failed${errors > 0 ? `, ${errors} not run (${result.error ?? "error"})` : ""}\r\n`);
  }
}

/** The messages of a failed scenario: each expectation at its line, with a diff where it has values. */
export function failureMessages(uri: vscode.Uri, outcome: ScenarioOutcome): vscode.TestMessage[] {
  return outcome.failures.map((f) => {
    const text = `${f.expectation}: ${f.message}`;
    const message = "expected" in f || "actual" in f
      ? vscode.TestMessage.diff(text, shown(f.expected ?? null), shown(f.actual ?? null))
      : new vscode.TestMessage(text);
    message.location = new vscode.Location(uri, new vscode.Position(f.position.line, f.position.character));
    return message;
  });
}

const positionOf = (outcome: ScenarioOutcome) => new vscode.Position(outcome.position.line, outcome.position.character);

const scenarioId = (uri: vscode.Uri, name: string) => `${uri.toString()}#${name}`;

function all(collection: vscode.TestItemCollection | readonly vscode.TestItem[]): vscode.TestItem[] {
  if (Array.isArray(collection)) return [...collection];
  const out: vscode.TestItem[] = [];
  (collection as vscode.TestItemCollection).forEach((item) => out.push(item));
  return out;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
