// Helpers the tests share: opening workspace files in editors, waiting for the language client's
// diagnostics (never for a fixed time), comparing them with the CLI's report, and cleaning up.
import * as vscode from "vscode";
import { E2E, type CliFile, type CliRange } from "./expected";

export const EXTENSION_ID = "lwir-tools.lwir-tools";
/** The name of the language client's diagnostic collection: the server's diagnosticProvider identifier. */
export const LWIR_COLLECTION = "lwir";
/** How long a wait may take before the test fails (startup of the server included). */
export const WAIT_MS = 20_000;

export function workspaceUri(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error("no workspace folder is open");
  return vscode.Uri.joinPath(folder.uri, name);
}

export function expectedFile(name: string): { text: string; report: CliFile } {
  const f = E2E.files[name];
  if (!f) throw new Error(`the CLI did not report ${name}`);
  return f;
}

// ---- waiting ----------------------------------------------------------------------------------------

/**
 * Waits until `check` returns a value, calling it now and after each `event`; rejects after `ms` with
 * `what` and, if given, a description of the state at that moment.
 */
export function waitFor<T>(
  what: string,
  event: vscode.Event<unknown>,
  check: () => T | undefined,
  opts: { ms?: number; now?: boolean; state?: () => string } = {},
): Promise<T> {
  const ms = opts.ms ?? WAIT_MS;
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const finish = (f: () => void) => { if (!done) { done = true; clearTimeout(timer); sub.dispose(); f(); } };
    const test = () => {
      let value: T | undefined;
      try { value = check(); } catch (e) { return finish(() => reject(e)); }
      if (value !== undefined) finish(() => resolve(value as T));
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}${opts.state ? `; ${opts.state()}` : ""}`))), ms);
    const sub = event(test);
    if (opts.now !== false) test();
  });
}

// ---- the language client's diagnostics -----------------------------------------------------------------

/**
 * Why the suite watches the client's diagnostic collection itself: to prove that a document has NO
 * diagnostics it must know that the server has answered for it. `languages.onDidChangeDiagnostics` does not
 * say whose diagnostics changed: another collection (VS Code's built-in JSON support) writes empty lists for
 * the JSON example too, before or after the client's answer, and events are debounced (50 ms), so an event
 * for a document may come from it, or from an earlier close of the same document. The one exact signal is
 * the language client writing its own collection.
 * Every DiagnosticCollection of an extension host is an instance of one class, so wrapping that class's
 * `set` and `delete` (recording, then calling through: behaviour is unchanged) shows each write of the
 * collection named "lwir", the moment it happens. The client writes it once per answered pull, with the
 * full list (an empty one for a valid document).
 */
export interface CollectionWrite {
  uri: string;
  /** undefined: the entry was deleted (the client forgets a document when its editor closes). */
  diagnostics: readonly vscode.Diagnostic[] | undefined;
}

const writes = new vscode.EventEmitter<CollectionWrite>();
export const onLwirCollectionWrite = writes.event;
let watching = false;

export function watchLwirCollection(): void {
  if (watching) return;
  const probe = vscode.languages.createDiagnosticCollection("lwir-e2e-probe");
  try {
    let proto: object | null = Object.getPrototypeOf(probe);
    while (proto && !Object.prototype.hasOwnProperty.call(proto, "set")) proto = Object.getPrototypeOf(proto);
    const shared = proto as { set?: unknown; delete?: unknown } | null;
    if (!shared || typeof shared.set !== "function" || typeof shared.delete !== "function") {
      throw new Error("cannot watch the language client's diagnostics: DiagnosticCollection has no shared set/delete in this VS Code");
    }
    const set = shared.set as (this: vscode.DiagnosticCollection, ...args: unknown[]) => void;
    const del = shared.delete as (this: vscode.DiagnosticCollection, uri: vscode.Uri) => void;
    shared.set = function (this: vscode.DiagnosticCollection, ...args: unknown[]): void {
      set.apply(this, args);
      if (this.name !== LWIR_COLLECTION) return;
      const [first, second] = args;
      if (first instanceof vscode.Uri) writes.fire({ uri: first.toString(), diagnostics: (second as vscode.Diagnostic[] | undefined) ?? undefined });
      else if (Array.isArray(first)) for (const [u, d] of first as [vscode.Uri, vscode.Diagnostic[] | undefined][]) writes.fire({ uri: u.toString(), diagnostics: d });
    };
    shared.delete = function (this: vscode.DiagnosticCollection, uri: vscode.Uri): void {
      del.call(this, uri);
      if (this.name === LWIR_COLLECTION) writes.fire({ uri: uri.toString(), diagnostics: undefined });
    };
    watching = true;
  } finally {
    probe.dispose();
  }
}

/**
 * The next write of the client's collection for `uri` whose list `accept`s; call it BEFORE the action that
 * causes the write. Resolves with the written list.
 */
export function nextLwirDiagnostics(
  uri: vscode.Uri,
  what: string,
  accept: (diagnostics: readonly vscode.Diagnostic[]) => boolean = () => true,
  ms = WAIT_MS,
): Promise<readonly vscode.Diagnostic[]> {
  if (!watching) throw new Error("watchLwirCollection() was not called");
  const key = uri.toString();
  let last: CollectionWrite | undefined;
  const seen = new vscode.EventEmitter<void>();
  const sub = onLwirCollectionWrite((w) => { if (w.uri === key) { last = w; seen.fire(); } });
  return waitFor(what, seen.event, () => (last?.diagnostics && accept(last.diagnostics) ? last.diagnostics : undefined), {
    ms,
    now: false,
    state: () => `last write for ${key}: ${last ? (last.diagnostics ? describe(last.diagnostics) : "deleted") : "none"}`,
  }).finally(() => { sub.dispose(); seen.dispose(); });
}

/** The LWIR diagnostics VS Code holds for the document (what the Problems panel shows). */
export function lwirDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === "lwir");
}

// ---- comparing with the CLI ---------------------------------------------------------------------------

export interface Plain { code: string; message: string; severity: string; range: string }

const SEVERITIES: Record<number, string> = {
  [vscode.DiagnosticSeverity.Error]: "error",
  [vscode.DiagnosticSeverity.Warning]: "warning",
  [vscode.DiagnosticSeverity.Information]: "info",
  [vscode.DiagnosticSeverity.Hint]: "hint",
};

function rangeText(r: CliRange | vscode.Range): string {
  return `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
}

function codeOf(d: vscode.Diagnostic): string {
  const c = d.code;
  return typeof c === "object" && c !== null ? String(c.value) : String(c);
}

export function plain(d: vscode.Diagnostic): Plain {
  return { code: codeOf(d), message: d.message, severity: SEVERITIES[d.severity] ?? String(d.severity), range: rangeText(d.range) };
}

const order = (a: Plain, b: Plain) => (a.range + a.code + a.message < b.range + b.code + b.message ? -1 : 1);

/** The CLI's findings (and parse errors, code "parse") as the editor should show them, sorted. */
export function expectedDiagnostics(report: CliFile): Plain[] {
  return [
    ...report.parseErrors.map((p) => ({ code: "parse", message: p.message, severity: "error", range: rangeText(p.range) })),
    ...report.findings.map((f) => ({ code: f.code, message: f.message, severity: f.severity, range: rangeText(f.range) })),
  ].sort(order);
}

export function actualDiagnostics(diagnostics: readonly vscode.Diagnostic[]): Plain[] {
  return diagnostics.map(plain).sort(order);
}

function stableText(list: Plain[]): string {
  return JSON.stringify(list.map((p) => [p.range, p.code, p.severity, p.message]));
}

export function describe(diagnostics: readonly vscode.Diagnostic[]): string {
  return diagnostics.length === 0 ? "none" : diagnostics.map((d) => { const p = plain(d); return `${p.range} ${p.code}`; }).join(", ");
}

// ---- editors ----------------------------------------------------------------------------------------

/** Opens a workspace file in an editor (the client pulls diagnostics only for documents shown in a tab). */
export async function show(uri: vscode.Uri): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(uri);
  return vscode.window.showTextDocument(document, { preview: false });
}

/**
 * Opens the file and waits for the language client's first answer for it; returns the editor and the
 * diagnostics the client wrote.
 */
export async function showAndWaitForDiagnostics(name: string): Promise<{ editor: vscode.TextEditor; diagnostics: readonly vscode.Diagnostic[] }> {
  const uri = workspaceUri(name);
  const answered = nextLwirDiagnostics(uri, `the language server's diagnostics for ${name}`);
  const editor = await show(uri);
  return { editor, diagnostics: await answered };
}

/** Replaces the one occurrence of `search` in the document; returns the range of the new text. */
export async function replaceOnce(document: vscode.TextDocument, search: string, replacement: string): Promise<vscode.Range> {
  const text = document.getText();
  const at = text.indexOf(search);
  if (at < 0 || text.indexOf(search, at + 1) >= 0) throw new Error(`expected one ${JSON.stringify(search)} in ${document.uri}`);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(at), document.positionAt(at + search.length)), replacement);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error("the edit was not applied");
  return new vscode.Range(document.positionAt(at), document.positionAt(at + replacement.length));
}

/** The position just after the first occurrence of `marker` (at `after` characters into it, if given). */
export function positionOf(document: vscode.TextDocument, marker: string, after = marker.length): vscode.Position {
  const at = document.getText().indexOf(marker);
  if (at < 0) throw new Error(`no ${JSON.stringify(marker)} in ${document.uri}`);
  return document.positionAt(at + after);
}

/**
 * After each test: every document the test changed goes back to its saved text, and every editor closes
 * (the client then forgets the documents and deletes their diagnostics, so the next test starts afresh).
 */
export async function resetEditors(): Promise<void> {
  for (const document of vscode.workspace.textDocuments) {
    if (!document.isDirty) continue;
    // Wait for the client's answer for the reverted text (the CLI's report of the file) before closing:
    // an answer for the edited text still on its way when the editor closes could otherwise be written
    // after the next test reopens the file (the client then writes it, and pulls again).
    const name = document.uri.path.slice(document.uri.path.lastIndexOf("/") + 1);
    const original = E2E.files[name];
    const expected = original && stableText(expectedDiagnostics(original.report));
    const settled = expected === undefined ? undefined
      : nextLwirDiagnostics(document.uri, `the diagnostics of ${name} after its revert`, (d) => stableText(actualDiagnostics(d)) === expected);
    await vscode.window.showTextDocument(document, { preview: false });
    await vscode.commands.executeCommand("workbench.action.files.revert");
    if (document.isDirty) throw new Error(`could not revert ${document.uri}`);
    // a test that failed may have left the file in any state: say so, but let the next tests run
    await settled?.catch((e: unknown) => console.error(`lwir-e2e teardown: ${e instanceof Error ? e.message : e}`));
  }
  // every editor of every group (Show canonical JSON opens one beside), and the extra groups
  await vscode.commands.executeCommand("workbench.action.closeAllGroups");
  // The language client forgets a document (and deletes its diagnostics) when it sees its tab close.
  await waitFor("all tabs to close", vscode.window.tabGroups.onDidChangeTabs as vscode.Event<unknown>,
    () => (vscode.window.tabGroups.all.every((g) => g.tabs.length === 0) ? true : undefined));
  // With the workspace scan (lwir.validation.scope "workspace", the default) a closed example shows its
  // file on disk: the CLI's findings, nothing else. Wait until no closed document shows anything else.
  const wrong = () => vscode.languages.getDiagnostics().filter(([uri, ds]) => {
    const ours = ds.filter((d) => d.source === "lwir");
    if (ours.length === 0) return false;
    const name = uri.path.slice(uri.path.lastIndexOf("/") + 1);
    const file = E2E.files[name];
    return !file || uri.toString() !== workspaceUri(name).toString() || stableText(actualDiagnostics(ours)) !== stableText(expectedDiagnostics(file.report));
  });
  await waitFor("the closed documents to show their files on disk", vscode.languages.onDidChangeDiagnostics as vscode.Event<unknown>,
    () => (wrong().length > 0 ? undefined : true),
    { state: () => `still shown otherwise: ${wrong().map(([u]) => u.toString()).join(", ")}` });
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

