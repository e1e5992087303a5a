// Applies typingRules.ts in LWIR documents as the user types: `{{` closes to `{{ | }}` (in a JSON
// string, and in YAML where VS Code closed the braces without the spaces), keys typed over that closing
// replace it (typeOver.ts), and Enter at the end of a YAML step's line indents to where the next key
// goes. Each rule answers a change the user typed (not an undo, a redo or another extension's edit),
// and its edit joins the keystroke's undo step.
//
// The extension host applies edits a moment after the key, and VS Code refuses an edit made for a text
// the user has typed past. So the closing is placed again on the current text when refused (as long as
// the user is still typing the expression's first word), and each character typed over is removed
// until the removal gets through.
import * as vscode from "vscode";
import { closeTemplate, closeYamlTemplate, spaceTemplate, typedSinceOpening, yamlEnterColumn } from "./typingRules";
import { followChange, startTypeOver, type TypeOverState } from "./typeOver";

const LWIR_NAME = /\.lwir\.(json|ya?ml)$/i;
const JSON_LWIR = /"apiVersion"\s*:\s*"littleworkflow\.dev\//;
const YAML_LWIR = /^["']?apiVersion["']?[ \t]*:[ \t]*["']?littleworkflow\.dev\//m;
/** The server's rule (service/workspace.ts): by name, or a top-level `apiVersion` of LWIR near the start. */
const SNIFF = 64 * 1024;
/** Refused edits are tried again on the newer text; a run of refusals this long means something else is wrong. */
const MAX_TRIES = 20;

function isLwir(document: vscode.TextDocument): boolean {
  if (LWIR_NAME.test(document.uri.path)) return true;
  const head = document.getText(new vscode.Range(0, 0, document.positionAt(SNIFF).line + 1, 0));
  return document.languageId === "yaml" ? YAML_LWIR.test(head) : JSON_LWIR.test(head);
}

const NO_UNDO_STOP = { undoStopBefore: false, undoStopAfter: false };

/** The closing the aid is placing: the change it expects to see when VS Code applies it. */
interface Placing {
  from: number;
  /** VS Code closed the braces itself (YAML): only the spaces are ours. */
  yaml: boolean;
  /** Where the user's cursor is, followed through the keys typed since (the editor's selection may lag behind the change events). */
  cursor: number;
  expected?: { offset: number; removed: number; text: string };
  tries: number;
}

export function registerTypingAids(): vscode.Disposable {
  const typingOver = new Map<string, TypeOverState>();
  const placing = new Map<string, Placing>();
  const removing = new Set<string>();

  const editorOf = (document: vscode.TextDocument) => vscode.window.visibleTextEditors.find((e) => e.document === document);

  /** Puts `{{ ` + typed + cursor + closing over what was typed since `{{`, on the document's current text. */
  const place = (document: vscode.TextDocument, state: Placing) => {
    const key = document.uri.toString();
    const editor = editorOf(document);
    if (!editor || editor.selections.length !== 1 || state.tries > MAX_TRIES) return void placing.delete(key);
    const { from, yaml, cursor, tries } = state;
    const typed = typedSinceOpening(document.getText(), from, cursor, yaml);
    if (typed === undefined) return void placing.delete(key);
    const closing = yaml ? " " : " }}";
    state.expected = { offset: from + 2, removed: typed.length, text: ` ${typed}${closing}` };
    placing.set(key, state);
    const snippet = new vscode.SnippetString().appendText(` ${typed}`).appendTabstop(0).appendText(closing);
    const range = new vscode.Range(document.positionAt(from + 2), document.positionAt(cursor));
    void editor.insertSnippet(snippet, range, NO_UNDO_STOP).then((done) => {
      // refused: the user typed on; try again on the text they typed
      if (!done && placing.get(key) === state) place(document, { ...state, expected: undefined, cursor: state.cursor, tries: tries + 1 });
    }, () => placing.delete(key));
  };

  /** Removes the first character typed twice; again until none is left (refusals included). */
  const removeTypedOver = (document: vscode.TextDocument, tries = 0) => {
    const key = document.uri.toString();
    const offset = typingOver.get(key)?.duplicates[0];
    const editor = editorOf(document);
    if (offset === undefined || removing.has(key)) return;
    if (!editor || tries > MAX_TRIES) return void typingOver.delete(key);
    removing.add(key);
    const start = document.positionAt(offset);
    void editor.edit((b) => b.delete(new vscode.Range(start, document.positionAt(offset + 1))), NO_UNDO_STOP).then((done) => {
      removing.delete(key);
      removeTypedOver(document, done ? 0 : tries + 1);
    }, () => {
      removing.delete(key);
      typingOver.delete(key);
    });
  };

  // a save ends the placing: the aid does not change a text the user has just saved
  const saved = vscode.workspace.onWillSaveTextDocument((e) => placing.delete(e.document.uri.toString()));
  const changed = vscode.workspace.onDidChangeTextDocument((e) => {
    const key = e.document.uri.toString();
    if (e.contentChanges.length === 0) return;
    if (e.reason !== undefined || e.contentChanges.length !== 1) {
      // an undo, a redo, or an edit of several places: nothing typed is followed through it
      typingOver.delete(key);
      placing.delete(key);
      return;
    }
    const change = e.contentChanges[0];
    const edit = { offset: change.rangeOffset, removed: change.rangeLength, text: change.text };

    // the aid's own closing landed: follow what is typed over it
    const placed = placing.get(key);
    if (placed) {
      const { expected } = placed;
      if (expected && edit.offset === expected.offset && edit.removed === expected.removed && edit.text === expected.text) {
        placing.delete(key);
        const cursor = expected.offset + expected.text.length - (placed.yaml ? 1 : 3);
        typingOver.set(key, startTypeOver(placed.from, cursor, " }}")); // in YAML: the aid's space and VS Code's `}}`
        return;
      }
      // a key typed on at the cursor: the placing under way is refused, and is tried again after it
      if (edit.removed === 0 && edit.offset === placed.cursor && !/[\r\n]/.test(edit.text)) placed.cursor += edit.text.length;
      else placing.delete(key);
    }
    const state = typingOver.get(key);
    if (state) {
      const next = followChange(state, edit);
      if (next) typingOver.set(key, next);
      else typingOver.delete(key);
      removeTypedOver(e.document);
      if (next?.closing && change.text.length === 1) return; // a key typed inside or over the expression
    }

    const editor = vscode.window.activeTextEditor;
    // (the editor's selection may not be updated yet when the change arrives: positions come from the change)
    if (!editor || editor.document !== e.document || editor.selections.length !== 1) return;
    const languageId = e.document.languageId;
    if (change.text === "{" && change.rangeLength === 0 && (languageId === "json" || languageId === "jsonc")) {
      const cursor = change.range.start.translate(0, 1);
      if (!isLwir(e.document) || !closeTemplate(e.document.lineAt(cursor.line).text, cursor.character)) return;
      const at = e.document.offsetAt(cursor);
      place(e.document, { from: at - 2, yaml: false, cursor: at, tries: 0 });
      return;
    }
    if (change.text === "{}" || change.text === "{") {
      // YAML: VS Code closed the brace (a change of `{}`, or `{` typed before the `}` it closed earlier);
      // it does not before a word (`{{` typed before `Classify`): then the closing is ours, as in JSON
      if (languageId !== "yaml" || change.rangeLength !== 0) return;
      const cursor = change.range.start.translate(0, 1);
      const line = e.document.lineAt(cursor.line).text;
      const closedByEditor = spaceTemplate(line, cursor.character) !== undefined;
      if (!closedByEditor && (change.text !== "{" || !closeYamlTemplate(line, cursor.character))) return;
      if (!isLwir(e.document)) return;
      const at = e.document.offsetAt(cursor);
      place(e.document, { from: at - 2, yaml: closedByEditor, cursor: at, tries: 0 });
      return;
    }
    if (languageId === "yaml" && /^\r?\n[ \t]*$/.test(change.text)) {
      const line = change.range.start.line;
      const next = line + 1;
      if (next >= e.document.lineCount || e.document.lineAt(next).text.trim() !== "" || !isLwir(e.document)) return;
      const column = yamlEnterColumn(e.document.lineAt(line).text.slice(0, change.range.start.character));
      const indent = e.document.lineAt(next).text.length;
      if (column === undefined || column === indent) return;
      void editor.edit((b) => {
        if (column > indent) b.insert(new vscode.Position(next, 0), " ".repeat(column - indent));
        else b.delete(new vscode.Range(next, 0, next, indent - column));
      }, NO_UNDO_STOP).then((done) => {
        if (done && editor.selection.isEmpty && editor.selection.active.line === next && editor.selection.active.character < column) {
          editor.selection = new vscode.Selection(next, column, next, column);
        }
      });
    }
  });
  return vscode.Disposable.from(saved, changed);
}
