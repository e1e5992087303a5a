// Test-only extension of the code-server checks (lm-tools.mjs), packaged into a .vsix at test time and never
// part of the product: its command calls one of LWIR's Language Model Tools the way agent mode does, through
// vscode.lm.invokeTool, so the check sees what the tool answers inside the real workbench. The check writes
// the call into REQUEST (tool, input, id) and runs the command from the palette; the answer goes to ANSWER,
// both in the workspace's .vscode folder, where the check reads it.
const vscode = require("vscode");

const REQUEST = ".vscode/lwir-e2e-request.json";
const ANSWER = ".vscode/lwir-e2e-answer.json";

function activate(context) {
  context.subscriptions.push(vscode.commands.registerCommand("lwirE2e.invokeTool", async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!folder) return void vscode.window.showErrorMessage("LWIR e2e: no workspace folder");
    const request = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, REQUEST))));
    const answer = { id: request.id, tool: request.tool };
    try {
      if (typeof vscode.lm?.invokeTool !== "function") throw new Error("this VS Code has no vscode.lm.invokeTool");
      answer.listed = vscode.lm.tools.some((t) => t.name === request.tool);
      const result = await vscode.lm.invokeTool(request.tool, { input: request.input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
      answer.text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : `[${part?.constructor?.name ?? typeof part}]`)).join("");
    } catch (error) {
      answer.error = { name: error?.name ?? typeof error, message: error?.message ?? String(error) };
    }
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, ANSWER), new TextEncoder().encode(JSON.stringify(answer, null, 2)));
  }));
}

module.exports = { activate, deactivate() {} };
