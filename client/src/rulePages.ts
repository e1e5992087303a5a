// The rule pages (docs/rules/CODE.md, shipped in the .vsix) opened from a diagnostic's code: the server links
// each code to `lwir-rule:/CODE.md` (initializationOptions.ruleDocsBase, server/src/service/ruleDocs.ts). VS Code
// opens such a link in an editor; this provider gives the page's text from the extension's own folder (no
// network, in the desktop and the browser build alike), and a page opened as text is shown in the Markdown
// preview instead. Links between pages (`[…](README.md)`) resolve to `lwir-rule:` pages too.
import * as vscode from "vscode";
import { OPEN_RULE_PAGE_COMMAND, ruleLinksAsCommands, rulePageCandidates } from "./rulePagePaths";
import type { Middleware } from "vscode-languageclient";

export const RULE_PAGE_SCHEME = "lwir-rule";
/** The base the server is given for its links. */
export const RULE_PAGES_BASE = `${RULE_PAGE_SCHEME}:/`;

// Browser-build extension hosts have fetch; our tsconfig has no DOM library.
declare const fetch: (url: string) => Promise<{ ok: boolean; status: number; text(): Promise<string> }>;

/** `lwir-rule:/model.disallowed.md` → docs/rules/model.disallowed.md of the extension (or a page of docs/ it links to); nothing else. */
function rulePageFiles(extensionUri: vscode.Uri, uri: vscode.Uri): vscode.Uri[] | undefined {
  return rulePageCandidates(uri.path)?.map((relative) => vscode.Uri.joinPath(extensionUri, relative));
}

async function readPage(file: vscode.Uri): Promise<string> {
  // The browser build may serve the extension over http(s), which workspace.fs does not read.
  if (file.scheme === "http" || file.scheme === "https") {
    const response = await fetch(file.toString(true));
    if (!response.ok) throw new Error(`${response.status}`);
    return response.text();
  }
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
}

export function registerRulePages(context: vscode.ExtensionContext): void {
  const provider: vscode.TextDocumentContentProvider = {
    async provideTextDocumentContent(uri) {
      const files = rulePageFiles(context.extensionUri, uri);
      if (!files) return `No LWIR rule page is called ${uri.path}.\n`;
      for (const file of files) {
        try {
          return await readPage(file);
        } catch {
          // the next place it may be
        }
      }
      return `The LWIR rule page ${uri.path} is missing from this installation.\n`;
    },
  };
  const showAsPreview = async (editor: vscode.TextEditor | undefined): Promise<void> => {
    const uri = editor?.document.uri;
    if (uri?.scheme !== RULE_PAGE_SCHEME) return;
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());
    await vscode.commands.executeCommand("markdown.showPreview", uri);
    await vscode.window.tabGroups.close(tabs);
  };
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(RULE_PAGE_SCHEME, provider),
    vscode.commands.registerCommand(OPEN_RULE_PAGE_COMMAND, async (uri: unknown) => {
      if (typeof uri !== "string" || !uri.startsWith(`${RULE_PAGE_SCHEME}:`)) return;
      await vscode.commands.executeCommand("markdown.showPreview", vscode.Uri.parse(uri));
    }),
    vscode.window.onDidChangeActiveTextEditor((editor) => void showAsPreview(editor)),
  );
}

/**
 * Hovers: VS Code's hover leaves out links of a scheme it does not know, so a hover's link to a rule page
 * runs OPEN_RULE_PAGE_COMMAND instead (the only command the hover's Markdown may run).
 */
export const ruleLinksInHovers: Middleware = {
  provideHover: async (document, position, token, next) => {
    const hover = await next(document, position, token);
    if (!hover) return hover;
    let changed = false;
    const contents = hover.contents.map((content) => {
      const value = content instanceof vscode.MarkdownString ? content.value : undefined;
      const rewritten = value === undefined ? undefined : ruleLinksAsCommands(value, RULE_PAGE_SCHEME);
      if (rewritten === undefined) return content;
      changed = true;
      const markdown = new vscode.MarkdownString(rewritten, (content as vscode.MarkdownString).supportThemeIcons);
      markdown.isTrusted = { enabledCommands: [OPEN_RULE_PAGE_COMMAND] };
      return markdown;
    });
    return changed ? new vscode.Hover(contents, hover.range) : hover;
  },
};
