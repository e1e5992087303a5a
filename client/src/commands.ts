// The palette commands around the server, for the Node and browser extensions alike: "LWIR: Fix all in
// file" (the document's source.fixAll.lwir action, the same fixes as `lwir validate --fix`, applied as one
// edit, so one undo takes it back), "LWIR: Restart server" and "LWIR: Show output".
import * as vscode from "vscode";
import type { BaseLanguageClient } from "vscode-languageclient";
import { FIX_ALL_IN_FILE_COMMAND, FIX_ALL_KIND, RESTART_SERVER_COMMAND, SHOW_OUTPUT_COMMAND } from "../../server/src/protocol";

export function registerCommands(context: vscode.ExtensionContext, client: BaseLanguageClient, output: vscode.OutputChannel): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(FIX_ALL_IN_FILE_COMMAND, () => fixAllInFile()),
    vscode.commands.registerCommand(RESTART_SERVER_COMMAND, async () => {
      output.appendLine("Restarting the LWIR language server (LWIR: Restart server).");
      // The Node client restarts in one call; the browser one (a web worker) is stopped and started.
      const node = client as BaseLanguageClient & { restart?: () => Promise<void> };
      if (typeof node.restart === "function") await node.restart();
      else {
        await client.stop();
        await client.start();
      }
    }),
    vscode.commands.registerCommand(SHOW_OUTPUT_COMMAND, () => output.show(true)),
  );
}

async function fixAllInFile(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return;
  const document = editor.document;
  const whole = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
  const version = document.version;
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[] | undefined>(
    "vscode.executeCodeActionProvider", document.uri, whole, FIX_ALL_KIND);
  const action = actions?.find((a) => a.kind !== undefined && vscode.CodeActionKind.SourceFixAll.append("lwir").contains(a.kind) && a.edit);
  if (!action?.edit) {
    void vscode.window.showInformationMessage("LWIR: nothing in this file has a fix that needs no choice.");
    return;
  }
  // The fixes were computed for this version: typing in the meantime makes them stale.
  if (document.version !== version) return;
  await vscode.workspace.applyEdit(action.edit);
}
