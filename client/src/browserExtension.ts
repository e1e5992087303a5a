// The VS Code extension in the browser (vscode.dev, github.dev): the same server in a web worker.
import * as vscode from "vscode";
import { LanguageClient } from "vscode-languageclient/browser";
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

// A web worker global; the extension host in the browser has it, our tsconfig has no DOM library.
declare const Worker: new (url: string) => ConstructorParameters<typeof LanguageClient>[2];

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const outputChannel = vscode.window.createOutputChannel(CLIENT_NAME, { log: true });
  context.subscriptions.push(outputChannel);
  const serverMain = vscode.Uri.joinPath(context.extensionUri, "dist/web/server.js");
  const worker = new Worker(serverMain.toString(true));
  registerRulePages(context);
  context.subscriptions.push(registerTypingAids());
  const quiet = new QuietTyping();
  const records = new IndicatorRecords(quiet);
  context.subscriptions.push(quiet, records);
  client = new LanguageClient(CLIENT_ID, CLIENT_NAME, worker, clientOptions(outputChannel, { ...quiet.middleware, ...records.middleware }));
  context.subscriptions.push(...serveWorkspaceFiles(client));
  await client.start();
  quiet.attach(client);
  registerFeatures(context, client, records);
  registerGraphView(context, client, outputChannel);
  registerPromptPreview(context, client);
  registerDryRunCommand(context, client);
  registerCommands(context, client, outputChannel);
  registerTestExplorer(context, client);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
