// lwir mcp's tools in VS Code's agent mode (docs/agents.md): Language Model Tools (package.json
// `contributes.languageModelTools`) answered by the language server (AGENT_TOOL_REQUEST) on the editor's text
// of the document, unsaved edits included: the editor wins over the disk (for `lwir_dry_run`'s scenarios file
// and `lwir_test`'s files too: the server reads them from the disk unless the editor holds unsaved edits of
// them, whose text the client sends along). `lwir_fix` with `write: true` asks
// first, then applies the fixes in the editor. And `lwir mcp` itself, offered to agent mode through an MCP
// server definition provider, so it is listed without any configuration. Both APIs are newer than the
// oldest VS Code the extension supports (package.json `engines`): each is used only where it exists.
import * as vscode from "vscode";
import type { BaseLanguageClient } from "vscode-languageclient";
import { AGENT_TOOL_REQUEST, type AgentToolName, type AgentToolParams, type AgentToolResult } from "../../server/src/protocol";

/** The tools, by their name in package.json, and the tool of `lwir mcp` each one is. */
export const LANGUAGE_MODEL_TOOLS: ReadonlyArray<readonly [name: string, tool: AgentToolName]> = [
  ["lwir_validate", "validate"],
  ["lwir_fix", "fix"],
  ["lwir_explain", "explain"],
  ["lwir_graph", "graph"],
  ["lwir_complete", "complete"],
  ["lwir_dry_run", "dry_run"],
  ["lwir_test", "test"],
];

/** The id of the MCP server definition provider (package.json `contributes.mcpServerDefinitionProviders`). */
export const MCP_PROVIDER_ID = "lwir.mcpServer";

// The parts of the API this file uses, as VS Code 1.101 and later have them (@types/vscode is the oldest supported version's).
interface ToolOptions { input: unknown }
interface LanguageModelTool {
  invoke(options: ToolOptions, token: vscode.CancellationToken): Promise<unknown>;
  prepareInvocation?(options: ToolOptions, token: vscode.CancellationToken): unknown;
}
interface NewerApi {
  lm?: {
    registerTool?(name: string, tool: LanguageModelTool): vscode.Disposable;
    registerMcpServerDefinitionProvider?(id: string, provider: { provideMcpServerDefinitions(): unknown[] }): vscode.Disposable;
  };
  LanguageModelToolResult?: new (content: unknown[]) => unknown;
  LanguageModelTextPart?: new (value: string) => unknown;
  McpStdioServerDefinition?: new (label: string, command: string, args?: string[], env?: Record<string, string | number | null>, version?: string) => { cwd?: vscode.Uri };
}

/** Registers what this VS Code has the API for; nothing on an older one. */
export function registerAgentTools(context: vscode.ExtensionContext, client: BaseLanguageClient, version: string): void {
  const api = vscode as unknown as NewerApi;
  const { LanguageModelToolResult, LanguageModelTextPart, McpStdioServerDefinition } = api;
  if (typeof api.lm?.registerTool === "function" && LanguageModelToolResult && LanguageModelTextPart) {
    const result = (text: string) => new LanguageModelToolResult([new LanguageModelTextPart(text)]);
    for (const [name, tool] of LANGUAGE_MODEL_TOOLS) {
      context.subscriptions.push(api.lm.registerTool(name, {
        prepareInvocation: (options) => (tool === "fix" && isRecord(options.input) && options.input.write === true
          ? {
            invocationMessage: "Fixing the workflow",
            confirmationMessages: {
              title: "Apply LWIR's fixes?",
              message: new vscode.MarkdownString(`Apply every fix that needs no choice to \`${String(options.input.path ?? "the active document")}\` (as \`lwir validate --fix\`)?`),
            },
          }
          : { invocationMessage: `LWIR: ${tool}` }),
        invoke: async (options, token) => result(await invokeTool(client, tool, isRecord(options.input) ? options.input : {}, token)),
      }));
    }
  }
  if (typeof api.lm?.registerMcpServerDefinitionProvider === "function" && McpStdioServerDefinition) {
    const cli = context.asAbsolutePath("bundle/lwir.js");
    context.subscriptions.push(api.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      provideMcpServerDefinitions: () => {
        // The extension host's own runtime runs the CLI bundle (Electron's, told to act as Node): no Node install needed.
        const server = new McpStdioServerDefinition("LWIR Tools", process.execPath, [cli, "mcp"], { ELECTRON_RUN_AS_NODE: "1" }, version);
        const folder = vscode.workspace.workspaceFolders?.[0];
        if (folder?.uri.scheme === "file") server.cwd = folder.uri;
        return [server];
      },
    }));
  }
}

/** One tool call: the document's text from the editor (or the disk), the server's answer, `fix`'s edits applied when asked. */
export async function invokeTool(client: BaseLanguageClient, tool: AgentToolName, input: Record<string, unknown>, token?: vscode.CancellationToken): Promise<string> {
  const { path, write, ...rest } = input;
  let document: vscode.TextDocument | undefined;
  const params: AgentToolParams = { tool, input: rest };
  if (tool === "dry_run" || tool === "test") params.texts = unsavedTexts();
  if (tool === "test") {
    // A path of the disk: the scenarios files of a folder are found there (the editor's unsaved texts go along).
    const uri = typeof path === "string" && path !== "" ? uriOf(path) : vscode.window.activeTextEditor?.document.uri;
    if (!uri) return "Error: give path (a scenarios file, a workflow or a folder of the workspace), or open a workflow in the editor.";
    if (uri.scheme !== "file") return `Error: ${uri.toString()} is not a file on disk: lwir_test reads scenarios files from the disk.`;
    rest.path = uri.fsPath;
  }
  const takesDocument = tool !== "explain" && tool !== "test";
  if (takesDocument && rest.text === undefined) {
    try {
      document = await documentOf(path);
    } catch (error) {
      return `Error: cannot open ${String(path)}: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (!document) return "Error: give path (a workflow file of the workspace) or text, or open the workflow in the editor.";
    rest.text = document.getText();
    rest.format ??= formatOf(document);
    // The dry run's scenario is read from the scenarios file beside the document.
    if (tool === "dry_run" && document.uri.scheme === "file") params.file = document.uri.fsPath;
  }
  const version = document?.version;
  const reply = await client.sendRequest<AgentToolResult>(AGENT_TOOL_REQUEST, params, token);
  if (reply.error !== undefined || !reply.answer) return `Error: ${reply.error ?? "no answer"}`;
  const answer = reply.answer;
  if (tool === "fix" && write === true) {
    if (!document) return "Error: write: true needs a path or an open document (the fixed text is in the answer otherwise).";
    if (document.version !== version) return "Error: the document changed while it was being fixed; call the tool again.";
    const edits = Array.isArray(answer.edits) ? answer.edits as Array<{ line: number; column: number; endLine: number; endColumn: number; newText: string }> : [];
    if (edits.length > 0) {
      const wasDirty = document.isDirty;
      const edit = new vscode.WorkspaceEdit();
      for (const e of edits) edit.replace(document.uri, new vscode.Range(e.line - 1, e.column - 1, e.endLine - 1, e.endColumn - 1), e.newText);
      const applied = await vscode.workspace.applyEdit(edit);
      // A document without unsaved edits is saved, so the file holds the fix; one with unsaved edits stays the user's to save.
      if (applied && !wasDirty) await document.save();
      answer.written = applied;
    }
  }
  return JSON.stringify(answer);
}

/** The document a tool is about: the path (workspace-relative or absolute, or a URI) as the editor has it, else the active editor's. */
async function documentOf(path: unknown): Promise<vscode.TextDocument | undefined> {
  if (typeof path !== "string" || path === "") return vscode.window.activeTextEditor?.document;
  const uri = uriOf(path);
  // An open document is taken as the editor holds it (unsaved edits included); openTextDocument returns that one too.
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) ?? vscode.workspace.openTextDocument(uri);
}

/** A path as a tool is given it: a URI, an absolute path, or a path in the first workspace folder. */
function uriOf(path: string): vscode.Uri {
  return /^[a-z][\w+.-]+:/i.test(path) && !/^[a-z]:[\\/]/i.test(path) ? vscode.Uri.parse(path)
    : /^([\\/]|[a-z]:[\\/])/i.test(path) ? vscode.Uri.file(path)
      : vscode.workspace.workspaceFolders?.[0] ? vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, path) : vscode.Uri.file(path);
}

/** The editor's texts of its files with unsaved edits, by file path: what the dry runs read instead of the disk. */
function unsavedTexts(): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const d of vscode.workspace.textDocuments) if (d.isDirty && d.uri.scheme === "file") texts[d.uri.fsPath] = d.getText();
  return texts;
}

function formatOf(document: vscode.TextDocument): "json" | "yaml" {
  if (/\.json$/i.test(document.uri.path)) return "json";
  if (/\.ya?ml$/i.test(document.uri.path)) return "yaml";
  return document.languageId === "json" || document.languageId === "jsonc" ? "json" : "yaml";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
