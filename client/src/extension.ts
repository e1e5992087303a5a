// The VS Code extension (Node): starts the bundled language server over IPC.
import * as path from "node:path";
import * as vscode from "vscode";
import { LanguageClient, TransportKind, type ServerOptions } from "vscode-languageclient/node";
import { CLIENT_ID, CLIENT_NAME, clientOptions } from "./clientOptions";
import { QuietTyping } from "./quietTypingClient";
import { registerGraphView } from "./graphPanel";
import { registerPromptPreview } from "./promptPreview";
import { registerDryRunCommand } from "./dryRunCommand";
import { registerCommands } from "./commands";
import { IndicatorRecords, registerFeatures } from "./workflowVersionUi";
import { serveWorkspaceFiles } from "./workspaceFiles";
import { registerRulePages } from "./rulePages";
import { registerTypingAids } from "./typingAids";
import { registerTestExplorer } from "./testExplorer";
import { registerAgentTools } from "./languageModelTools";

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const outputChannel = vscode.window.createOutputChannel(CLIENT_NAME, { log: true });
  context.subscriptions.push(outputChannel);
  const module = context.asAbsolutePath(path.join("dist", "server.js"));
  // A private folder for the server's V8 code cache (server/src/serverLoader.ts): faster cold starts.
  const env = context.globalStorageUri.scheme === "file" ? { LWIR_CODE_CACHE_DIR: path.join(context.globalStorageUri.fsPath, "code-cache") } : {};
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc, options: { env } },
    debug: { module, transport: TransportKind.ipc, options: { env, execArgv: ["--nolazy", "--inspect=6009"] } },
  };
  registerRulePages(context);
  context.subscriptions.push(registerTypingAids());
  const quiet = new QuietTyping();
  const records = new IndicatorRecords(quiet);
  context.subscriptions.push(quiet, records);
  client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions(outputChannel, { ...quiet.middleware, ...records.middleware }));
  context.subscriptions.push(...serveWorkspaceFiles(client));
  await client.start();
  quiet.attach(client);
  registerFeatures(context, client, records);
  registerGraphView(context, client, outputChannel);
  registerPromptPreview(context, client);
  registerDryRunCommand(context, client);
  registerCommands(context, client, outputChannel);
  registerTestExplorer(context, client);
  registerAgentTools(context, client, String((context.extension.packageJSON as { version?: unknown }).version ?? ""));
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
