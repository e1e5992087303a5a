// client/src/languageModelTools.ts against a stand-in of the `vscode` module (the real one exists only inside
// VS Code): on an editor without the Language Model Tools and MCP APIs (the oldest the extension supports)
// nothing is registered and nothing fails; with them, the seven tools and the MCP server definition are
// registered as package.json declares them, a tool answers on the editor's text (unsaved edits, not the disk),
// lwir_fix asks before it writes, then edits the document in the editor, and the dry runs read the
// scenarios files as the editor holds them.
// Runs under `npm test` (tsc output: the stand-in replaces `vscode` at load time); scripts/run-test.mjs cannot bundle it.
import { afterEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import Module from "node:module";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { answerAgentTool } from "../../server/src/mcp/languageServer";

const manifest = JSON.parse(readFileSync("package.json", "utf8")) as {
  activationEvents: string[];
  contributes: { languageModelTools: Array<{ name: string; inputSchema: { properties: Record<string, unknown> } }>; mcpServerDefinitionProviders: Array<{ id: string }> };
};

interface FakeDocument { uri: { toString(): string; path: string; fsPath: string; scheme: string }; languageId: string; version: number; isDirty: boolean; text: string; getText(): string; save(): Promise<boolean>; saved: number }

/** A stand-in of the `vscode` module with just what the file uses; `withApis` adds the newer APIs. */
function fakeVscode(withApis: boolean, documents: FakeDocument[]) {
  const registered = new Map<string, any>();
  const providers = new Map<string, any>();
  const applied: Array<Array<{ uri: string; range: any; text: string }>> = [];
  class Range { constructor(public startLine: number, public startCharacter: number, public endLine: number, public endCharacter: number) {} }
  class WorkspaceEdit {
    edits: Array<{ uri: string; range: Range; text: string }> = [];
    replace(uri: { toString(): string }, range: Range, text: string) { this.edits.push({ uri: uri.toString(), range, text }); }
  }
  const uriOf = (path: string) => ({ toString: () => `file://${path}`, path, fsPath: path, scheme: "file" });
  const vscode: Record<string, unknown> = {
    MarkdownString: class { constructor(public value: string) {} },
    Range, WorkspaceEdit,
    Uri: { file: uriOf, parse: (s: string) => uriOf(s.replace(/^file:\/\//, "")), joinPath: (base: { path: string }, p: string) => uriOf(join(base.path, p)) },
    window: { activeTextEditor: documents[0] ? { document: documents[0] } : undefined },
    workspace: {
      workspaceFolders: [{ uri: uriOf("/w") }],
      textDocuments: documents,
      openTextDocument: async (uri: { path: string }) => { throw new Error(`${uri.path} is not open here`); },
      applyEdit: async (edit: WorkspaceEdit) => {
        applied.push(edit.edits);
        for (const e of edit.edits) {
          const doc = documents.find((d) => d.uri.toString() === e.uri)!;
          const lines = doc.text.split("\n");
          const offset = (l: number, c: number) => lines.slice(0, l).reduce((n, x) => n + x.length + 1, 0) + c;
          doc.text = doc.text.slice(0, offset(e.range.startLine, e.range.startCharacter)) + e.text + doc.text.slice(offset(e.range.endLine, e.range.endCharacter));
          doc.version++;
          doc.isDirty = true;
        }
        return true;
      },
    },
  };
  if (withApis) {
    vscode.lm = {
      registerTool: (name: string, tool: unknown) => { registered.set(name, tool); return { dispose() {} }; },
      registerMcpServerDefinitionProvider: (id: string, provider: unknown) => { providers.set(id, provider); return { dispose() {} }; },
    };
    vscode.LanguageModelToolResult = class { constructor(public content: Array<{ value: string }>) {} };
    vscode.LanguageModelTextPart = class { constructor(public value: string) {} };
    vscode.McpStdioServerDefinition = class {
      cwd?: unknown;
      constructor(public label: string, public command: string, public args: string[], public env: Record<string, string>, public version: string) {}
    };
  }
  return { vscode, registered, providers, applied };
}

/** Loads client/src/languageModelTools.ts with `vscode` resolved to the stand-in. */
function load(vscode: unknown): typeof import("../../client/src/languageModelTools") {
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const original = loader._load;
  loader._load = (request: string, ...rest: unknown[]) => (request === "vscode" ? vscode : original(request, ...rest));
  try {
    const path = require.resolve("../../client/src/languageModelTools");
    delete require.cache[path];
    return require(path);
  } finally {
    loader._load = original;
  }
}

function document(path: string, text: string, languageId: string): FakeDocument {
  const doc: FakeDocument = {
    uri: { toString: () => `file://${path}`, path, fsPath: path, scheme: "file" }, languageId, version: 1, isDirty: true, text, saved: 0,
    getText: () => doc.text,
    save: async () => { doc.saved++; doc.isDirty = false; return true; },
  };
  return doc;
}

/** A language client whose requests the server's own handler answers. */
const client = { sendRequest: async (_method: string, params: unknown) => answerAgentTool(params) } as any;
const context = () => ({ subscriptions: [] as unknown[], asAbsolutePath: (p: string) => join("/ext", p) }) as any;

describe("VS Code's Language Model Tools and MCP server definition", () => {
  afterEach(() => { delete require.cache[require.resolve("../../client/src/languageModelTools")]; });

  test("package.json declares each tool once, with its activation event, and the MCP provider", () => {
    const { vscode } = fakeVscode(true, []);
    const { LANGUAGE_MODEL_TOOLS, MCP_PROVIDER_ID } = load(vscode);
    assert.deepEqual(manifest.contributes.languageModelTools.map((t) => t.name), LANGUAGE_MODEL_TOOLS.map(([name]) => name));
    for (const [name] of LANGUAGE_MODEL_TOOLS) assert.ok(manifest.activationEvents.includes(`onLanguageModelTool:${name}`), name);
    assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders.map((p) => p.id), [MCP_PROVIDER_ID]);
    assert.ok(manifest.activationEvents.includes(`onMcpCollection:${MCP_PROVIDER_ID}`));
  });

  test("an editor without the APIs gets neither, and nothing fails", () => {
    const { vscode } = fakeVscode(false, []);
    const ctx = context();
    load(vscode).registerAgentTools(ctx, client, "0.1.0");
    assert.deepEqual(ctx.subscriptions, []);
  });

  test("with the APIs: the seven tools, and lwir mcp run by the editor's own runtime from the extension's bundle", () => {
    const { vscode, registered, providers } = fakeVscode(true, []);
    const ctx = context();
    load(vscode).registerAgentTools(ctx, client, "0.1.0");
    assert.deepEqual([...registered.keys()], ["lwir_validate", "lwir_fix", "lwir_explain", "lwir_graph", "lwir_complete", "lwir_dry_run", "lwir_test"]);
    const [server] = providers.get("lwir.mcpServer").provideMcpServerDefinitions();
    assert.equal(server.command, process.execPath);
    assert.deepEqual(server.args, [join("/ext", "bundle/lwir.js"), "mcp"]);
    assert.equal(server.env.ELECTRON_RUN_AS_NODE, "1");
    assert.equal(ctx.subscriptions.length, 8);
  });

  test("a tool answers on the editor's text of an open document, unsaved edits included", async () => {
    const disk = readFileSync(join("examples", "support-triage.lwir.yaml"), "utf8");
    const edited = disk.replace('queue: "{{ input.queue }}"', "queue: {{ input.queue }}");
    const doc = document("/w/flows/triage.lwir.yaml", edited, "yaml");
    const { vscode, registered } = fakeVscode(true, [doc]);
    load(vscode).registerAgentTools(context(), client, "0.1.0");
    const result = await registered.get("lwir_validate").invoke({ input: { path: "flows/triage.lwir.yaml" } }, undefined);
    const answer = JSON.parse(result.content[0].value);
    assert.deepEqual(answer.findings.map((f: { code: string }) => f.code), ["lwir.yaml_unquoted_template"]);
    // No path: the active editor's document.
    const active = JSON.parse((await registered.get("lwir_validate").invoke({ input: {} }, undefined)).content[0].value);
    assert.equal(active.total, 1);
    const missing = (await registered.get("lwir_validate").invoke({ input: { path: "nope.lwir.yaml" } }, undefined)).content[0].value;
    assert.match(missing, /^Error: cannot open nope\.lwir\.yaml/);
  });

  test("lwir_fix asks before it writes, then applies the fixes to the document in the editor", async () => {
    const disk = readFileSync(join("examples", "support-triage.lwir.yaml"), "utf8");
    const doc = document("/w/triage.lwir.yaml", disk.replace('queue: "{{ input.queue }}"', "queue: {{ input.queue }}"), "yaml");
    const { vscode, registered, applied } = fakeVscode(true, [doc]);
    load(vscode).registerAgentTools(context(), client, "0.1.0");
    const fix = registered.get("lwir_fix");
    assert.ok(fix.prepareInvocation({ input: { path: "triage.lwir.yaml", write: true } }).confirmationMessages, "a confirmation before writing");
    assert.equal(fix.prepareInvocation({ input: { path: "triage.lwir.yaml" } }).confirmationMessages, undefined, "none without write");
    const dry = JSON.parse((await fix.invoke({ input: { path: "triage.lwir.yaml" } }, undefined)).content[0].value);
    assert.equal(dry.text, disk);
    assert.equal(applied.length, 0, "without write the document is left alone");
    const written = JSON.parse((await fix.invoke({ input: { path: "triage.lwir.yaml", write: true } }, undefined)).content[0].value);
    assert.equal(written.written, true);
    assert.equal(doc.text, disk, "the editor's document holds the fixed text");
    assert.equal(doc.saved, 0, "a document with unsaved edits is left for the user to save");
  });

  test("lwir_dry_run and lwir_test read the workflow and its scenarios file as the editor holds them", async () => {
    const workflowFile = resolve("examples", "support-triage.lwir.yaml");
    const scenariosFile = resolve("examples", "support-triage.lwir.test.yaml");
    const workflow = document(workflowFile, readFileSync(workflowFile, "utf8").replace("You are a support engineer.", "You are a careful support engineer."), "yaml");
    const handover = "Queue billing-eu: 2 tickets (2 billing), none failed, nothing urgent.";
    const scenarios = document(scenariosFile, readFileSync(scenariosFile, "utf8").replaceAll(handover, "All done."), "yaml");
    const { vscode, registered } = fakeVscode(true, [workflow, scenarios]);
    load(vscode).registerAgentTools(context(), client, "0.1.0");
    const run = JSON.parse((await registered.get("lwir_dry_run").invoke({ input: { scenario: "two tickets, one redrafted" } }, undefined)).content[0].value);
    assert.equal(run.status, "completed");
    assert.equal(run.output, "All done.", "the scenario's unsaved sample");
    assert.match(run.steps.find((s: { path: string }) => s.path.endsWith("draft.visit[0]")).system, /careful/, "the workflow's unsaved prompt");
    const tested = JSON.parse((await registered.get("lwir_test").invoke({ input: { path: scenariosFile } }, undefined)).content[0].value);
    assert.equal(tested.passed + tested.failed, 3);
    assert.equal(tested.failed, 0, "the unsaved expectations match the unsaved samples");
    scenarios.text = scenarios.text.replace("output: \"All done.\"", "output: \"Something else.\"");
    const failing = JSON.parse((await registered.get("lwir_test").invoke({ input: {} }, undefined)).content[0].value);
    assert.equal(failing.failed, 1, "no path: the active document's scenarios file");
    assert.equal(failing.files[0].scenarios[0].failures[0].what, "expect.output");
  });
});
