// Scenarios files (NAME.lwir.test.yaml / .yml / .json, docs/dry-run.md) in the editor: they are not
// workflows (service/workspace.ts leaves them out); here they get diagnostics, completion and quick fixes
// of their own (server/src/scenarios/). The workflow they go with is the open document when it is open (the
// editor's text wins), else the file read from where the workspace scan reads files (the disk in Node,
// the client otherwise), found as `lwir test` finds it: the `workflow:` key, else NAME.lwir.yaml|yml|json.
import { CodeActionKind, type CodeAction, type CodeActionParams, type CompletionItem, type Diagnostic, type Position } from "vscode-languageserver";
import { formatOf, parseDocument } from "../document/document";
import type { LwirDocument } from "../document/types";
import { workflowPathsFor } from "../run/scenarioRuns";
import { isScenariosFileName } from "../run/scenarios";
import { checkScenariosFile, type ScenarioFixData, type WorkflowBeside } from "../scenarios/check";
import { scenarioCompletion } from "../scenarios/completion";
import { fileNameOf } from "../service/workspace";
import { uriBeside, type WorkspaceFileSource } from "../workspace/files";
import { openOrRead } from "./openOrRead";
import { isRecord } from "./requestGuards";
import type { ServerParts } from "./serverParts";

/** Workflows above this size are not read for a scenarios file (lwir.maxFileSize applies to open ones). */
const MAX_WORKFLOW_SIZE = 8 * 1024 * 1024;

interface Found {
  /** What the scenarios file's `workflow:` key says, if anything. */
  declared?: string;
  workflow?: WorkflowBeside & { uri: string };
}

export class ScenarioFiles {
  /** By scenarios URI: the workflow found at the last look-up. */
  private readonly found = new Map<string, Found>();
  /** Parsed workflows by URI and text, so typing in the scenarios file does not parse the workflow again. */
  private readonly parsed = new Map<string, { text: string; value: unknown }>();

  constructor(private readonly parts: ServerParts, private readonly sources: () => readonly WorkspaceFileSource[]) {}

  static isScenariosUri(uri: string): boolean {
    return isScenariosFileName(fileNameOf(uri));
  }

  /** The URIs of the open scenarios files that may go with the document at `uri` (same folder). */
  openScenariosBeside(uri: string): string[] {
    const folder = uri.slice(0, uri.lastIndexOf("/") + 1);
    return this.parts.documents.keys().filter((other) => other !== uri && other.startsWith(folder) && ScenarioFiles.isScenariosUri(other));
  }

  /** Looks up the workflow of an open scenarios file again (its open text, or the file). Never rejects. */
  async prepare(uri: string): Promise<void> {
    try {
      const doc = this.scenariosDocument(uri);
      const declared = doc && isRecord(doc.value) && typeof doc.value.workflow === "string" ? doc.value.workflow : undefined;
      let workflow: Found["workflow"];
      for (const path of workflowPathsFor(fileNameOf(uri), declared)) {
        const candidate = uriBeside(uri, path);
        const read = await openOrRead(this.parts.documents, this.sources(), candidate, MAX_WORKFLOW_SIZE);
        if (!read.ok) continue;
        const format = formatOf(fileNameOf(candidate)) ?? "yaml";
        workflow = { uri: candidate, name: fileNameOf(candidate), value: this.parse(candidate, read.text, format) };
        break;
      }
      this.found.set(uri, { ...(declared !== undefined ? { declared } : {}), ...(workflow ? { workflow } : {}) });
    } catch (error) {
      this.parts.session.logError(`finding the workflow of ${uri}`, error);
    }
  }

  /** The diagnostics of an open scenarios file, with the workflow found by the last `prepare`. */
  diagnosticsOf(uri: string): Diagnostic[] {
    const doc = this.scenariosDocument(uri);
    if (!doc) return [];
    const parse = doc.parseErrors.map((p): Diagnostic => ({ range: p.range, message: p.message, severity: 1, source: "lwir", code: "parse" }));
    if (parse.length > 0 || doc.value === undefined) return parse;
    const found = this.found.get(uri);
    return checkScenariosFile(doc, found?.workflow, found?.declared);
  }

  completion(uri: string, position: Position): CompletionItem[] {
    const text = this.parts.documents.get(uri)?.getText();
    if (text === undefined) return [];
    return scenarioCompletion(text, formatOf(fileNameOf(uri)) ?? "yaml", position, this.found.get(uri)?.workflow?.value);
  }

  /** Quick fixes: the name a "did you mean" suggests, in place of the one written. */
  codeActions(params: CodeActionParams): CodeAction[] {
    const text = this.parts.documents.get(params.textDocument.uri)?.getText();
    if (text === undefined) return [];
    if (params.context.only && !params.context.only.some((k) => CodeActionKind.QuickFix.startsWith(k))) return [];
    const out: CodeAction[] = [];
    for (const d of params.context.diagnostics) {
      const data = d.data as Partial<ScenarioFixData> | undefined;
      if (!data || typeof data.code !== "string" || data.code !== d.code || !Array.isArray(data.replaceWith)) continue;
      const written = textIn(text, d.range);
      const quote = written[0] === '"' || written[0] === "'" ? written[0] : "";
      for (const name of data.replaceWith) {
        if (typeof name !== "string") continue;
        const newText = quote === '"' ? JSON.stringify(name) : quote === "'" ? `'${name.replace(/'/g, "''")}'` : name;
        out.push({ title: `Change to "${name}"`, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: true, edit: { changes: { [params.textDocument.uri]: [{ range: d.range, newText }] } } });
      }
    }
    return out;
  }

  forget(uri: string): void {
    this.found.delete(uri);
  }

  private scenariosDocument(uri: string): LwirDocument | undefined {
    const text = this.parts.documents.get(uri)?.getText();
    if (text === undefined) return undefined;
    return parseDocument(text.replace(/^\uFEFF/, ""), formatOf(fileNameOf(uri)) ?? "yaml");
  }

  private parse(uri: string, text: string, format: "json" | "yaml"): unknown {
    const cached = this.parsed.get(uri);
    if (cached && cached.text === text) return cached.value;
    const value = parseDocument(text.replace(/^\uFEFF/, ""), format).value;
    this.parsed.set(uri, { text, value });
    return value;
  }
}

function textIn(text: string, range: { start: Position; end: Position }): string {
  const lines = text.split(/\r\n|\r|\n/);
  if (range.start.line !== range.end.line) return "";
  return (lines[range.start.line] ?? "").slice(range.start.character, range.end.character);
}
