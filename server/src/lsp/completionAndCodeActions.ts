// Completion (service/completion.ts, lists shaped by service/completionList.ts) and code actions
// (service/codeActions.ts) over LSP.
import {
  CodeActionKind,
  CodeActionRequest,
  CompletionRequest,
  CompletionResolveRequest,
  CompletionTriggerKind,
  ErrorCodes,
  ResponseError,
  type CompletionParams,
  type ServerCapabilities,
} from "vscode-languageserver";
import { FIX_ALL_KIND } from "../protocol";
import { provideCodeActions } from "../service/codeActions";
import { provideCompletion, provideCompletionFromText, provideCompletionNearCursor } from "../service/completion";
import { CompletionDocumentation } from "../service/completionList";
import { LazyTextDocument } from "../lazyTextDocument";
import type { ClientSupport } from "./clientSupport";
import { isRange, isRecord, needsPosition } from "./requestGuards";
import type { ServerParts } from "./serverParts";
import type { ConfigFiles } from "./configFiles";
import { configCompletion } from "../service/configCompletion";
import { ScenarioFiles } from "./scenarioFiles";

export const COMPLETION_TRIGGER_CHARACTERS = [".", "{", '"', " ", "[", "'", ":", "-"];

/** Registers the handlers; returns the capabilities to announce for a client. */
export function registerCompletionAndCodeActions({ connection, documents, workspace, session, client, settings, configs, scenarios }: ServerParts & { configs?: ConfigFiles; scenarios?: ScenarioFiles }): (client: ClientSupport) => ServerCapabilities {
  const completionDocumentation = new CompletionDocumentation();

  connection.onRequest(CompletionRequest.type, session.documentRequest("completion", (params: CompletionParams) => {
    const uri = params.textDocument.uri;
    // .lwir.yaml, the configuration file: its keys, rule codes and levels (.lwir.json has VS Code's JSON schema support).
    if (uri.endsWith("/.lwir.yaml")) return configCompletion(documents.get(uri)?.getText() ?? "", params.position);
    // A scenarios file (NAME.lwir.test.yaml): its keys, the workflow's step ids, targets and samples.
    if (scenarios && ScenarioFiles.isScenariosUri(uri)) {
      if (!documents.get(uri)) return null;
      // JSON, opened by a trigger character: nothing, as in workflows (Enter after `"` or `:` would accept an item).
      if (params.context?.triggerKind === CompletionTriggerKind.TriggerCharacter && /\.json$/i.test(uri)) return [];
      return scenarios.prepare(uri).then(() => scenarios.completion(uri, params.position));
    }
    const state = workspace.getState(uri);
    if (state?.kind !== "lwir") return null; // not LWIR (or too large): leave the answer to other extensions
    const wire = client().completionWire;
    // Opened by the editor itself on a trigger character (completion.ts CompletionTrigger: JSON then answers inside `{{ }}` only)
    const trigger = { typed: params.context?.triggerKind === CompletionTriggerKind.TriggerCharacter };
    // Right after an edit the new version is not analysed yet: answer from its text and the last good
    // analysis rather than wait for a full parse (the next validation analyses it anyway).
    const current = workspace.peekAnalysis(uri);
    const lastGood = workspace.getLastGood(uri);
    const others = () => workspace.otherLastGood(uri);
    if (!current && lastGood) {
      const document = documents.get(uri)!;
      // JSON: the step around the cursor, without building the new text, where that suffices
      const near = document instanceof LazyTextDocument ? provideCompletionNearCursor(document, lastGood, params.position, trigger) : undefined;
      return completionDocumentation.compact(near ?? provideCompletionFromText(document.getText(), state.format, lastGood, params.position, trigger, others), wire);
    }
    const analysis = current ?? workspace.getAnalysis(uri);
    if (!analysis) return null;
    return completionDocumentation.compact(provideCompletion(analysis, lastGood, params.position, trigger, others), wire);
  }, needsPosition));

  // Documentation left off long lists (service/completionList.ts), given when the client shows an item.
  connection.onRequest(CompletionResolveRequest.type, (item) => {
    const wrongPhase = session.outOfPhase("completionItem/resolve");
    if (wrongPhase) return wrongPhase;
    if (typeof item !== "object" || item === null || typeof item.label !== "string") {
      return new ResponseError(ErrorCodes.InvalidParams, "lwir: completionItem/resolve needs a CompletionItem");
    }
    return completionDocumentation.resolve(item);
  });

  connection.onRequest(CodeActionRequest.type, session.documentRequest("codeAction", (params) => {
    if (scenarios && ScenarioFiles.isScenariosUri(params.textDocument.uri)) return scenarios.codeActions(params);
    const analysis = workspace.getAnalysis(params.textDocument.uri);
    if (!analysis) return null;
    // the rule levels the diagnostics were given: the configuration file's where it has one
    const rules = configs ? configs.rulesFor(params.textDocument.uri) : settings.current.lint.rules;
    return provideCodeActions(analysis, params, { snippetEdits: client().snippetEdits, rules });
  }, (params) => {
    if (!isRange(params.range)) return "params.range {start, end}";
    const context: unknown = params.context;
    if (!isRecord(context) || !Array.isArray(context.diagnostics)) return "params.context.diagnostics";
    if (context.only !== undefined && !(Array.isArray(context.only) && context.only.every((k) => typeof k === "string"))) {
      return "params.context.only to be a list of kinds";
    }
    return undefined;
  }));

  return (support) => ({
    completionProvider: { triggerCharacters: COMPLETION_TRIGGER_CHARACTERS, resolveProvider: support.completionWire.resolveDocumentation },
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND], resolveProvider: false },
  });
}
