// Emacs 28 + Eglot 1.9 (Debian, batch) as an LSP client of dist/server.js over stdio: what Flymake shows must be
// what `lwir validate` reports, and completion, the quick fix, hover, definition and shutdown must work through
// Eglot's own functions. lsp.el gathers what the editor saw into one JSON report; the checks are here and, where
// Neovim makes them the same way, in ../lsp-editors.mjs (with the fixture and the editor runner).
//   node test/e2e/emacs/run.mjs
import { join } from "node:path";
import assert from "node:assert/strict";
import { ROOT, log } from "../lib.mjs";
import {
  SHUTDOWN_LIMIT_MS, checkCompletion, checkDiagnostics, checkHoverDefinitionLog, checkQuickFix, checkValidExamples, ms,
  sorted, startEditorPart,
} from "../lsp-editors.mjs";

const PART = "emacs";
const HERE = join(ROOT, "test", "e2e", PART);

const part = await startEditorPart({
  part: PART,
  packages: ["emacs-nox", "elpa-eglot"],
  // -Q: no init files, no site-start.
  command: "emacs",
  args: ["--batch", "-Q", "-l", join(HERE, "lsp.el")],
  serverPids: (r) => (r.servers ?? []).map((s) => s.pid),
  startFailureInfo: (r) => `\nserver stderr: ${r.server_stderr ?? ""}`,
});
const { checks, fixture, r, leftovers, noPhaseError } = part;
/** What Flymake shows for an LSP diagnostic: Eglot's "source [code]: message" text and its error type. */
const flymakeShape = (d) => ({ text: `lwir [${d.code}]: ${d.message}`, type: "eglot-error", range: d.range });
/** What Flymake holds, in the order of the LSP diagnostics (Eglot's copy of each gives the code). */
const flymakeShown = (list) => sorted(list.map((d) => ({ ...d, code: d.lsp_code }))).map(({ text, type, range }) => ({ text, type, range }));

await checkDiagnostics(part, (doc, expected) => {
  // What Flymake shows (regions converted back to UTF-16 positions), and Eglot's copy of each LSP diagnostic.
  assert.deepEqual(flymakeShown(doc.shown), expected.map(flymakeShape), "Flymake differs from the CLI");
  assert.ok(doc.shown.every((d) => d.has_data), "Flymake's diagnostics lost the LSP data");
});

await checkValidExamples(part, (name) => `${name}: Flymake shows diagnostics`);

// What completion-at-point offers the user: the same step ids.
await checkCompletion(part, (c, spec) => assert.deepEqual([...c.candidates].sort(), [...spec.expected].sort()));

await checkQuickFix(part, {
  appliedWith: "eglot--apply-workspace-edit",
  sent: (ca, spec) => assert.deepEqual(ca.sent.map((d) => [d.code, d.has_data]), [[spec.code, true]], "eglot-code-actions did not send the diagnostic with its data"),
  versioned: "document",
  shownAfter: (ca, remaining) => assert.deepEqual(flymakeShown(ca.shown_after), remaining.map(flymakeShape)),
});

await checks.run("push diagnostics: Eglot does not pull, and the servers pushed", () => {
  noPhaseError();
  assert.equal(r.servers.length, 2, "one server per major mode (yaml, json)");
  assert.deepEqual(r.servers.map((s) => s.language_id).sort(), ["json", "yaml"]);
  for (const s of r.servers) {
    assert.equal(s.client_pull_diagnostics, false, "this Eglot advertises textDocument.diagnostic");
    assert.equal(s.client_push_diagnostics, true);
    assert.equal(s.diagnosticProvider, false, "diagnosticProvider advertised to a client that cannot pull");
  }
  for (const d of fixture.docs) assert.ok(r.publishes.some((p) => p.uri === r.docs[d.name].uri), `no publish for ${d.name}`);
});

await checks.run("related information: left out, since Eglot 1.9 says it does not support it", () => {
  noPhaseError("diagnostics");
  for (const s of r.servers) assert.equal(s.client_related_information, false);
  for (const name of [fixture.broken, fixture.mistakes]) {
    assert.ok(r.docs[name].raw.length > 0);
    assert.ok(r.docs[name].raw.every((d) => d.relatedInformation === undefined), `${name}: relatedInformation sent`);
  }
});

await checkHoverDefinitionLog(part);

await checks.run("shutdown: eglot-shutdown, and each server exits by itself", () => {
  noPhaseError("shutdown");
  assert.equal(r.shutdown.length, 2);
  for (const s of r.shutdown) {
    assert.equal(s.error, null, `eglot-shutdown failed: ${s.error}`);
    assert.deepEqual({ status: s.status, exit_code: s.exit_code }, { status: "exit", exit_code: 0 }, "the server did not exit cleanly by itself");
    assert.equal(s.live, false);
    assert.ok(s.ms < SHUTDOWN_LIMIT_MS, `took ${s.ms} ms`);
  }
  assert.deepEqual(leftovers, [], "server processes still running after Emacs quit");
});

log(PART, `servers up ${ms(r.init_ms)}, first publish ${ms(r.publishes[0]?.at_ms)}, script ${ms(r.total_ms)}, shutdown ${r.shutdown?.map((s) => ms(s.ms)).join(" + ")}`);
process.exit(checks.finish());
